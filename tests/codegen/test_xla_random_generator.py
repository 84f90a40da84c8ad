"""tf.random.Generator under jit_compile=True: the compiled draws are the uncompiled ones (the same
NumPy Philox draw, run on the host from the executable) and advance the state the same way, also
inside a compiled loop (TF 2.21's XLA compiles stateful random ops too)."""
import numpy as np
import pytest

pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402


def _draws(g):
    return g.normal([2, 3]), g.uniform([4], 1, 5, dtype=tf.int32), g.truncated_normal([3])


def test_compiled_draws_equal_uncompiled_ones_and_advance_the_state():
    g = tf.random.Generator.from_seed(3)
    compiled = tf.function(lambda: _draws(g), jit_compile=True)
    first, second = compiled(), compiled()
    state_after = g.state.numpy().copy()
    g.reset_from_seed(3)
    plain = tf.function(lambda: _draws(g))
    expected_first, expected_second = plain(), plain()
    for got, want in zip(first + second, expected_first + expected_second):
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert not np.allclose(first[0], second[0])
    np.testing.assert_array_equal(g.state.numpy(), state_after)


def test_draws_inside_a_compiled_loop():
    g = tf.random.Generator.from_seed(11)

    def total():
        s = tf.zeros([2])
        for _ in tf.range(3):
            s += g.normal([2])
        return s
    compiled = tf.function(total, jit_compile=True)().numpy()
    g.reset_from_seed(11)
    np.testing.assert_allclose(compiled, tf.function(total)().numpy(), rtol=1e-6)
