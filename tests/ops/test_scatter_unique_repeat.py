"""tf.tensor_scatter_nd_* , tf.unique(_with_counts), tf.repeat and tf.meshgrid: values, gradients and
errors as TensorFlow 2.21 gives them (its outputs on the same calls are written in here), eager and
inside tf.function alike."""
import re

import numpy as np
import pytest

import eagerflow as tf

X = tf.constant([[1., 2., 3.], [4., 5., 6.]])
W = tf.constant([[1., 2., 3.], [4., 5., 6.]])


def test_tensor_scatter_values_as_tensorflow():
    assert tf.tensor_scatter_nd_update(X, [[0, 0], [1, 2]], [9., 8.]).numpy().tolist() == [[9, 2, 3], [4, 5, 8]]
    assert tf.tensor_scatter_nd_update(tf.zeros([3]), [[1], [1]], [1., 2.]).numpy().tolist() == [0, 2, 0]  # last wins
    assert tf.tensor_scatter_nd_update(X, [[1]], [[7., 7., 7.]]).numpy().tolist() == [[1, 2, 3], [7, 7, 7]]
    assert tf.tensor_scatter_nd_add(X, [[0, 0], [0, 0]], [1., 1.]).numpy().tolist() == [[3, 2, 3], [4, 5, 6]]
    assert tf.tensor_scatter_nd_sub(X, [[0, 1]], [1.]).numpy().tolist() == [[1, 1, 3], [4, 5, 6]]
    assert tf.tensor_scatter_nd_max(X, [[0, 1], [1, 1]], [10., 0.]).numpy().tolist() == [[1, 10, 3], [4, 5, 6]]
    assert tf.tensor_scatter_nd_min(X, [[0, 1], [1, 1]], [10., 0.]).numpy().tolist() == [[1, 2, 3], [4, 0, 6]]
    out = tf.tensor_scatter_nd_update(tf.constant([1, 2, 3]), [[0]], [9])
    assert out.dtype == tf.int32 and out.numpy().tolist() == [9, 2, 3]


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_tensor_scatter_errors_as_tensorflow(mode):
    def call(fn, *args):
        return fn(*args) if mode == "eager" else tf.function(fn)(*args)
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("indices[0] = [5, 0] does not index into "
                                                                       "shape [2,3]")):
        call(lambda x: tf.tensor_scatter_nd_update(x, [[5, 0]], [1.]), X)
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Outer dimensions of indices and update must match. Indices shape: [1,2], updates shape:[2]")):
        call(lambda x: tf.tensor_scatter_nd_update(x, [[0, 0]], [1., 2.]), X)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Indices and updates specified for empty output shape"):
        call(lambda x: tf.tensor_scatter_nd_update(x, tf.zeros([2, 0], tf.int32), [1., 2.]), tf.constant(0.))


def test_tensor_scatter_gradients_as_tensorflow_and_finite_differences():
    u = tf.constant([9., 8.])
    with tf.GradientTape(persistent=True) as g:
        g.watch(X)
        g.watch(u)
        y = tf.tensor_scatter_nd_update(X, [[0, 0], [1, 2]], u) * W
        z = tf.tensor_scatter_nd_add(X, [[0, 0], [0, 0]], u) * X
    # TF 2.21: [[0, 2, 3], [4, 5, 0]], [1, 6], [[19, 4, 6], [8, 10, 12]], [1, 1]
    assert [t.numpy().tolist() for t in g.gradient(y, [X, u])] == [[[0, 2, 3], [4, 5, 0]], [1, 6]]
    assert [t.numpy().tolist() for t in g.gradient(z, [X, u])] == [[[19, 4, 6], [8, 10, 12]], [1, 1]]
    u2 = tf.constant([10., 0.])
    with tf.GradientTape() as g:
        g.watch(X)
        g.watch(u2)
        m = tf.reduce_sum(tf.tensor_scatter_nd_max(X, [[0, 1], [1, 1]], u2) * W)
    # TF 2.21: [[1, 0, 3], [4, 5, 6]], [2, 0]
    assert [t.numpy().tolist() for t in g.gradient(m, [X, u2])] == [[[1, 0, 3], [4, 5, 6]], [2, 0]]
    # the subtract rule against central differences
    base, upd = np.array([[1., 2.], [3., 4.]]), np.array([0.5, -1.5])

    def loss(b, v):
        return float(np.sum(tf.tensor_scatter_nd_sub(tf.constant(b), [[0, 1], [1, 0]], tf.constant(v)).numpy() ** 2))
    bt, vt = tf.constant(base), tf.constant(upd)
    with tf.GradientTape() as g:
        g.watch(bt)
        g.watch(vt)
        s = tf.reduce_sum(tf.tensor_scatter_nd_sub(bt, [[0, 1], [1, 0]], vt) ** 2)
    gb, gv = g.gradient(s, [bt, vt])
    eps = 1e-6
    num_v = [(loss(base, upd + eps * np.eye(2)[i]) - loss(base, upd - eps * np.eye(2)[i])) / (2 * eps) for i in range(2)]
    np.testing.assert_allclose(gv.numpy(), num_v, rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), 2 * (base - np.array([[0, 0.5], [-1.5, 0]])), rtol=1e-12)


def test_unique_and_counts_as_tensorflow():
    y, idx = tf.unique(tf.constant([4, 2, 4, 1, 2]))
    assert (y.numpy().tolist(), idx.numpy().tolist(), idx.dtype) == ([4, 2, 1], [0, 1, 0, 2, 1], tf.int32)
    result = tf.unique_with_counts(tf.constant([4, 2, 4, 1, 2]))
    assert (result.y.numpy().tolist(), result.idx.numpy().tolist(), result.count.numpy().tolist()) == (
        [4, 2, 1], [0, 1, 0, 2, 1], [2, 2, 1])
    assert tf.unique(tf.constant([1.5, 1.5, 0.])).y.numpy().tolist() == [1.5, 0.0]
    assert tf.unique(tf.constant([3, 3]), out_idx=tf.int64).idx.dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match="unique expects a 1D vector."):
        tf.unique(tf.constant([[1, 2]]))
    traced = tf.function(lambda x: tf.unique(x))(tf.constant([7, 7, 3]))
    assert [t.numpy().tolist() for t in traced] == [[7, 3], [0, 0, 1]]


def test_repeat_as_tensorflow():
    assert tf.repeat(X, 2, axis=0).numpy().tolist() == [[1, 2, 3], [1, 2, 3], [4, 5, 6], [4, 5, 6]]
    assert tf.repeat(X, [1, 2, 0], axis=1).numpy().tolist() == [[1, 2, 2], [4, 5, 5]]
    assert tf.repeat(tf.constant([[1, 2], [3, 4]]), 2).numpy().tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.repeat(X, [1, 2], axis=1)


def test_repeat_with_counts_known_only_when_running_and_its_gradient():
    f = tf.function(lambda x, r: tf.repeat(x, r, axis=1))
    spec = f.get_concrete_function(tf.TensorSpec([None, None]), tf.TensorSpec([None], tf.int32))
    assert spec(X, tf.constant([1, 2, 0])).numpy().tolist() == [[1, 2, 2], [4, 5, 5]]
    assert spec(X, tf.constant([0, 0, 3])).numpy().tolist() == [[3, 3, 3], [6, 6, 6]]
    with tf.GradientTape() as g:
        g.watch(X)
        y = tf.reduce_sum(tf.repeat(X, [1, 2, 0], axis=1) * tf.constant([[1., 2., 3.], [4., 5., 6.]]))
    assert g.gradient(y, X).numpy().tolist() == [[1, 5, 0], [4, 11, 0]]  # each source: the sum of its copies' weights


def test_meshgrid_as_tensorflow():
    xs, ys = tf.meshgrid([1, 2], [3, 4, 5])
    assert xs.numpy().tolist() == [[1, 2], [1, 2], [1, 2]] and ys.numpy().tolist() == [[3, 3], [4, 4], [5, 5]]
    xs, ys = tf.meshgrid([1, 2], [3, 4, 5], indexing="ij")
    assert xs.numpy().tolist() == [[1, 1, 1], [2, 2, 2]] and ys.numpy().tolist() == [[3, 4, 5], [3, 4, 5]]
    with pytest.raises(ValueError, match="Argument `indexing` parameter must be either 'xy' or 'ij', got 'xz'"):
        tf.meshgrid([1], [2], indexing="xz")
