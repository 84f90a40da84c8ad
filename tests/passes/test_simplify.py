"""passes/simplify.py: Identity and StopGradient are aliases at run time; their outputs are
forwarded to their inputs, while the traced graph (which gradients read) keeps them."""
import numpy as np

import eagerflow as tf
from eagerflow._src.passes.prune import prune
from eagerflow._src.passes.simplify import forward_identities

from .helpers import live_types, run, trace

S = tf.TensorSpec([3])


def test_identity_chains_resolve_to_the_computing_op():
    def f(x):
        return tf.identity(tf.identity(tf.exp(x)))

    graph = trace(f, S)
    program = run(graph, forward_identities)
    assert program.resolve(graph.outputs[0]).op.type == "Exp"
    assert live_types(run(graph, forward_identities, prune)) == ["Exp"]


def test_returning_a_parameter_returns_the_placeholder():
    def f(x, y):
        return y, tf.stop_gradient(x)

    graph = trace(f, S, S)
    program = run(graph, forward_identities, prune)
    assert [program.resolve(t) for t in graph.outputs] == [graph.inputs[1], graph.inputs[0]]
    assert live_types(program) == []
    cf = tf.function(f).get_concrete_function(S, S)
    a, b = tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0, 6.0])
    y, x = cf(a, b)
    assert y.numpy().tolist() == [4.0, 5.0, 6.0] and x.numpy().tolist() == [1.0, 2.0, 3.0]


def test_graph_keeps_stop_gradient_so_gradients_still_stop():
    @tf.function
    def f(x):
        return x * tf.stop_gradient(x)

    cf = f.get_concrete_function(S)
    assert "StopGradient" in [op.type for op in cf.graph.get_operations()]
    assert "StopGradient" not in cf.code
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), x.numpy())  # d(x*c)/dx = c, not 2x
