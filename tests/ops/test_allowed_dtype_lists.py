"""The allowed-dtype list in a refused-dtype error reads as TensorFlow 2.21's: its order (the op's
registration order) and its members, bfloat16 and the quantized types included although eagerflow
has no such dtypes. Expected lists were taken from TensorFlow 2.21's own messages."""
import pytest

import eagerflow as tf

B = tf.constant([True])
S = tf.constant(["a"])
I = tf.constant([1])
C = tf.constant([1 + 1j])

# (label, call, TF's eager list (C++ names), TF's graph list (Python names), graph parameter name)
CASES = [
    ("AddV2", lambda: tf.add(B, B),
     "bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, int32, int64, complex64, complex128",
     "bfloat16, float16, float32, float64, uint8, uint16, uint32, uint64, int8, int16, int32, int64, complex64, "
     "complex128", "x"),
    ("Sub", lambda: tf.subtract(S, S),
     "bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, complex64, complex128, uint32, uint64",
     "bfloat16, float16, float32, float64, uint8, int8, uint16, int16, int32, int64, complex64, complex128, uint32, "
     "uint64", "x"),
    ("Mul", lambda: tf.multiply(B, B),
     "bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, complex64, complex128",
     "bfloat16, float16, float32, float64, uint8, int8, uint16, int16, int32, uint32, uint64, int64, complex64, "
     "complex128", "x"),
    ("Less", lambda: tf.less(C, C),
     "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64",
     "float32, float64, int32, uint8, int16, int8, int64, bfloat16, uint16, float16, uint32, uint64", "x"),
    ("Relu", lambda: tf.nn.relu(B),
     "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, qint8",
     "float32, float64, int32, uint8, int16, int8, int64, bfloat16, uint16, float16, uint32, uint64, qint8",
     "features"),
    ("Sum", lambda: tf.reduce_sum(B),
     "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, "
     "uint16, complex128, half, uint32, uint64",
     "float32, float64, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, "
     "quint16, uint16, complex128, float16, uint32, uint64", "input"),
    ("Exp", lambda: tf.exp(I), "bfloat16, half, float, double, complex64, complex128",
     "bfloat16, float16, float32, float64, complex64, complex128", "x"),
    ("Pow", lambda: tf.pow(B, B), "bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128",
     "bfloat16, float32, float16, float64, int8, int16, int32, int64, complex64, complex128", "x"),
    ("MatMul", lambda: tf.matmul(tf.constant([[True]]), tf.constant([[True]])),
     "bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, complex64, complex128",
     "bfloat16, float16, float32, float64, int32, int64, uint8, uint16, uint32, uint64, complex64, complex128", "a"),
    ("Softmax", lambda: tf.nn.softmax(tf.constant([[1]])), "half, bfloat16, float, double",
     "float16, bfloat16, float32, float64", "logits"),
    ("Atan2", lambda: tf.atan2(I, I), "bfloat16, half, float, double", "bfloat16, float16, float32, float64", "y"),
]


@pytest.mark.parametrize("label,call,eager_list,graph_list,param", CASES, ids=[c[0] for c in CASES])
def test_eager_message_lists_tf_allowed_types_in_tf_order(label, call, eager_list, graph_list, param):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call()
    assert f"is not in the list of allowed values: {eager_list}\n" in str(info.value)


@pytest.mark.parametrize("label,call,eager_list,graph_list,param", CASES, ids=[c[0] for c in CASES])
def test_graph_message_lists_tf_allowed_types_in_tf_order(label, call, eager_list, graph_list, param):
    with pytest.raises(TypeError) as info:
        tf.function(call)()
    assert str(info.value).endswith(f"Value passed to parameter '{param}' has DataType "
                                    f"{_dtype_of_call(label)} not in list of allowed values: {graph_list}")


def _dtype_of_call(label):
    return {"Sub": "string", "Less": "complex128", "Exp": "int32", "Softmax": "int32", "Atan2": "int32"}.get(
        label, "bool")
