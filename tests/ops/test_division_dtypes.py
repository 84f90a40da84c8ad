"""Division corners against TensorFlow 2.21, eagerly and inside a tf.function alike.

tf.math.divide_no_nan takes integer tensors: its wrapper casts them as `x / y` does (8- and 16-bit
integers to float32, wider ones to float64) before the float-only DivNoNan op; bool and string are
its TypeError. FloorDiv's op definition lists complex types but TensorFlow registers no complex
kernel (NotFoundError, the eager wording, in both modes here); FloorMod does not list them."""
import numpy as np
import pytest

import eagerflow as tf

MODES = {"eager": lambda f: f(), "function": lambda f: tf.function(f)()}
ACCEPTED = ("tf.uint8, tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, "
            "tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype,result", [
    ("int8", "float32"), ("int16", "float32"), ("uint8", "float32"), ("uint16", "float32"),
    ("int32", "float64"), ("int64", "float64"), ("uint32", "float64"), ("uint64", "float64"),
    ("float16", "float16"), ("float32", "float32"), ("float64", "float64"), ("complex64", "complex64"),
])
def test_divide_no_nan_casts_integers_like_truediv(mode, dtype, result):
    out = MODES[mode](lambda: tf.math.divide_no_nan(tf.constant([3, 4, 5], dtype), tf.constant([2, 0, 3], dtype)))
    assert out.dtype.name == result
    np.testing.assert_allclose(np.real(out.numpy()), [1.5, 0.0, 5 / 3], rtol=1e-3)


@pytest.mark.parametrize("mode", MODES)
def test_divide_no_nan_python_operands_convert_as_tensorflow_does(mode):
    by_zero = MODES[mode](lambda: tf.math.divide_no_nan(tf.constant([1, 2]), 0))
    assert by_zero.dtype == tf.float64 and by_zero.numpy().tolist() == [0.0, 0.0]
    left = MODES[mode](lambda: tf.math.divide_no_nan(3, tf.constant([1, 0], tf.int8)))
    assert left.dtype == tf.float32 and left.numpy().tolist() == [3.0, 0.0]
    lists = MODES[mode](lambda: tf.math.divide_no_nan([3, 4], [2, 0]))
    assert lists.dtype == tf.float64 and lists.numpy().tolist() == [1.5, 0.0]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x,y,message", [
    ([True], [True], f"Invalid dtype tf.bool in tf.math.divide_no_nan. Expected one of {{{ACCEPTED}}}."),
    (["a"], ["b"], f"Invalid dtype tf.string in tf.math.divide_no_nan. Expected one of {{{ACCEPTED}}}."),
    ([1, 2], [1.0, 2.0], "`x` and `y` must have the same dtype, got tf.int32 != tf.float32."),
    ([1, 2], 2.5, "`x` and `y` must have the same dtype, got tf.int32 != tf.float32."),
], ids=["bool", "string", "mixed", "python-float"])
def test_divide_no_nan_refusals(mode, x, y, message):
    def call():
        return tf.math.divide_no_nan(tf.constant(x), y if isinstance(y, float) else tf.constant(y))
    with pytest.raises(TypeError) as info:
        MODES[mode](call)
    assert str(info.value) == message


@pytest.mark.parametrize("mode", MODES)
def test_divide_no_nan_of_integers_has_no_gradient(mode):
    x = tf.constant([3, 4])

    def grad():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.divide_no_nan(x, tf.constant([2, 0]))
        return tape.gradient(y, x)
    assert MODES[mode](grad) is None


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("call", [lambda a, b: tf.math.floordiv(a, b), lambda a, b: a // b],
                         ids=["floordiv", "operator"])
def test_floordiv_of_complex_finds_no_kernel(mode, dtype, call):
    def run():
        return call(tf.constant([1 + 2j], dtype), tf.constant([1 + 1j], dtype))
    with pytest.raises(tf.errors.NotFoundError, match=rf"^Could not find device for node: \{{\{{node FloorDiv\}}\}} = "
                                                      rf"FloorDiv\[T=DT_{dtype.upper()}\]"):
        MODES[mode](run)


def test_floormod_of_complex_is_outside_its_types():
    a, b = tf.constant([1 + 2j]), tf.constant([1 + 1j])
    allowed = "int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16"
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"Value for attr 'T' of complex128 is not in the list "
                                                             f"of allowed values: {allowed}, half, float, double"):
        a % b
    with pytest.raises(TypeError, match=f"Value passed to parameter 'x' has DataType complex128 not in list of "
                                        f"allowed values: {allowed}, float16, float32, float64"):
        tf.function(lambda: tf.math.floormod(a, b))()
