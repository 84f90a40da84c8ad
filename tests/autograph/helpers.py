"""Run one function eagerly (plain Python) and under tf.function; both results must agree."""
import numpy as np

import eagerflow as tf


def both(fn, *args, signature=None):
    eager = fn(*args)
    graph = tf.function(fn, input_signature=signature)(*args)
    flat_e, flat_g = tf.nest.flatten(eager), tf.nest.flatten(graph)
    assert len(flat_e) == len(flat_g)
    for e, g in zip(flat_e, flat_g):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e))
    return graph
