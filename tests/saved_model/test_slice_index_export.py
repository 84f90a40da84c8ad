"""A slice with an int64 bound (`x[1:n]` where n is a tf.int64 shape value) saves a StridedSlice whose begin,
end and strides share one dtype: TensorFlow's op has one `Index` attribute, and TensorFlow 2.21 refuses to load a
graph mixing int32 and int64 there ("Input 2 of node StridedSlice_1 was passed int64 from Pack:0 incompatible with
expected int32"). TensorFlow itself casts them all to int64 then; so does eagerflow. The raw op refuses mixed
index dtypes with TensorFlow's errors (messages recorded from TensorFlow 2.21)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2, types_pb2

X = np.arange(12, dtype=np.float32).reshape(4, 3)


class Slicer(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def bounded(self, x):
        n = tf.shape(x, out_type=tf.int64)[0]
        return x[1:n, :tf.constant(2, tf.int64)]

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def picked(self, x):
        n = tf.shape(x, out_type=tf.int64)[0]
        return x[n - 2]

    @tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([], tf.int64)])
    def from_index(self, x, i):
        return x[1:, i:]


def check(module):
    np.testing.assert_array_equal(module.bounded(tf.constant(X)).numpy(), X[1:4, :2])
    np.testing.assert_array_equal(module.picked(tf.constant(X)).numpy(), X[2])
    np.testing.assert_array_equal(module.from_index(tf.constant(X), tf.constant(1, tf.int64)).numpy(), X[1:, 1:])


def _index_dtypes(path):
    """{function: [(begin, end, strides) dtypes of each StridedSlice]}, read off the saved graph's nodes."""
    message = saved_model_pb2.SavedModel.FromString((path / "saved_model.pb").read_bytes())
    found = {}
    for function in message.meta_graphs[0].graph_def.library.function:
        nodes = {n.name: n for n in function.node_def}
        args = {a.name: a.type for a in function.signature.input_arg}

        def dtype_of(ref):
            name = ref.split(":")[0]
            if name in args:
                return args[name]
            node = nodes[name]
            return node.attr["T"].type if node.op == "Pack" else node.attr["dtype"].type

        for node in function.node_def:
            if node.op == "StridedSlice":
                index = [dtype_of(r) for r in node.input[1:4]]
                found.setdefault(function.signature.name, []).append((index, node.attr["Index"].type))
    return found


def test_int64_bounds_save_one_index_dtype(tmp_path):
    m = Slicer()
    check(m)
    tf.saved_model.save(m, str(tmp_path / "m"))
    found = _index_dtypes(tmp_path / "m")
    assert len(found) == 3
    for slices in found.values():
        for index, attr in slices:
            assert index == [attr] * 3, (index, attr)
    # the slices reading an int64 bound are int64 throughout (the shape's own [0] stays int32, as in TensorFlow)
    assert all(any(attr == types_pb2.DT_INT64 for _, attr in slices) for slices in found.values())
    check(tf.saved_model.load(str(tmp_path / "m")))


def test_packed_index_takes_int64_when_a_bound_needs_it():
    x = tf.constant(X)
    np.testing.assert_array_equal(x[tf.constant(1, tf.int64):, :2].numpy(), X[1:, :2])
    assert x[2 ** 40:].shape == (0, 3)


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_raw_strided_slice_refuses_mixed_index_dtypes(mode):
    x = tf.ones([4, 3])

    def mixed():
        return tf.strided_slice(x, tf.constant([0]), tf.constant([2], tf.int64), tf.constant([1]))

    if mode == "eager":
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"cannot compute StridedSlice as input #2\(zero-based\) was expected to be a int32 "
                                 r"tensor but is a int64 tensor"):
            mixed()
    else:
        with pytest.raises(TypeError, match="Input 'end' of 'StridedSlice' Op has type int64 that does not match "
                                            "type int32 of argument 'begin'"):
            tf.function(mixed)()


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_raw_strided_slice_lists_take_begins_dtype(mode):
    x = tf.ones([4, 3])

    def sliced():  # TensorFlow 2.21: shape (2, 3) in both modes
        return tf.strided_slice(x, tf.constant([0], tf.int64), [2])

    assert (sliced() if mode == "eager" else tf.function(sliced)()).shape == (2, 3)


def test_tf_slice_list_takes_the_index_tensors_dtype(tmp_path):
    class Sliced(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 3])])
        def rest(self, x):
            return tf.slice(x, [1, 0], tf.shape(x, out_type=tf.int64) - 1)

    m = Sliced()
    np.testing.assert_array_equal(m.rest(tf.constant(X)).numpy(), X[1:, :2])  # TensorFlow 2.21 eagerly: (3, 2)
    ops = m.rest.get_concrete_function().graph.get_operations()
    assert [[t.dtype for t in op.inputs[1:]] for op in ops if op.type == "Slice"] == [[tf.int64, tf.int64]]
    tf.saved_model.save(m, str(tmp_path / "m"))
    np.testing.assert_array_equal(tf.saved_model.load(str(tmp_path / "m")).rest(tf.constant(X)).numpy(), X[1:, :2])


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_tf_slice_refuses_mixed_index_tensors(mode):
    x = tf.ones([4, 3])

    def mixed():
        return tf.slice(x, tf.constant([1, 0]), tf.constant([2, 2], tf.int64))

    if mode == "eager":
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"cannot compute Slice as input #2\(zero-based\) was expected to be a int32 tensor "
                                 r"but is a int64 tensor"):
            mixed()
    else:
        with pytest.raises(TypeError, match="Input 'size' of 'Slice' Op has type int64 that does not match type int32 "
                                            "of argument 'begin'"):
            tf.function(mixed)()
