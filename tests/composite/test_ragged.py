"""tf.RaggedTensor basics against TensorFlow 2.21 (values, reprs and messages written here):
factories, partitions, to_tensor/to_list, tf.ragged.range, tf.strings.split, and tf.function."""
import numpy as np
import pytest

import eagerflow as tf


def _rt():
    return tf.ragged.constant([[1, 2], [], [3]])


def test_constant_parts_shape_and_repr():
    rt = _rt()
    assert repr(rt) == str(rt) == "<tf.RaggedTensor [[1, 2], [], [3]]>"
    assert rt.shape == tf.TensorShape([3, None]) and rt.shape.as_list() == [3, None]
    assert rt.dtype == tf.int32 and rt.ragged_rank == 1 and rt.row_splits.dtype == tf.int64
    np.testing.assert_array_equal(rt.values.numpy(), [1, 2, 3])
    np.testing.assert_array_equal(rt.row_splits.numpy(), [0, 2, 2, 3])
    np.testing.assert_array_equal(rt.row_lengths().numpy(), [2, 0, 1])
    np.testing.assert_array_equal(rt.value_rowids().numpy(), [0, 0, 2])
    assert int(rt.nrows()) == 3
    np.testing.assert_array_equal(rt.bounding_shape().numpy(), [3, 2])
    assert rt.to_list() == [[1, 2], [], [3]]
    assert repr(tf.ragged.constant([[1.0, 2.5], [3.0]])) == "<tf.RaggedTensor [[1.0, 2.5], [3.0]]>"
    assert repr(tf.ragged.constant([["a", "b"], ["c"]])) == "<tf.RaggedTensor [[b'a', b'b'], [b'c']]>"
    assert repr(tf.ragged.constant([[1, 2], [3, 4]])) == "<tf.RaggedTensor [[1, 2],\n [3, 4]]>"
    assert repr(tf.RaggedTensorSpec([None, None], tf.int32)) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert repr(rt._type_spec) == "RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64)"


def test_nested_and_inner_shape():
    r2 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert repr(r2) == "<tf.RaggedTensor [[[1, 2], [3]], [[4]]]>"
    assert r2.shape.as_list() == [2, None, None]
    assert [s.numpy().tolist() for s in r2.nested_row_splits] == [[0, 2, 3], [0, 2, 3, 4]]
    np.testing.assert_array_equal(r2.flat_values.numpy(), [1, 2, 3, 4])
    np.testing.assert_array_equal(r2.to_tensor().numpy(), [[[1, 2], [3, 0]], [[4, 0], [0, 0]]])
    inner = tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
    assert inner.shape.as_list() == [2, None, 2]
    assert tf.ragged.constant([[1, 2], [3]], dtype=tf.float32).dtype == tf.float32
    assert tf.ragged.constant([[1]], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
    assert isinstance(tf.ragged.constant([1, 2]), tf.Tensor)
    with pytest.raises(ValueError, match="all scalar values must have the same nesting depth"):
        tf.ragged.constant([[1, [2]]])


def test_to_tensor_default_and_shape():
    np.testing.assert_array_equal(_rt().to_tensor().numpy(), [[1, 2], [0, 0], [3, 0]])
    np.testing.assert_array_equal(_rt().to_tensor(default_value=-1).numpy(), [[1, 2], [-1, -1], [3, -1]])
    np.testing.assert_array_equal(_rt().to_tensor(shape=[2, 3]).numpy(), [[1, 2, 0], [0, 0, 0]])


def test_factories_and_their_errors():
    assert tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 2, 2, 4]).to_list() == [[1, 2], [], [3, 4]]
    assert tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [2, 0, 2]).to_list() == [[1, 2], [], [3, 4]]
    assert tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 0, 2, 2], nrows=4).to_list() == [[1, 2], [], [3, 4], []]
    assert tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 0, 2, 2]).to_list() == [[1, 2], [], [3, 4]]
    cases = [
        (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 2, 2, 3]),
         "Arguments to _from_row_partition do not form a valid RaggedTensor\nCondition x == y did not hold.\n"
         "First 1 elements of x:\n[3]\nFirst 1 elements of y:\n[4]"),
        (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [1, 2, 4]),
         "Arguments to from_row_splits do not form a valid RaggedTensor:zero\nCondition x == y did not hold.\n"
         "First 1 elements of x:\n[1]\nFirst 1 elements of y:\n[0]"),
        (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 3, 2, 4]),
         "Arguments to from_row_splits do not form a valid RaggedTensor:monotonic.  \nCondition x >= 0 did not hold "
         "element-wise:\nx (shape=(3,) dtype=int64) = \n['3', '-1', '2']"),
        (lambda: tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [2, 0, 1]),
         "Arguments to _from_row_partition do not form a valid RaggedTensor\nCondition x == y did not hold.\n"
         "First 1 elements of x:\n[3]\nFirst 1 elements of y:\n[4]"),
        (lambda: tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 2, 1, 2]),
         "Arguments to from_value_rowids do not form a valid RowPartition.  \nCondition x >= 0 did not hold "
         "element-wise:\nx (shape=(3,) dtype=int64) = \n['2', '-1', '1']"),
    ]
    for make, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            make()
        assert message in str(info.value)
    with pytest.raises(ValueError, match="RaggedTensor constructor is private"):
        tf.RaggedTensor([1], [0, 1])


def test_range_partitions_and_map_flat_values():
    assert tf.ragged.range([3, 0, 2]).to_list() == [[0, 1, 2], [], [0, 1]]
    assert tf.ragged.range([1, 2], [4, 8], 2).to_list() == [[1, 3], [2, 4, 6]]
    np.testing.assert_array_equal(tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]).numpy(), [0, 0, 2, 2, 2])
    np.testing.assert_array_equal(tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]).numpy(), [0, 2, 2, 5])
    np.testing.assert_array_equal(tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=5).numpy(),
                                  [0, 2, 2, 3, 3, 3])
    assert tf.ragged.map_flat_values(tf.math.multiply, _rt(), 10).to_list() == [[10, 20], [], [30]]


def test_strings_split():
    assert tf.strings.split(["a b c", "d", ""]).to_list() == [[b"a", b"b", b"c"], [b"d"], []]
    assert tf.strings.split(["a,b,,c", "d"], sep=",").to_list() == [[b"a", b"b", b"", b"c"], [b"d"]]
    assert tf.strings.split("a b  c").numpy().tolist() == [b"a", b"b", b"c"]
    assert tf.strings.split(["a b c d"], maxsplit=1).to_list() == [[b"a", b"b c d"]]
    traced = tf.function(lambda s: tf.strings.split(s))(tf.constant(["a b", "c"]))
    assert traced.to_list() == [[b"a", b"b"], [b"c"]]


def test_through_tf_function():
    seen = []

    @tf.function
    def f(x):
        seen.append(str(x))
        return x.to_tensor(), x.with_flat_values(x.flat_values * 2)

    dense, doubled = f(_rt())
    np.testing.assert_array_equal(dense.numpy(), [[1, 2], [0, 0], [3, 0]])
    assert doubled.to_list() == [[2, 4], [], [6]]
    assert seen == ['tf.RaggedTensor(values=Tensor("x:0", shape=(None,), dtype=int32), row_splits=Tensor("x_1:0", '
                    'shape=(4,), dtype=int64))']
    f(tf.ragged.constant([[5], [6, 7, 8], []]))  # same spec (3 rows): no retrace
    assert len(seen) == 1
    cf = f.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int32))
    assert [repr(t) for t in cf.inputs] == ["<tf.Tensor 'x:0' shape=(None,) dtype=int32>",
                                             "<tf.Tensor 'x_1:0' shape=(None,) dtype=int64>"]
    assert "x (POSITIONAL_OR_KEYWORD): RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)" in \
        cf.pretty_printed_signature()
    assert cf(tf.ragged.constant([[1], [2, 3]]))[1].to_list() == [[2], [4, 6]]


def test_to_tensor_gradient_matches_finite_differences():
    values = tf.constant([1.0, 2.0, 3.0, 4.0])
    weight = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(values)
        dense = tf.RaggedTensor.from_row_splits(values, [0, 3, 4]).to_tensor(shape=[2, 2])
        loss = tf.reduce_sum(dense * weight)
    # values 0,1 land at [0,0],[0,1]; value 2 is cut off; value 3 lands at [1,0]
    np.testing.assert_array_equal(tape.gradient(loss, values).numpy(), [1, 2, 0, 3])


def test_jit_compile_refuses_ragged_kernels_as_tensorflow():
    pytest.importorskip("jax")
    f = tf.function(lambda v: tf.RaggedTensor.from_row_splits(v, [0, 1, 2], validate=False).to_tensor(),
                    jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([1.0, 2.0]))
    assert "RaggedTensorToTensor (No registered 'RaggedTensorToTensor' OpKernel for XLA_CPU_JIT devices" \
        in str(info.value)


def test_thousands_of_ragged_tensors_through_a_function_leave_nothing_alive():
    import gc
    import weakref

    @tf.function
    def f(x):
        return x.with_flat_values(x.flat_values + 1)

    refs = []
    for i in range(1000):
        rt = tf.ragged.constant([[i, 1], [2]])
        out = f(rt)
        refs += [weakref.ref(rt), weakref.ref(out)]
        del rt, out
    gc.collect()
    assert sum(r() is not None for r in refs) == 0 and f.experimental_get_tracing_count() == 1
