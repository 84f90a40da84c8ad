"""tf.linalg against NumPy and TensorFlow 2.21: values, return structures, errors; eager and graph.

Expected values marked "TF" were printed by TensorFlow 2.21 for the same call.
"""
import numpy as np
import pytest

import eagerflow as tf

A = np.array([[4.0, 2.0], [2.0, 3.0]])
TALL = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)


def _both(fn, *args):
    """fn's result eagerly and inside tf.function (the same op serves both)."""
    return fn(*args), tf.function(fn)(*args)


def test_inv_det_slogdet_solve_values():
    a = tf.constant(A)
    for inv in _both(tf.linalg.inv, a):
        np.testing.assert_allclose(inv.numpy(), [[0.375, -0.25], [-0.25, 0.5]])  # TF
    for det in _both(tf.linalg.det, a):
        np.testing.assert_allclose(det.numpy(), 8.0)
    sign, logabs = tf.linalg.slogdet(tf.constant([[-4.0, 2.0], [2.0, 3.0]]))
    assert type(tf.linalg.slogdet(a)).__name__ == "LogMatrixDeterminant"
    assert sign.numpy() == -1.0 and logabs.dtype == tf.float32
    np.testing.assert_allclose(logabs.numpy(), 2.7725887298583984, rtol=1e-6)  # TF
    np.testing.assert_allclose(tf.linalg.logdet(a).numpy(), 2.079441541679836)  # TF
    for x in _both(tf.linalg.solve, a, tf.constant([[1.0], [2.0]], tf.float64)):
        np.testing.assert_allclose(x.numpy(), [[-0.125], [0.75]])  # TF
    x = tf.linalg.solve(tf.constant([[1., 2.], [3., 4.]]), tf.constant([[1.], [0.]]), adjoint=True)
    np.testing.assert_allclose(x.numpy(), [[-2.0], [1.0]], rtol=1e-6)  # TF
    batch = np.random.default_rng(0).normal(size=(3, 2, 2)) + 2 * np.eye(2)
    np.testing.assert_allclose(tf.linalg.inv(tf.constant(batch)).numpy(), np.linalg.inv(batch))
    np.testing.assert_allclose(tf.linalg.det(tf.constant(batch)).numpy(), np.linalg.det(batch))


def test_triangular_and_cholesky_solve_read_one_triangle():
    m = np.array([[2.0, 9.0], [1.0, 4.0]])
    b = np.array([[2.0], [5.0]])
    x = tf.linalg.triangular_solve(tf.constant(m), tf.constant(b)).numpy()
    np.testing.assert_allclose(x, np.linalg.solve(np.tril(m), b))
    x = tf.linalg.triangular_solve(tf.constant(m), tf.constant(b), lower=False).numpy()
    np.testing.assert_allclose(x, np.linalg.solve(np.triu(m), b))
    chol = tf.linalg.cholesky(tf.constant(A))
    np.testing.assert_allclose(chol.numpy(), [[2.0, 0.0], [1.0, 1.4142135623730951]])  # TF
    np.testing.assert_allclose(tf.linalg.cholesky_solve(chol, tf.constant(b)).numpy(), np.linalg.solve(A, b))


def test_cholesky_of_a_matrix_that_is_not_positive_definite_is_nan_below_the_diagonal():
    out = tf.linalg.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]])).numpy()  # TF: [[nan, 0], [nan, nan]]
    assert np.isnan(out[0, 0]) and out[0, 1] == 0 and np.isnan(out[1, 0]) and np.isnan(out[1, 1])


def test_qr_named_tuple_shapes_and_values():
    q, r = result = tf.linalg.qr(tf.constant(TALL))
    assert type(result).__name__ == "Qr" and result._fields == ("q", "r")
    np.testing.assert_allclose(q.numpy(), [[-0.16903079, 0.897085], [-0.5070925, 0.2760267],
                                           [-0.8451542, -0.34503305]], rtol=1e-5)  # TF
    np.testing.assert_allclose(r.numpy(), [[-5.91608, -7.437357], [0.0, 0.82807845]], rtol=1e-5, atol=1e-6)  # TF
    assert [t.shape.as_list() for t in tf.linalg.qr(tf.constant(TALL), full_matrices=True)] == [[3, 3], [3, 2]]


def test_svd_returns_s_u_v_in_tensorflows_order():
    s, u, v = tf.linalg.svd(tf.constant(TALL))
    np.testing.assert_allclose(s.numpy(), [9.525518, 0.51429987], rtol=1e-5)  # TF
    assert (u.shape.as_list(), v.shape.as_list()) == ([3, 2], [2, 2])
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().T, TALL, atol=1e-5)  # a = u diag(s) v^T
    np.testing.assert_allclose(np.abs(u.numpy()), np.abs([[0.22984774, -0.8834608], [0.52474487, -0.2407829],
                                                          [0.81964207, 0.4018962]]), rtol=1e-4)  # TF, up to sign
    only_s = tf.linalg.svd(tf.constant(TALL), compute_uv=False)
    assert isinstance(only_s, tf.Tensor) and only_s.shape == (2,)
    shapes = [t.shape.as_list() for t in tf.linalg.svd(tf.constant(TALL), full_matrices=True)]
    assert shapes == [[2], [3, 3], [2, 2]]  # TF


def test_eigh_and_eigvalsh():
    e, v = tf.linalg.eigh(tf.constant(A))
    np.testing.assert_allclose(e.numpy(), [1.43844719, 5.56155281])  # TF
    np.testing.assert_allclose(v.numpy() @ np.diag(e.numpy()) @ v.numpy().T, A, atol=1e-12)
    np.testing.assert_allclose(tf.linalg.eigvalsh(tf.constant(A)).numpy(), [1.43844719, 5.56155281])
    # Only the lower triangle is read:
    upper_garbage = np.array([[4.0, 99.0], [2.0, 3.0]])
    np.testing.assert_allclose(tf.linalg.eigh(tf.constant(upper_garbage))[0].numpy(), e.numpy())


def test_diag_diag_part_set_diag_band_part_trace():
    np.testing.assert_array_equal(tf.linalg.diag(tf.constant([1., 2.]), k=1).numpy(),
                                  [[0, 1, 0], [0, 0, 2], [0, 0, 0]])  # TF
    assert tf.linalg.diag(tf.constant([[1., 2.], [3., 4.]])).shape == (2, 2, 2)
    np.testing.assert_array_equal(tf.linalg.diag(tf.constant([1, 2]), num_rows=3, num_cols=2, padding_value=9).numpy(),
                                  [[1, 9], [9, 2], [9, 9]])
    m = tf.constant([[1., 2., 3.], [4., 5., 6.]])
    np.testing.assert_array_equal(tf.linalg.diag_part(m).numpy(), [1., 5.])  # TF
    np.testing.assert_array_equal(tf.linalg.diag_part(m, k=1).numpy(), [2., 6.])  # TF
    np.testing.assert_array_equal(tf.linalg.set_diag(m, tf.constant([7., 8.])).numpy(), [[7, 2, 3], [4, 8, 6]])
    x = tf.reshape(tf.range(1., 17.), [4, 4])
    np.testing.assert_array_equal(tf.linalg.band_part(x, 1, -1).numpy(),
                                  [[1, 2, 3, 4], [5, 6, 7, 8], [0, 10, 11, 12], [0, 0, 15, 16]])  # TF
    np.testing.assert_array_equal(tf.linalg.band_part(x, 0, 0).numpy(), np.diag([1., 6., 11., 16.]))  # TF
    assert tf.linalg.trace(m).numpy() == 6.0  # TF
    np.testing.assert_array_equal(tf.linalg.trace(tf.ones([3, 2, 2])).numpy(), [2., 2., 2.])  # TF
    t = tf.linalg.trace(tf.constant([[1, 2], [3, 4]]))
    assert t.dtype == tf.int32 and t.numpy() == 5  # TF


def test_matvec_eye_lstsq():
    np.testing.assert_allclose(tf.linalg.matvec(tf.constant(A), tf.constant([1.0, 1.0], tf.float64)).numpy(), [6., 5.])
    np.testing.assert_allclose(tf.linalg.matvec(tf.constant([[1., 2.], [3., 4.]]), tf.constant([1.0, 0.0]),
                                                transpose_a=True).numpy(), [1., 2.])  # TF
    np.testing.assert_array_equal(tf.eye(2, 3, dtype=tf.int32).numpy(), [[1, 0, 0], [0, 1, 0]])  # TF
    assert tf.eye(2, batch_shape=[3]).shape == (3, 2, 2) and tf.eye(3).dtype == tf.float32
    assert tf.linalg.eye is tf.eye
    a = tf.constant([[1., 2.], [3., 4.], [5., 7.]], tf.float64)
    b = tf.constant([[1.], [2.], [4.]], tf.float64)
    np.testing.assert_allclose(tf.linalg.lstsq(a, b).numpy(), [[0.07142857], [0.5]], rtol=1e-6)  # TF
    np.testing.assert_allclose(tf.linalg.lstsq(a, b, l2_regularizer=0.5).numpy(), [[0.21886792], [0.39245283]],
                               rtol=1e-6)  # TF
    wide = tf.constant([[1., 2., 3.], [3., 4., 6.]], tf.float64)
    np.testing.assert_allclose(tf.linalg.lstsq(wide, tf.constant([[1.], [2.]], tf.float64)).numpy(),
                               [[0.0], [0.153846154], [0.230769231]], atol=1e-9)  # TF (minimum norm)


@pytest.mark.parametrize("call, message", [
    (lambda: tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]])), "Input is not invertible."),
    (lambda: tf.linalg.inv(tf.constant([[1.0, 2.0, 3.0], [2.0, 4.0, 1.0]])), "Input matrix must be square."),
    (lambda: tf.linalg.inv(tf.constant([1.0, 2.0])), "Input tensor 0 must have rank >= 2, got 1"),
    (lambda: tf.linalg.inv(tf.constant([[1, 2], [3, 4]])), "Value for attr 'T' of int32 is not in the list of "
                                                           "allowed values"),
    (lambda: tf.linalg.det(tf.constant([[1.0, 2.0, 3.0], [2.0, 4.0, 1.0]])), "Input matrix must be square."),
    (lambda: tf.linalg.solve(tf.constant([[1.0, 2.0], [2.0, 4.0]]), tf.constant([[1.], [1.]])),
     "Input matrix is not invertible."),
    (lambda: tf.linalg.solve(tf.constant(A), tf.constant([[1.0], [2.0], [3.0]], tf.float64)),
     "Input matrix and rhs are incompatible."),
    (lambda: tf.linalg.solve(tf.constant(A), tf.constant([1.0, 2.0], tf.float64)),
     "All input tensors must have the same rank."),
    (lambda: tf.linalg.band_part(tf.ones([3, 3]), 5, 0),
     "num_lower must be negative or less or equal to number of rows (3) got: 5"),
    (lambda: tf.linalg.band_part(tf.ones([3]), 1, 0), "input must be at least 2-dim, received shape: [3]"),
    (lambda: tf.linalg.diag_part(tf.constant([1., 2.])), "input must be at least 2-dim, received shape: [2]"),
])
def test_errors_are_tensorflows(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call()
    assert message in str(info.value)


def test_shape_errors_also_raise_while_tracing():
    @tf.function
    def f(x):
        return tf.linalg.inv(x)
    # TensorFlow 2.21's shape function: a ValueError at trace time, in its own words (not the kernel's)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3 for '{{node MatrixInverse}}"):
        f(tf.ones([2, 3]))


def test_graph_mode_uses_tensorflows_op_types():
    @tf.function
    def f(a, b):
        return tf.linalg.solve(a, b), tf.linalg.det(a), tf.linalg.svd(a)[0], tf.linalg.eigh(a)[0]
    cf = f.get_concrete_function(tf.TensorSpec([2, 2], tf.float64), tf.TensorSpec([2, 1], tf.float64))
    types = {op.type for op in cf.graph.get_operations()}
    assert {"MatrixSolve", "MatrixDeterminant", "Svd", "SelfAdjointEigV2"} <= types
    x, d, s, e = cf(tf.constant(A), tf.constant([[1.0], [2.0]], tf.float64))
    np.testing.assert_allclose(x.numpy(), [[-0.125], [0.75]])
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(A, compute_uv=False))


def test_eye_with_sizes_known_only_at_run_time():
    @tf.function
    def f(x):
        return tf.eye(tf.shape(x)[0], num_columns=tf.shape(x)[1], batch_shape=tf.shape(x)[:1]) + tf.zeros_like(x)
    cf = f.get_concrete_function(tf.TensorSpec([None, None]))
    out = cf(tf.ones([2, 3]))
    assert out.shape == (2, 2, 3)
    np.testing.assert_array_equal(out.numpy(), np.broadcast_to(np.eye(2, 3), (2, 2, 3)))
    np.testing.assert_array_equal(tf.function(lambda n: tf.eye(n, dtype=tf.int32))(tf.constant(3)).numpy(),
                                  np.eye(3, dtype=np.int32))


def test_cholesky_gradient_and_lstsq_with_unknown_sizes():
    a = np.array([[4.0, 2.0], [2.0, 3.0]])

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.linalg.cholesky(x))
        return tape.gradient(y, x)
    cf = f.get_concrete_function(tf.TensorSpec([None, None], tf.float64))
    with tf.GradientTape() as tape:
        x = tf.constant(a)
        tape.watch(x)
        y = tf.reduce_sum(tf.linalg.cholesky(x))
    np.testing.assert_allclose(cf(tf.constant(a)).numpy(), tape.gradient(y, x).numpy())
    lstsq = tf.function(tf.linalg.lstsq).get_concrete_function(tf.TensorSpec([None, 2], tf.float64),
                                                               tf.TensorSpec([None, 1], tf.float64))
    np.testing.assert_allclose(lstsq(tf.constant([[1., 2.], [3., 4.], [5., 7.]], tf.float64),
                                     tf.constant([[1.], [2.], [4.]], tf.float64)).numpy(), [[0.07142857], [0.5]],
                               rtol=1e-6)  # TF


@pytest.mark.parametrize("fn, args, message", [
    (tf.linalg.inv, ([[1.0, 2.0], [2.0, 4.0]],), "Input is not invertible."),
    (tf.linalg.solve, ([[1.0, 2.0], [2.0, 4.0]], [[1.0], [1.0]]), "Input matrix is not invertible."),
    (tf.math.segment_sum, ([1.0, 2.0, 3.0], [1, 0, 2]), "segment ids are not increasing"),
    (lambda d, i: tf.math.unsorted_segment_sum(d, i, 2), ([1.0, 2.0, 3.0], [0, 5, 1]),
     "segment_ids[1] = 5 is out of range [0, 2)"),
    (tf.math.bincount, ([1, -1],), "Input arr must be non-negative!"),
])
def test_run_time_errors_agree_eagerly_and_traced(fn, args, message):
    """A value only a kernel can judge raises the same class with the same words in both modes."""
    tensors = [tf.constant(a) for a in args]
    with pytest.raises(tf.errors.InvalidArgumentError) as eager:
        fn(*tensors)
    with pytest.raises(tf.errors.InvalidArgumentError) as traced:
        tf.function(fn)(*tensors)
    assert message in str(eager.value) and message in str(traced.value)


X34 = np.arange(1., 13.).reshape(3, 4).astype(np.float32)
D33 = np.arange(1., 10.).reshape(3, 3).astype(np.float32)


@pytest.mark.parametrize("align, part, matrix", [  # TF 2.21's values for k=(-1, 1)
    ("RIGHT_LEFT", [[2, 7, 12], [1, 6, 11], [5, 10, 9]], [[4, 2, 0], [7, 5, 3], [0, 8, 6]]),
    ("LEFT_RIGHT", [[2, 7, 12], [1, 6, 11], [9, 5, 10]], [[4, 1, 0], [8, 5, 2], [0, 9, 6]]),
    ("LEFT_LEFT", [[2, 7, 12], [1, 6, 11], [5, 10, 9]], [[4, 1, 0], [7, 5, 2], [0, 8, 6]]),
    ("RIGHT_RIGHT", [[2, 7, 12], [1, 6, 11], [9, 5, 10]], [[4, 2, 0], [8, 5, 3], [0, 9, 6]]),
])
def test_diagonal_bands_and_alignment(align, part, matrix):
    got = tf.linalg.diag_part(tf.constant(X34), k=(-1, 1), align=align, padding_value=9)
    np.testing.assert_array_equal(got.numpy(), part)
    np.testing.assert_array_equal(tf.linalg.diag(tf.constant(D33), k=(-1, 1), align=align).numpy(), matrix)
    traced = tf.function(lambda x: tf.linalg.diag_part(x, k=(-1, 1), align=align, padding_value=9))
    np.testing.assert_array_equal(traced(tf.constant(X34)).numpy(), part)


def test_diagonal_band_edges():  # TF 2.21's values and messages
    x = tf.constant(X34)
    np.testing.assert_array_equal(tf.linalg.diag_part(x, k=(1, 2)).numpy(), [[0, 3, 8], [2, 7, 12]])
    np.testing.assert_array_equal(tf.linalg.diag_part(x, k=(-2, -1)).numpy(), [[5, 10], [9, 0]])
    np.testing.assert_array_equal(tf.linalg.diag_part(x, k=(0, 0)).numpy(), [1, 6, 11])
    np.testing.assert_array_equal(
        tf.linalg.set_diag(tf.zeros([3, 3]), tf.constant([[1., 2., 3.], [4., 5., 0.]]), k=(-1, 0)).numpy(),
        [[1, 0, 0], [4, 2, 0], [0, 5, 3]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="lower_diag_index must not be larger than "
                                                             "upper_diag_index: 1 > 0"):
        tf.linalg.diag_part(x, k=(1, 0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="lower_diag_index is out of bound: 5. It must be "
                                                             "between -3 and 4"):
        tf.linalg.diag_part(x, k=5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="The number of rows or columns is not consistent"):
        tf.linalg.diag(tf.constant([[1., 2.], [3., 0.]]), k=(0, 1), num_rows=3, num_cols=3)
