"""tf.sparse ops against TensorFlow 2.21's results (run once, written here), including what its
kernels do with unordered indices and the errors they raise."""
import numpy as np
import pytest

import eagerflow as tf

S = tf.sparse.SparseTensor
A = ([[0, 1], [1, 0], [2, 3]], [1.0, 2.0, 3.0], [3, 4])
B = ([[0, 1], [1, 1], [2, 0]], [10.0, 20.0, 30.0], [3, 4])
U = ([[2, 3], [0, 1], [1, 0]], [3.0, 1.0, 2.0], [3, 4])
D = np.arange(8, dtype=np.float32).reshape(4, 2)


def _s(parts):
    return S(*parts)


def _check(sp, indices, values, dense_shape):
    assert isinstance(sp, S)
    np.testing.assert_array_equal(sp.indices.numpy(), np.array(indices, np.int64).reshape(-1, len(dense_shape)))
    np.testing.assert_allclose(sp.values.numpy(), values, rtol=1e-6)
    np.testing.assert_array_equal(sp.dense_shape.numpy(), dense_shape)


def _both(fn, *args):
    """fn eagerly and as a tf.function: the same result, or the same error class and text."""
    return fn(*args), tf.function(fn)(*args)


def test_add_sparse_sparse_threshold_and_unordered():
    for out in _both(lambda: tf.sparse.add(_s(A), _s(B))):
        _check(out, [[0, 1], [1, 0], [1, 1], [2, 0], [2, 3]], [11, 2, 20, 30, 3], [3, 4])
    _check(tf.sparse.add(_s(A), S([[0, 1]], [-0.5], [3, 4]), threshold=0.6), [[1, 0], [2, 3]], [2, 3], [3, 4])
    _check(tf.sparse.add(S([[0, 0]], [1], [2, 2]), S([[0, 0]], [-1], [2, 2])), [[0, 0]], [0], [2, 2])
    _check(tf.sparse.add(_s(U), _s(B)), [[0, 1], [1, 1], [2, 0], [2, 3], [0, 1], [1, 0]], [10, 20, 30, 3, 1, 2],
           [3, 4])


def test_add_errors_and_dense_operand():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Operands' shapes do not match: got 4 and 5 for "
                                                             "dimension 1"):
        tf.sparse.add(_s(A), S([[0, 1]], [1.0], [3, 5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute SparseAdd as input #4"):
        tf.sparse.add(S([[0, 0]], [1], [2, 2]), S([[0, 0]], [1.0], [2, 2]))
    expected = [[1, 2, 1, 1], [3, 1, 1, 1], [1, 1, 1, 4]]
    np.testing.assert_array_equal(tf.sparse.add(_s(A), tf.ones([3, 4])).numpy(), expected)
    np.testing.assert_array_equal(tf.sparse.add(tf.ones([2, 2]), S([[0, 0]], [1.0], [2, 2])).numpy(),
                                  [[2, 1], [1, 1]])


def test_maximum_minimum():
    _check(tf.sparse.maximum(_s(A), _s(B)), [[0, 1], [1, 0], [1, 1], [2, 0], [2, 3]], [10, 2, 20, 30, 3], [3, 4])
    _check(tf.sparse.minimum(_s(A), _s(B)), [[0, 1], [1, 0], [1, 1], [2, 0], [2, 3]], [1, 0, 0, 0, 0], [3, 4])
    _check(tf.sparse.maximum(_s(U), _s(B)), [[0, 1], [1, 1], [2, 0], [2, 3], [0, 1], [1, 0]], [10, 20, 30, 3, 1, 2],
           [3, 4])


def test_sparse_dense_matmul():
    expected = [[2, 3], [0, 2], [18, 21]]
    for out in _both(lambda: tf.sparse.sparse_dense_matmul(_s(A), D)):
        np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(tf.sparse.sparse_dense_matmul(_s(A), D.T, adjoint_b=True).numpy(), expected)
    np.testing.assert_array_equal(tf.sparse.sparse_dense_matmul(_s(U), D).numpy(), expected)  # order is free here
    np.testing.assert_array_equal(tf.sparse.sparse_dense_matmul(tf.ones([2, 3]), _s(A)).numpy(),
                                  [[2, 1, 0, 3], [2, 1, 0, 3]])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.sparse.sparse_dense_matmul(_s(A), tf.ones([3, 2]))
    assert ("Cannot multiply A and B because inner dimension does not match: 4 vs. 3.  Did you forget a transpose?  "
            "Dimensions of A: [3, 4).  Dimensions of B: [3,2]") in str(info.value)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"k \(7\) from index\[0,1\] out of bounds \(>=4\)"):
        tf.sparse.sparse_dense_matmul(S([[0, 7]], [1.0], [3, 4]), D)


def test_matmul_gradients_are_tensorflows():
    with tf.GradientTape(persistent=True) as tape:
        v, d = tf.constant([1.0, 2.0, 3.0]), tf.constant(D)
        tape.watch(v)
        tape.watch(d)
        y = tf.sparse.sparse_dense_matmul(S(A[0], v, A[2]), d)
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [5, 1, 13])
    np.testing.assert_array_equal(tape.gradient(y, d).numpy(), [[2, 2], [1, 1], [0, 0], [3, 3]])


def test_reduce_sum_and_max():
    for out in _both(lambda: tf.sparse.reduce_sum(_s(A), axis=1)):
        np.testing.assert_array_equal(out.numpy(), [1, 2, 3])
    assert float(tf.sparse.reduce_sum(_s(A))) == 6.0
    np.testing.assert_array_equal(tf.sparse.reduce_sum(_s(A), axis=0, keepdims=True).numpy(), [[2, 1, 0, 3]])
    np.testing.assert_array_equal(tf.sparse.reduce_sum(_s(U), axis=1).numpy(), [1, 2, 3])
    np.testing.assert_array_equal(tf.sparse.reduce_sum(S([[0, 0], [0, 1]], [1.0, 3.0], [2, 2]), axis=-1).numpy(),
                                  [4, 0])
    _check(tf.sparse.reduce_sum(_s(A), axis=1, output_is_sparse=True), [[0], [1], [2]], [1, 2, 3], [3])
    whole = tf.sparse.reduce_sum(S([[0, 0], [0, 1]], [1.0, 3.0], [2, 2]), output_is_sparse=True)
    assert whole.indices.shape == (1, 0) and whole.values.numpy().tolist() == [4.0] and whole.dense_shape.shape == (0,)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension 2, for input with 2 "
                                                             "dimensions."):
        tf.sparse.reduce_sum(_s(A), axis=2)
    # max: over the present values only; a group with none gives 0
    np.testing.assert_array_equal(tf.sparse.reduce_max(S([[0, 0]], [-1.0], [2, 2]), axis=1).numpy(), [-1, 0])
    np.testing.assert_array_equal(tf.sparse.reduce_max(S([[0, 0]], [-1], [2, 2]), axis=1).numpy(), [-1, 0])
    assert float(tf.sparse.reduce_max(S([[0, 0]], [-1.0], [2, 2]))) == -1.0
    np.testing.assert_array_equal(
        tf.sparse.reduce_max(S([[0, 0], [0, 1]], [-1.0, -3.0], [2, 2]), axis=0, keepdims=True).numpy(), [[-1, -3]])
    _check(tf.sparse.reduce_max(S([[0, 0], [0, 1]], [-1.0, -3.0], [2, 2]), axis=1, output_is_sparse=True),
           [[0]], [-1], [2])


def test_softmax_keeps_order_and_groups_innermost_rows():
    _check(tf.sparse.softmax(_s(A)), A[0], [1, 1, 1], [3, 4])
    _check(tf.sparse.softmax(_s(U)), U[0], [1, 1, 1], [3, 4])
    _check(tf.sparse.softmax(S([[0, 0, 0], [0, 0, 2], [1, 1, 1]], [1.0, 2.0, 3.0], [2, 2, 3])),
           [[0, 0, 0], [0, 0, 2], [1, 1, 1]], [0.26894143, 0.7310586, 1.0], [2, 2, 3])


def test_concat_reshape_slice_split():
    _check(tf.sparse.concat(1, [_s(A), _s(B)]), [[0, 1], [0, 5], [1, 0], [1, 5], [2, 3], [2, 4]],
           [1, 10, 2, 20, 3, 30], [3, 8])
    _check(tf.sparse.concat(1, [_s(A), S([[0, 0]], [5.0], [2, 2])], expand_nonconcat_dims=True),
           [[0, 1], [0, 4], [1, 0], [2, 3]], [1, 5, 2, 3], [3, 6])
    _check(tf.sparse.concat(0, [_s(U), _s(U)]), [[0, 1], [1, 0], [2, 3], [3, 1], [4, 0], [5, 3]],
           [1, 2, 3, 1, 2, 3], [6, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input shapes must match: expected 3 for dimension 0 "
                                                             "but got 2 at position 1"):
        tf.sparse.concat(1, [_s(A), S([[0, 0]], [5.0], [2, 2])])
    _check(tf.sparse.reshape(_s(A), [2, -1]), [[0, 1], [0, 4], [1, 5]], [1, 2, 3], [2, 6])
    _check(tf.sparse.reshape(_s(U), [12]), [[11], [1], [4]], [3, 1, 2], [12])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input to reshape is a SparseTensor with 12 dense "
                                                             r"values, but the requested shape requires a multiple of "
                                                             r"5. input_shape=\[3,4\] output_shape=\[5,1\]"):
        tf.sparse.reshape(_s(A), [5, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="only one output dimension may be -1, not both 0 and 1"):
        tf.sparse.reshape(_s(A), [-1, -1])
    _check(tf.sparse.slice(_s(A), [1, 0], [2, 4]), [[0, 0], [1, 3]], [2, 3], [2, 4])
    _check(tf.sparse.slice(_s(U), [0, 0], [2, 4]), [[0, 1], [1, 0]], [1, 2], [2, 4])
    _check(tf.sparse.slice(S([[0, 0], [1, 4], [2, 2]], [1.0, 2.0, 3.0], [3, 5]), [1, 3], [5, 5]), [[0, 1]], [2], [2, 2])
    first, second = tf.sparse.split(sp_input=_s(A), num_split=2, axis=1)
    _check(first, [[0, 1], [1, 0]], [1, 2], [3, 2])
    _check(second, [[2, 1]], [3], [3, 2])
    first, second = tf.sparse.split(sp_input=S([[0, 0], [1, 4], [2, 2]], [1.0, 2.0, 3.0], [3, 5]), num_split=2, axis=1)
    _check(first, [[0, 0], [2, 2]], [1, 3], [3, 3])
    _check(second, [[1, 1]], [2], [3, 2])


def test_fill_empty_rows():
    out, empty = tf.sparse.fill_empty_rows(S([[0, 1], [2, 3]], [1.0, 3.0], [4, 4]), -1.0)
    _check(out, [[0, 1], [1, 0], [2, 3], [3, 0]], [1, -1, 3, -1], [4, 4])
    assert empty.numpy().tolist() == [False, True, False, True]
    out, _ = tf.sparse.fill_empty_rows(S([[2, 3], [0, 1]], [1.0, 3.0], [4, 4]), 0.0)
    _check(out, [[0, 1], [1, 0], [2, 3], [3, 0]], [3, 0, 1, 0], [4, 4])
    out, empty = tf.sparse.fill_empty_rows(S(np.zeros((0, 2), np.int64), np.zeros(0, np.float32), [2, 3]), 7.0)
    _check(out, [[0, 0], [1, 0]], [7, 7], [2, 3])
    assert empty.numpy().tolist() == [True, True]


def test_compositions():
    _check(tf.sparse.transpose(_s(A)), [[0, 1], [1, 0], [3, 2]], [2, 1, 3], [4, 3])
    _check(tf.sparse.transpose(S([[0, 1, 2]], [1.0], [2, 3, 4]), [2, 0, 1]), [[2, 0, 1]], [1], [4, 2, 3])
    _check(tf.sparse.expand_dims(_s(A), 1), [[0, 0, 1], [1, 0, 0], [2, 0, 3]], [1, 2, 3], [3, 1, 4])
    _check(tf.sparse.expand_dims(S([[0, 1]], [1.0], [2, 2]), -1), [[0, 1, 0]], [1], [2, 2, 1])
    _check(tf.sparse.eye(3), [[0, 0], [1, 1], [2, 2]], [1, 1, 1], [3, 3])
    eye = tf.sparse.eye(2, 3, dtype=tf.int32)
    assert eye.dtype == tf.int32
    _check(eye, [[0, 0], [1, 1]], [1, 1], [2, 3])
    _check(tf.sparse.map_values(tf.math.multiply, _s(A), 2.0), A[0], [2, 4, 6], [3, 4])
    _check(tf.sparse.retain(_s(A), [True, False, True]), [[0, 1], [2, 3]], [1, 3], [3, 4])
    np.testing.assert_array_equal(
        tf.sparse.to_indicator(S([[0, 0], [0, 1], [1, 0]], [0, 2, 1], [2, 2]), 3).numpy(),
        [[True, False, True], [False, True, False]])
    np.testing.assert_array_equal(tf.sparse.to_indicator(S([[0, 1], [0, 0]], [2, 0], [2, 2]), 3).numpy(),
                                  [[True, False, True], [False, False, False]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Indices are not valid \(out of bounds\).  "
                                                             r"Shape: \[2,3\]"):
        tf.sparse.to_indicator(S([[0, 0]], [5], [2, 2]), 3)


def test_segment_reductions():
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    np.testing.assert_array_equal(tf.sparse.segment_sum(data, [0, 2, 1], [0, 0, 1]).numpy(), [[6, 8], [3, 4]])
    np.testing.assert_array_equal(tf.sparse.segment_mean(data, [0, 2, 1], [0, 0, 1]).numpy(), [[3, 4], [3, 4]])
    np.testing.assert_allclose(tf.sparse.segment_sqrt_n(data, [0, 2, 1], [0, 0, 1]).numpy(),
                               [[4.2426405, 5.656854], [3, 4]], rtol=1e-6)
    np.testing.assert_array_equal(tf.sparse.segment_sum(data, [0, 2, 1], [0, 0, 1], num_segments=4).numpy(),
                                  [[6, 8], [3, 4], [0, 0], [0, 0]])
    np.testing.assert_array_equal(tf.sparse.segment_mean(data[:2], [0, 1], [0, 2]).numpy(), [[1, 2], [0, 0], [3, 4]])
    np.testing.assert_allclose(tf.sparse.segment_sqrt_n(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1], tf.int64),
                                                        tf.constant([0, 0], tf.int64)).numpy(), [2.1213202], rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
        tf.sparse.segment_sum(data, [0, 2, 1], [1, 0, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Bad: indices\[1\] == 5 out of range \[0, 3\)"):
        tf.sparse.segment_sum(data, [0, 5, 1], [0, 0, 1])


def test_errors_match_between_eager_and_graph():
    bad_shape = (_s(A), S([[0, 1]], [1.0], [3, 5]))
    for call in (tf.sparse.add, tf.function(tf.sparse.add)):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Operands' shapes do not match"):
            call(*bad_shape)


def test_jit_compile_refuses_sparse_kernels_as_tensorflow_and_compiles_to_dense():
    pytest.importorskip("jax")
    f = tf.function(lambda v: tf.sparse.sparse_dense_matmul(S([[0, 1], [1, 0]], v, [2, 2]), tf.ones([2, 2])),
                    jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([1.0, 2.0]))
    assert "Detected unsupported operations when trying to compile graph" in str(info.value)
    assert "SparseTensorDenseMatMul (No registered 'SparseTensorDenseMatMul' OpKernel for XLA_CPU_JIT devices" \
        in str(info.value)
    g = tf.function(lambda v: tf.sparse.to_dense(S([[0, 1], [1, 0]], v, [2, 2])), jit_compile=True)
    np.testing.assert_array_equal(g(tf.constant([1.0, 2.0])).numpy(), [[0, 1], [2, 0]])


def test_ops_tensorflow_registers_no_gradient_for_raise_its_lookup_error():
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.sparse.reduce_max(S([[0, 0], [1, 1]], v, [2, 2]), axis=1)
    with pytest.raises(LookupError) as info:
        tape.gradient(y, v)
    assert str(info.value) == "gradient registry has no entry for: SparseReduceMax"  # TensorFlow 2.21's words


def test_mask_drops_the_masked_rows_of_indexed_slices():
    def parts(values, indices, dense_shape):
        masked = tf.sparse.mask(tf.IndexedSlices(values, indices, dense_shape), [12, 45])
        return masked.values, masked.indices, masked.dense_shape

    a = (tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([12, 26, 37]), tf.constant([40, 2]))
    for values, indices, dense_shape in (parts(*a), tf.function(parts)(*a)):
        np.testing.assert_array_equal(values.numpy(), [[3, 4], [5, 6]])  # TensorFlow's documented example
        np.testing.assert_array_equal(indices.numpy(), [26, 37])
        np.testing.assert_array_equal(dense_shape.numpy(), [40, 2])


def test_mask_under_jit_compile_as_tensorflow():
    pytest.importorskip("jax")
    f = tf.function(lambda x: tf.sparse.mask(tf.IndexedSlices(x, tf.constant([1, 2])), [1]).values, jit_compile=True)
    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0])).numpy(), [2.0])  # TensorFlow 2.21 compiles it: [2.]


def test_sparse_times_and_over_dense_broadcast_with_tensorflows_gradients():
    _check(_s(A) * 2.0, A[0], [2, 4, 6], [3, 4])
    _check(_s(A) * tf.constant([1.0, 2.0, 3.0, 4.0]), A[0], [2, 2, 12], [3, 4])
    _check(_s(A) / tf.constant([[2.0], [4.0], [8.0]]), A[0], [0.5, 0.5, 0.375], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"SparseDenseBinaryOpShared broadcasts dense to sparse "
                                                             r"only; got incompatible shapes: \[3,4\] vs. \[5\]"):
        _s(A) * tf.ones([5])
    v, y = tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        tape.watch(y)
        out = (S(A[0], v, A[2]) / y).values
    np.testing.assert_array_equal(tape.gradient(out, v).numpy(), [0.5, 1, 0.25])  # TensorFlow 2.21's numbers
    np.testing.assert_array_equal(tape.gradient(out, y).numpy(), [-2, -0.25, 0, -0.1875])
