"""tf.io.decode_raw / decode_base64 / encode_base64 and tf.dtypes.saturate_cast against TensorFlow 2.21's
recorded answers, eagerly and traced."""
import numpy as np
import pytest

import eagerflow as tf

MODES = ["eager", "traced"]


def run(mode, fn):
    return fn() if mode == "eager" else tf.function(fn)()


@pytest.mark.parametrize("mode", MODES)
def test_decode_raw_values_as_tensorflow(mode):
    got = run(mode, lambda: tf.io.decode_raw(tf.constant(["abcd", "efgh"]), tf.int32))
    assert got.dtype == tf.int32 and got.numpy().tolist() == [[1684234849], [1751606885]]
    got = run(mode, lambda: tf.io.decode_raw(tf.constant(["abcd"]), tf.int16, little_endian=False))
    assert got.numpy().tolist() == [[24930, 25444]]
    got = run(mode, lambda: tf.io.decode_raw(tf.constant([["abcd", "efgh"]]), tf.int16))
    assert got.shape == (1, 2, 2) and got.numpy().tolist() == [[[25185, 25699], [26213, 26727]]]
    got = run(mode, lambda: tf.io.decode_raw(tf.constant("abcd"), tf.float32))
    np.testing.assert_allclose(got.numpy(), [1.6777999e+22], rtol=1e-6)
    got = run(mode, lambda: tf.io.decode_raw(tf.constant([b"\0\0\x80?\0\0\0@"]), tf.complex64))
    assert got.numpy().tolist() == [[1 + 2j]]
    got = run(mode, lambda: tf.io.decode_raw(tf.constant(["abc", "de"]), tf.uint8, fixed_length=4))
    assert got.shape == (2, 4) and got.numpy().tolist() == [[97, 98, 99, 0], [100, 101, 0, 0]]
    got = run(mode, lambda: tf.io.decode_raw(tf.constant(["abcdef"]), tf.uint8, fixed_length=4))
    assert got.numpy().tolist() == [[97, 98, 99, 100]]
    assert run(mode, lambda: tf.io.decode_raw(tf.constant([], tf.string), tf.int16)).shape == (0, 0)


@pytest.mark.parametrize("mode", MODES)
def test_decode_raw_refusals_as_tensorflow(mode):
    with pytest.raises(tf.errors.InvalidArgumentError, match="DecodeRaw requires input strings to all be the same "
                                                             "size, but element 1 has size 3 != 2"):
        run(mode, lambda: tf.io.decode_raw(tf.constant(["abc", "de"]), tf.uint8))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"fixed_length \(6\) must be a multiple of the size of out_type \(4\)"):
        run(mode, lambda: tf.io.decode_raw(tf.constant(["abcdef"]), tf.int32, fixed_length=6))
    refused = (tf.errors.InvalidArgumentError, "Value for attr 'out_type' of string is not in the list") \
        if mode == "eager" else (TypeError, "Value passed to parameter 'out_type' has DataType string not in list")
    with pytest.raises(refused[0], match=refused[1]):
        run(mode, lambda: tf.io.decode_raw(tf.constant(["abcd"]), tf.string))


@pytest.mark.parametrize("mode", MODES)
def test_base64_is_web_safe_and_padding_optional(mode):
    got = run(mode, lambda: tf.io.encode_base64(tf.constant(["hello?>", ""])))
    assert got.numpy().tolist() == [b"aGVsbG8_Pg", b""]
    assert run(mode, lambda: tf.io.encode_base64(tf.constant(["hello?>"]), pad=True)).numpy().tolist() == \
        [b"aGVsbG8_Pg=="]
    assert run(mode, lambda: tf.io.encode_base64(tf.constant("hi"))).numpy() == b"aGk"
    got = run(mode, lambda: tf.io.decode_base64(tf.constant(["aGVsbG8_Pg", "aGVsbG8_Pg==", "aGk="])))
    assert got.numpy().tolist() == [b"hello?>", b"hello?>", b"hi"]
    assert run(mode, lambda: tf.io.decode_base64(tf.constant([["aGk"]]))).shape == (1, 1)


@pytest.mark.parametrize("text, message", [("aGVsbG8/Pg==", "Invalid character found in base64."),
                                           ("aG=sbG8", "Invalid character found in base64."),
                                           ("aGk==", "Invalid character found in base64."),
                                           ("aGVsb", "Base64 string length cannot be 1 modulo 4.")])
@pytest.mark.parametrize("mode", MODES)
def test_base64_refusals_as_tensorflow(mode, text, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        run(mode, lambda: tf.io.decode_base64(tf.constant([text])))


def test_a_float_input_is_refused_as_a_signature_mismatch():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute DecodeBase64 as input #0\(zero-based\) "
                                                             "was expected to be a string tensor but is a float"):
        tf.io.decode_base64(tf.constant([1.0]))
    with pytest.raises(TypeError, match="Input 'bytes' of 'DecodeRaw' Op has type float32 that does not match "
                                        "expected type of string."):
        tf.function(lambda: tf.io.decode_raw(tf.constant([1.0]), tf.int16))()


@pytest.mark.parametrize("mode", MODES)
def test_saturate_cast_in_tf_dtypes_as_tensorflow(mode):
    got = run(mode, lambda: tf.dtypes.saturate_cast(tf.constant([-1.5, 300.7, 3e9, float("nan")]), tf.uint8))
    assert got.dtype == tf.uint8 and got.numpy().tolist() == [0, 255, 255, 0]
    got = run(mode, lambda: tf.dtypes.saturate_cast(tf.constant([-1.5, 300.7, 3e10]), tf.int32))
    assert got.numpy().tolist() == [-1, 300, 2147483520]
    got = run(mode, lambda: tf.dtypes.saturate_cast(tf.constant([-5], tf.int64), tf.uint32))
    assert got.numpy().tolist() == [0]
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: 'foo' to a TensorFlow DType."):
        run(mode, lambda: tf.dtypes.saturate_cast(tf.constant([1.0]), "foo"))
