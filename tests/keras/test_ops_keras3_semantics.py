"""keras.ops behaviour checked against independent references where Keras 3.15 on TF is not the reference:
NumPy for rot90 and vectorize (Keras on TF gets rot90(k=2) of a non-square array wrong and refuses
vectorize), the simplex projection's definition for sparsemax on another axis, finite differences for
gradients, and the tape-built jvp against its analytic value."""
from __future__ import annotations

import numpy as np

import eagerflow as tf

O = tf.keras.ops
X = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)


def test_rot90_matches_numpy_for_every_k():
    r = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for k in range(-1, 5):
        np.testing.assert_array_equal(O.rot90(tf.constant(X), k).numpy(), np.rot90(X, k))
        np.testing.assert_array_equal(O.rot90(tf.constant(r), k, axes=(1, 2)).numpy(), np.rot90(r, k, axes=(1, 2)))


def test_vectorize_matches_numpy():
    f = O.vectorize(lambda a, b: a * 2.0 + b)
    a = np.array([[3.0, 1.0], [2.0, 5.0]], np.float32)
    np.testing.assert_allclose(f(tf.constant(a), tf.constant(1.5)).numpy(), np.vectorize(lambda p, q: p * 2 + q)(a, 1.5))


def _sparsemax_reference(z):
    """The Euclidean projection onto the simplex, by the sorted-threshold formula, one vector at a time."""
    s = np.sort(z)[::-1]
    k = np.arange(1, len(z) + 1)
    support = 1 + k * s > np.cumsum(s)
    tau = (np.cumsum(s)[support][-1] - 1) / k[support][-1]
    return np.maximum(z - tau, 0)


def test_sparsemax_on_any_axis_projects_onto_the_simplex():
    out0 = O.sparsemax(tf.constant(X), axis=0).numpy()
    np.testing.assert_allclose(out0, np.stack([_sparsemax_reference(c) for c in X.T], axis=1), atol=1e-6)
    np.testing.assert_allclose(out0.sum(axis=0), 1.0, atol=1e-6)


def _finite_difference(f, x, eps=1e-3):
    x = x.astype(np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += eps
        down[idx] -= eps
        g[idx] = (float(f(up)) - float(f(down))) / (2 * eps)
    return g


def _tape_grad(fn, x):
    t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = tf.reduce_sum(fn(t))
    return tape.gradient(y, t).numpy()


def test_gradients_match_finite_differences():
    m = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    checks = [
        (lambda t: O.logaddexp(t, 0.25), X.astype(np.float64)),
        (lambda t: O.cbrt(t), X.astype(np.float64)),
        (lambda t: O.quantile(t, 0.3), X.astype(np.float64)),
        (lambda t: O.nanmean(t), X.astype(np.float64)),
        (lambda t: O.cdist(t, tf.constant(X[:, ::-1].astype(np.float64))), X.astype(np.float64)),
        (lambda t: O.slogdet(t)[1], m),
        (lambda t: O.norm(t, ord="nuc"), m),
        (lambda t: O.rms_normalization(t) * tf.constant(X.astype(np.float64)), X.astype(np.float64)),
        (lambda t: O.sparse_plus(t), X.astype(np.float64) / 3.5),
        (lambda t: O.associative_scan(lambda a, b: a * b, t, axis=1), X.astype(np.float64)),
        (lambda t: O.kron(t, tf.constant(X.astype(np.float64))), X.astype(np.float64)),
    ]
    for fn, x in checks:
        want = _finite_difference(lambda a: tf.reduce_sum(fn(tf.constant(a))).numpy(), x)
        np.testing.assert_allclose(_tape_grad(fn, x), want, rtol=1e-4, atol=1e-6)


def test_jvp_is_the_directional_derivative():
    x = tf.constant(X)
    tangent = tf.constant(np.full_like(X, 0.5))
    out, tangent_out = O.jvp(lambda a: O.sin(a) * a, (x,), (tangent,))
    np.testing.assert_allclose(out.numpy(), np.sin(X) * X, rtol=1e-6)
    np.testing.assert_allclose(tangent_out.numpy(), (np.cos(X) * X + np.sin(X)) * 0.5, rtol=1e-5)
    out, tangent_out, aux = O.jvp(lambda a: (O.exp(a), a * 2), (x,), (tangent,), has_aux=True)
    np.testing.assert_allclose(tangent_out.numpy(), np.exp(X) * 0.5, rtol=1e-5)
    np.testing.assert_allclose(aux.numpy(), X * 2)


def test_control_flow_traces_and_differentiates():
    v = tf.constant([3.0, 1.0, 2.0, 5.0])

    @tf.function
    def run(x):
        carry, ys = O.scan(lambda c, e: (c * e, c), tf.constant(1.0), x)
        return carry + O.sum(ys) + O.sum(O.map(lambda e: e * e, x)) + O.switch(1, [lambda a: a, lambda a: -a], x)[0]
    np.testing.assert_allclose(run(v).numpy(), 30.0 + (1 + 3 + 3 + 6) + 39.0 - 3.0)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = O.fori_loop(0, 3, lambda i, acc: acc * v, tf.ones_like(v))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), 3 * v.numpy() ** 2)


def test_slice_update_and_scatter_follow_numpy_indexing():
    x = np.zeros((3, 4), np.float32)
    got = O.slice_update(tf.constant(x), (1, 2), tf.constant([[1.0, 2.0], [3.0, 4.0]])).numpy()
    want = x.copy()
    want[1:3, 2:4] = [[1, 2], [3, 4]]
    np.testing.assert_array_equal(got, want)
    start = tf.constant([0, 1])
    traced = tf.function(lambda s: O.slice_update(tf.constant(x), s, tf.ones([2, 2])))
    want = x.copy()
    want[0:2, 1:3] = 1
    np.testing.assert_array_equal(traced(start).numpy(), want)
