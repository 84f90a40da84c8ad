"""Arrays to and from TensorProto: both forms TensorFlow writes (raw tensor_content, typed lists with the
last value repeated to fill the shape), and values that do not fit their shape refused before allocation."""
import base64

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import graph_pb2, tensor_pb2, types_pb2
from eagerflow._src.formats.tensor_proto import MAX_ELEMENTS, tensor_proto, tensor_value

from .tf_recorded import TF_GRAPH_DEF


@pytest.mark.parametrize("array", [
    np.arange(6, dtype=np.float32).reshape(2, 3), np.array([b"a", "é".encode()], object), np.array(True),
    np.zeros((0, 2), np.int64), np.array([1 + 2j], np.complex64), np.array([2 ** 63 - 1], np.int64),
    np.array([1.5, -0.0], np.float16)])
def test_round_trip(array):
    back = tensor_value(tensor_pb2.TensorProto.FromString(tensor_proto(array).SerializeToString()))
    assert back.shape == array.shape and back.dtype == array.dtype and back.tolist() == array.tolist()


def test_bfloat16_round_trip():
    proto = tensor_proto(tf.constant([1.5, -2.0], tf.bfloat16).numpy(), tf.bfloat16)
    assert proto.dtype == types_pb2.DT_BFLOAT16
    assert tensor_value(proto).astype(np.float32).tolist() == [1.5, -2.0]


def test_tensorflows_scalar_constant_in_a_typed_list():
    graph = graph_pb2.GraphDef.FromString(base64.b64decode("".join(TF_GRAPH_DEF)))
    const = next(n for n in graph.node if n.op == "Const")
    value = tensor_value(const.attr["value"].tensor)
    assert value.shape == () and value.dtype == np.float32 and float(value) == 1.0


def _typed(dtype, dims, **lists):
    proto = tensor_pb2.TensorProto(dtype=dtype)
    for size in dims:
        proto.tensor_shape.dim.add(size=size)
    for field, values in lists.items():
        getattr(proto, field).extend(values)
    return proto


def test_a_short_typed_list_repeats_its_last_value_and_an_empty_one_means_zeros():
    # tf.constant(2.5, shape=[2, 2]) is stored by TensorFlow as float_val: [2.5] with shape [2, 2].
    assert tensor_value(_typed(types_pb2.DT_FLOAT, [2, 2], float_val=[2.5])).tolist() == [[2.5, 2.5], [2.5, 2.5]]
    assert tensor_value(_typed(types_pb2.DT_INT32, [4], int_val=[1, 7])).tolist() == [1, 7, 7, 7]
    assert tensor_value(_typed(types_pb2.DT_INT64, [3])).tolist() == [0, 0, 0]
    assert tensor_value(_typed(types_pb2.DT_HALF, [2], half_val=[0x3C00])).tolist() == [1.0, 1.0]
    assert tensor_value(_typed(types_pb2.DT_COMPLEX64, [1], scomplex_val=[1, -2])).tolist() == [1 - 2j]
    assert tensor_value(_typed(types_pb2.DT_STRING, [2], string_val=[b"x"])).tolist() == [b"x", b"x"]
    assert tensor_value(_typed(types_pb2.DT_BOOL, [2], bool_val=[True])).tolist() == [True, True]


def test_values_that_do_not_fit_are_refused():
    with pytest.raises(ValueError, match="holds 3 values for shape"):
        tensor_value(_typed(types_pb2.DT_FLOAT, [2], float_val=[1, 2, 3]))
    with pytest.raises(ValueError, match="tensor_content holds 4 bytes; shape"):
        proto = _typed(types_pb2.DT_FLOAT, [2])
        proto.tensor_content = b"\x00" * 4
        tensor_value(proto)
    with pytest.raises(ValueError, match=f"more than {MAX_ELEMENTS} elements"):
        tensor_value(_typed(types_pb2.DT_FLOAT, [1 << 20, 1 << 20], float_val=[1.0]))
    with pytest.raises(ValueError, match="fully known shape"):
        tensor_value(_typed(types_pb2.DT_FLOAT, [-1], float_val=[1.0]))
    with pytest.raises(ValueError, match="DataType 99"):
        tensor_value(_typed(99, [1]))
