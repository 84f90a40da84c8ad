"""tf.bitcast and tf.sets against TensorFlow 2.21 (values, shapes, error classes and words written in)."""
import numpy as np
import pytest

import eagerflow as tf


def _parts(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


def test_bitcast_shapes_and_values():
    np.testing.assert_array_equal(tf.bitcast(tf.constant([1.0, -2.0]), tf.int32).numpy(), [1065353216, -1073741824])
    np.testing.assert_array_equal(tf.bitcast(tf.constant([1.0]), tf.uint8).numpy(), [[0, 0, 128, 63]])
    np.testing.assert_array_equal(tf.bitcast(tf.constant([[0, 0, 128, 63]], tf.uint8), tf.float32).numpy(), [1.0])
    np.testing.assert_array_equal(tf.bitcast(tf.constant([1 + 2j], tf.complex64), tf.float32).numpy(), [[1.0, 2.0]])
    assert int(tf.bitcast(tf.constant(1.5, tf.float64), tf.int64)) == 4609434218613702656


def test_bitcast_errors():
    # TensorFlow names the dtypes by their DataType numbers (uint8 is 4, float 1, int16 5).
    for make, words in [(lambda: tf.bitcast(tf.constant([0, 0, 128], tf.uint8), tf.float32), "Cannot bitcast from 4 to 1"),
                        (lambda: tf.bitcast(tf.constant(1, tf.uint8), tf.int16), "Cannot bitcast from 4 to 5")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=words):
            make()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of bool is not in the list of allowed values: bfloat16, half, float"):
        tf.bitcast(tf.constant([True]), tf.uint8)


def test_bitcast_static_shapes_in_graphs():
    down = tf.function(lambda v: tf.bitcast(v, tf.uint8)).get_concrete_function(tf.TensorSpec([None, 2], tf.float32))
    up = tf.function(lambda v: tf.bitcast(v, tf.float32)).get_concrete_function(tf.TensorSpec([None, 4], tf.uint8))
    assert down.output_shapes.as_list() == [None, 2, 4] and up.output_shapes.as_list() == [None]
    assert [op.type for op in down.graph.get_operations()] == ["Placeholder", "Bitcast", "Identity"]


A = tf.constant([[1, 2, 3], [4, 5, 6]])
B = tf.constant([[2, 9, 1], [4, 4, 7]])
SB = tf.sparse.SparseTensor([[0, 0], [1, 0], [1, 1]], [2, 5, 4], [2, 3])


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_set_operations_as_tensorflow(mode):
    run = (lambda f, *a: f(*a)) if mode == "eager" else (lambda f, *a: tf.function(f)(*a))
    assert _parts(run(tf.sets.intersection, A, B)) == ([[0, 0], [0, 1], [1, 0]], [1, 2, 4], [2, 2])
    assert _parts(run(tf.sets.union, A, B)) == (
        [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]], [1, 2, 3, 9, 4, 5, 6, 7], [2, 4])
    assert _parts(run(tf.sets.difference, A, B)) == ([[0, 0], [1, 0], [1, 1]], [3, 5, 6], [2, 2])
    assert _parts(run(lambda a, b: tf.sets.difference(a, b, aminusb=False), A, B)) == ([[0, 0], [1, 0]], [9, 7], [2, 1])
    assert _parts(run(tf.sets.intersection, A, SB)) == ([[0, 0], [1, 0], [1, 1]], [2, 4, 5], [2, 2])
    assert _parts(run(tf.sets.union, SB, A)) == (
        [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]], [1, 2, 3, 4, 5, 6], [2, 3])
    assert _parts(run(tf.sets.intersection, SB, SB)) == ([[0, 0], [1, 0], [1, 1]], [2, 4, 5], [2, 2])
    np.testing.assert_array_equal(run(tf.sets.size, SB).numpy(), [1, 2])


def test_set_operations_on_strings_rank_three_and_empty_sets():
    assert _parts(tf.sets.union(tf.constant([["a", "b"]]), tf.constant([["c", "a"]]))) == (
        [[0, 0], [0, 1], [0, 2]], [b"a", b"b", b"c"], [1, 3])
    assert _parts(tf.sets.union(tf.constant([[[1, 2]], [[3, 3]]]), tf.constant([[[2, 5]], [[1, 1]]]))) == (
        [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 0], [1, 0, 1]], [1, 2, 5, 1, 3], [2, 1, 3])
    assert _parts(tf.sets.intersection(tf.constant([[1], [2]]), tf.constant([[1], [3]]))) == ([[0, 0]], [1], [2, 1])


def test_set_errors_as_tensorflow():
    with pytest.raises(TypeError, match=r"'a' has invalid dtype `<dtype: 'float32'>` not in supported dtypes"):
        tf.sets.union(tf.constant([[1.0]]), tf.constant([[2.0]]))
    with pytest.raises(TypeError, match=r"Types don't match, <dtype: 'int32'> vs <dtype: 'int64'>\."):
        tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1, 2]], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape \[2\] has rank 1 < 2"):
        tf.sets.union(tf.constant([1, 2]), tf.constant([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Mismatched shapes \[1\] vs \[2\]"):
        tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1], [2]]))
    with pytest.raises(TypeError, match=r"Expected `SparseTensor`, got tf.Tensor\(\[\[1 1 2\]\], shape=\(1, 3\), "
                                        r"dtype=int32\)\."):
        tf.sets.size(tf.constant([[1, 1, 2]]))


def test_set_graph_ops_and_static_shapes():
    cf = tf.function(tf.sets.union).get_concrete_function(tf.TensorSpec([None, 3], tf.int32),
                                                          tf.TensorSpec([None, 3], tf.int32))
    assert "DenseToDenseSetOperation" in [op.type for op in cf.graph.get_operations()]
    out = cf.structured_outputs
    assert out.indices.shape.as_list() == [None, 2] and out.values.shape.as_list() == [None]
    assert out.dense_shape.shape.as_list() == [2]
    assert sorted(n for n in dir(tf.sets) if not n.startswith("_")) == ["difference", "intersection", "size", "union"]


def test_top_k_returns_tensorflows_named_tuple():
    r = tf.math.top_k([1.0, 5.0, 3.0, 5.0], k=2)
    assert type(r).__name__ == "TopKV2" and r._fields == ("values", "indices")
    kept = tf.nest.map_structure(lambda t: t.numpy().tolist(), r)
    assert type(kept).__name__ == "TopKV2" and kept.values == [5.0, 5.0] and kept.indices == [1, 3]
    traced = tf.function(lambda x: tf.math.top_k(x, 2))(tf.constant([1.0, 5.0, 3.0]))
    assert type(traced).__name__ == "TopKV2" and traced.indices.numpy().tolist() == [1, 2]


def test_bitwise_as_tensorflow():
    B = tf.bitwise
    # TensorFlow 2.21: shift amounts are clamped into [0, bits - 1]; left shifts wrap.
    assert B.right_shift(tf.constant([-8, -8, 8], tf.int32), tf.constant([40, -3, 2])).numpy().tolist() == [-1, -8, 2]
    assert B.left_shift(tf.constant([1, 100, -1], tf.int8), tf.constant([7, 2, 9], tf.int8)).numpy().tolist() == \
        [-128, -112, -128]
    assert B.right_shift(tf.constant([200, 255], tf.uint8), tf.constant([1, 9], tf.uint8)).numpy().tolist() == [100, 1]
    assert B.bitwise_xor(tf.constant([5, 6]), 3).numpy().tolist() == [6, 5]
    assert B.invert(tf.constant([-1, 0], tf.int64)).numpy().tolist() == [0, -1]
    assert sorted(n for n in dir(B) if not n.startswith("_")) == [
        "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]
    cf = tf.function(B.left_shift).get_concrete_function(tf.TensorSpec([2], tf.int32), tf.TensorSpec([2], tf.int32))
    assert [op.type for op in cf.graph.get_operations()] == ["Placeholder", "Placeholder", "LeftShift", "Identity"]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of float is not in the list of allowed values: int8, int16, int32"):
        B.left_shift(tf.constant([1.0]), tf.constant([1.0]))
