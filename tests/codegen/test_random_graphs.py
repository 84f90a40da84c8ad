"""Differential test on random elementwise graphs: the generated code after every pass (strength
reduction, in-place `out=` statements) computes what the reference interpreter (graph/evaluate.py,
one eager kernel per op) computes, and leaves every array the user owns as it was.

The graphs mix what the passes rewrite (constant powers, power-of-two divisions, chains of ufuncs)
with what must stop them (views from reshape/transpose/slices, Identity, broadcasting, captured
tensors, a variable, parameters, values returned and read again). Values agree within a few ulp:
strength reduction rounds `x ** 3` as `x * x * x` (TensorFlow's graph value), the interpreter
rounds once with `np.power`.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.graph.evaluate import evaluate

SHAPE = (4, 3)


def _random_function(seed, captured, variable, shape=SHAPE):
    """A function of (x, row) whose body is a random sequence of steps over earlier values."""
    rng = np.random.default_rng(seed)
    steps = [rng.integers(0, 14) for _ in range(rng.integers(4, 16))]
    picks = [tuple(rng.integers(0, 1 << 30, 3)) for _ in steps]
    n_out = int(rng.integers(1, 4))

    def fn(x, row):
        values = [x, row, captured, variable.read_value() * 1.0]
        full = [x, captured]  # values of SHAPE (row broadcasts into it)
        for step, (a, b, c) in zip(steps, picks):
            u = values[a % len(values)]
            w = values[b % len(values)]
            f = full[c % len(full)]
            if step == 0:
                v = u + w
            elif step == 1:
                v = u * w
            elif step == 2:
                v = tf.tanh(u - w)
            elif step == 3:
                v = tf.tanh(u ** int(2 + c % 3))  # 2, 3, 4: squares and products
            elif step == 4:
                v = tf.abs(u) ** 0.5
            elif step == 5:
                v = u / (2.0, 4.0, 3.0, 0.5)[c % 4]
            elif step == 6:
                v = tf.reshape(tf.reshape(f, [-1]) * 1.0, shape)  # a view of a fresh product
            elif step == 7:
                v = tf.transpose(tf.transpose(f) + 1.0)
            elif step == 8:
                v = tf.identity(u)
            elif step == 9:
                v = tf.exp(tf.tanh(u)) * 0.5
            elif step == 10:
                v = tf.maximum(u, w)
            elif step == 11:
                v = tf.concat([f[:2] * 2.0, f[2:]], axis=0)  # slices are views
            elif step == 12:
                v = tf.reduce_sum(f, axis=0) + u  # a new [3] row, broadcast against u
            else:
                v = tf.square(u) - 0.25
            values.append(v)
            if v.shape.as_list() == list(shape):
                full.append(v)
        return tuple(values[-1 - i] for i in range(n_out)) + (values[int(a) % len(values)],)
    return fn


def _check(seed, shape, calls=2):
    rng = np.random.default_rng(1000 + seed)
    x = rng.uniform(-2, 2, shape).astype(np.float32)
    row = rng.uniform(-2, 2, shape[1:]).astype(np.float32)
    cap = rng.uniform(-2, 2, shape).astype(np.float32)
    var = rng.uniform(-2, 2, shape).astype(np.float32)
    captured, variable = tf.constant(cap.copy()), tf.Variable(var.copy())
    fn = _random_function(seed, captured, variable, shape)
    tx, trow = tf.constant(x.copy()), tf.constant(row.copy())
    f = tf.function(fn)
    cf = f.get_concrete_function(tx, trow)
    with np.errstate(all="ignore"):
        first = f(tx, trow)
        got = [t.numpy().copy() for t in first]
        later = [[t.numpy() for t in f(tx, trow)] for _ in range(calls - 1)]
        want = [t.numpy() for t in evaluate(cf.graph, [tx, trow])]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=cf.code)
        np.testing.assert_array_equal(first[i].numpy(), g, err_msg=cf.code)  # later calls left it alone
        for again in later:
            np.testing.assert_array_equal(again[i], g, err_msg=cf.code)
    for tensor, original in ((tx, x), (trow, row), (captured, cap), (variable, var)):
        np.testing.assert_array_equal(tensor.numpy(), original, err_msg=cf.code)
    return cf.code


@pytest.mark.parametrize("seed", range(40))
def test_generated_code_matches_the_reference_interpreter(seed):
    _check(seed, SHAPE)


@pytest.mark.parametrize("seed", range(8))
def test_large_graphs_reusing_spare_buffers_across_calls(seed):
    """Shapes big enough for the pools of spare buffers (codegen/buffers.py): four calls, and what
    each returned is never a buffer a later call writes into."""
    code = _check(seed, (256, 272), calls=4)
    assert "spare_" in code or "out=" not in code


def test_the_random_graphs_exercise_both_rewrites():
    """The table above is only a test of the passes if they fire in it."""
    codes = []
    for seed in range(40):
        captured, variable = tf.constant(np.ones(SHAPE, np.float32)), tf.Variable(np.ones(SHAPE, np.float32))
        f = tf.function(_random_function(seed, captured, variable))
        codes.append(f.get_concrete_function(tf.TensorSpec(SHAPE), tf.TensorSpec(SHAPE[1:])).code)
    text = "\n".join(codes)
    assert "out=" in text and "k_Square" in text and "k_Sqrt" in text
    assert "k_Pow" not in text
