"""tf.constant / convert_to_tensor refuse what TensorFlow refuses, with its class and words
(issue 8). Messages are TensorFlow 2.21's, written here."""
import gc

import numpy as np
import pytest

import eagerflow as tf

OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."
MIXED = "Can't convert Python sequence with mixed types to Tensor."
RAGGED = "Can't convert non-rectangular Python sequence to Tensor."


@pytest.mark.parametrize("convert", [tf.constant, tf.convert_to_tensor])
@pytest.mark.parametrize("value, message", [
    (2 ** 63, OUT_OF_RANGE),             # was a uint64 tensor
    (2 ** 64, OUT_OF_RANGE),
    ([1, 2 ** 63], OUT_OF_RANGE),        # was float32 [1, 9.2e18]
    ([-1, 2 ** 63], OUT_OF_RANGE),
    ([1, "a"], MIXED),                   # was a string tensor holding an int
    (["a", 1], MIXED),
    ((1, "a"), MIXED),
    ([[1, 2], [3, "a"]], MIXED),
    ([1, None], MIXED),
    ([1, 2j], MIXED),
    ([1.5, 1j], MIXED),
    ([True, 1], MIXED),
    ([1, [2, 3]], MIXED),                # a scalar first, then a sequence
    ([[1], [2, 3]], RAGGED),             # was NumPy's "inhomogeneous shape" text
    ([[1, 2], [3]], RAGGED),
    ([[1], 2], RAGGED),
    ([[[1]], [[2], [3]]], RAGGED),
])
def test_refused_python_values(convert, value, message):
    with pytest.raises(ValueError) as info:
        convert(value)
    assert str(info.value) == message
    assert "inhomogeneous" not in repr(info.value.__context__)


@pytest.mark.parametrize("value, dtype, expected", [
    (-(2 ** 63), None, (tf.int64, -(2 ** 63))),
    ([2 ** 40, 1], None, (tf.int64, [2 ** 40, 1])),
    ([1, 1.5], None, (tf.float32, [1.0, 1.5])),
    ([1.5, True], None, (tf.float32, [1.5, 1.0])),
    ([1.5, 2 ** 63], None, (tf.float32, [1.5, 2.0 ** 63])),
    ([1.5, 2 ** 64], None, (tf.float32, [1.5, 2.0 ** 64])),
    (["a", b"b"], None, (tf.string, [b"a", b"b"])),
    ([np.float32(1), 2], None, (tf.float32, [1.0, 2.0])),
    (2 ** 63, tf.uint64, (tf.uint64, 2 ** 63)),
    ([1, 2 ** 63], tf.uint64, (tf.uint64, [1, 2 ** 63])),
    (2 ** 63, tf.float32, (tf.float32, 2.0 ** 63)),
])
def test_accepted_python_values(value, dtype, expected):
    t = tf.constant(value, dtype)
    assert t.dtype is expected[0]
    np.testing.assert_array_equal(t.numpy(), np.array(expected[1], dtype=expected[0].as_numpy_dtype))


def test_out_of_range_with_a_requested_type_that_cannot_hold_it():
    for value, dtype in [(2 ** 63, tf.int64), (2 ** 64, tf.uint64)]:
        with pytest.raises(ValueError, match="out-of-range integer"):
            tf.constant(value, dtype)
    with pytest.raises(ValueError, match="out-of-range integer"):
        tf.constant(1, tf.int64) + 2 ** 63


def test_constant_of_a_tensor_with_another_dtype_is_refused():
    # Was silently cast (1.5 -> 1).
    with pytest.raises(TypeError) as info:
        tf.constant(tf.constant(1.5), dtype=tf.int32)
    assert str(info.value) == "Expected tensor 1.5 with dtype tf.int32, but got dtype tf.float32."
    with pytest.raises(TypeError, match=r"Expected tensor 1 with dtype tf.float32, but got dtype tf.int32\."):
        tf.constant(tf.constant(1), dtype=tf.float32)
    assert tf.constant(tf.constant(1.5), dtype=tf.float32).numpy() == 1.5
    # A Variable is read and cast, as TensorFlow does.
    assert tf.constant(tf.Variable(1.5), dtype=tf.int32).numpy() == 1
    with pytest.raises(ValueError, match="Tensor conversion requested dtype int32 for Tensor with dtype float32"):
        tf.convert_to_tensor(tf.constant(1.5), dtype=tf.int32)


# --- indices past int32 ------------------------------------------------------------------------

X = tf.constant([[1, 2, 3]])


@pytest.mark.parametrize("key, message", [
    ((0, 2 ** 40), "slice index 1099511627776 of dimension 1 out of bounds. [Op:StridedSlice]"),
    ((slice(None), 2 ** 40), "slice index 1099511627776 of dimension 1 out of bounds. [Op:StridedSlice]"),
    ((0, -(2 ** 40)), "slice index -1099511627773 of dimension 1 out of bounds. [Op:StridedSlice]"),
    ((0, 2 ** 31), "slice index 2147483648 of dimension 1 out of bounds. [Op:StridedSlice]"),
    (np.int64(2 ** 40), "slice index 1099511627776 of dimension 0 out of bounds. [Op:StridedSlice]"),
])
def test_huge_python_index_is_out_of_bounds_not_overflow(key, message):
    # Was a bare OverflowError from packing the index as int32.
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        X[key]
    assert info.value.message == message


def test_huge_slice_bounds_clamp_like_any_slice():
    np.testing.assert_array_equal(X[0, 1:2 ** 40].numpy(), [2, 3])
    np.testing.assert_array_equal(X[0, ::2 ** 40].numpy(), [1])
    np.testing.assert_array_equal(X[0, -(2 ** 40):].numpy(), [1, 2, 3])
    assert tf.function(lambda x: x[0, 2 ** 40:])(X).shape == [0]


def test_huge_index_traced_and_past_int64():
    with pytest.raises(ValueError, match=r"slice index -1099511627773 of dimension 1 out of bounds\."):
        tf.function(lambda x: x[0, -(2 ** 40)])(X)
    sig = tf.function(lambda x: x[2 ** 40], input_signature=[tf.TensorSpec([None], tf.int32)])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"slice index 1099511627776 of dimension 0 out of bounds"):
        sig(tf.constant([1, 2]))
    with pytest.raises(ValueError, match="out-of-range integer"):
        X[2 ** 63]


# --- failed allocations ------------------------------------------------------------------------

@pytest.mark.parametrize("make, op", [
    (lambda: tf.zeros([2 ** 40, 2 ** 20]), "Fill"),
    (lambda: tf.fill([2 ** 40, 2 ** 20], 1.0), "Fill"),
    (lambda: tf.zeros([2 ** 31, 2 ** 31]), "Fill"),  # NumPy: "array is too big", not MemoryError
    (lambda: tf.random.normal([2 ** 40, 2 ** 20]), "RandomStandardNormal"),
])
def test_impossible_allocation_is_resource_exhausted(make, op):
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        make()
    err = info.value
    assert err.message.startswith("OOM when allocating tensor with shape[")
    assert "and type float on /job:localhost/replica:0/task:0/device:CPU:0" in err.message
    assert err.message.endswith(f"[Op:{op}]")
    assert err.__cause__ is not None  # NumPy's error stays attached for whoever debugs it
    assert not isinstance(err, tf.errors.InvalidArgumentError)
    gc.collect()


def test_resource_exhausted_is_exported():
    assert issubclass(tf.errors.ResourceExhaustedError, tf.errors.OpError)
    assert tf.errors.ResourceExhaustedError(None, None, "x").error_code == tf.errors.RESOURCE_EXHAUSTED


def test_numbers_of_several_kinds_for_a_requested_complex_dtype():
    # TensorFlow 2.21 converts this nested list for complex128 (without a dtype: mixed types).
    t = tf.constant([[1 + 1j, 2j], [3, 4 - 1j]], tf.complex128)
    assert t.dtype is tf.complex128
    np.testing.assert_array_equal(t.numpy(), [[1 + 1j, 2j], [3, 4 - 1j]])
    with pytest.raises(ValueError, match="mixed types"):
        tf.constant([[1 + 1j, 2j], [3, "a"]], tf.complex128)
    t = tf.constant([True, 1], tf.int32)  # TensorFlow: [1, 1]
    np.testing.assert_array_equal(t.numpy(), [1, 1])


def test_impossible_allocation_in_a_traced_graph_is_resource_exhausted():
    fn = tf.function(lambda n: tf.zeros([n, 2 ** 20]), input_signature=[tf.TensorSpec([], tf.int32)])
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        fn(tf.constant(2 ** 30))
    # TensorFlow's layout for a graph's run-time error: heading, creation site, kernel message, node
    assert info.value.message.startswith("Graph execution error:\n\nDetected at node zeros defined at")
    assert ("\n\nOOM when allocating tensor with shape[1073741824,1048576] and type float"
            in info.value.message)
    assert "{{node zeros}}" in info.value.message  # tf.zeros names its Fill node


@pytest.mark.parametrize("value, dtype, expected", [  # TF 2.21's values (tf.constant and tf.convert_to_tensor)
    (2 ** 31, "int32", -2 ** 31),
    ([1, 2 ** 31], "int32", [1, -2 ** 31]),
    (2 ** 32 + 5, "int32", 5),
    (300, "uint8", 44),
    (-1, "uint8", 255),
])
def test_python_ints_past_a_requested_integer_dtype_wrap_around(value, dtype, expected):
    for convert in (tf.constant, tf.convert_to_tensor):
        out = convert(value, getattr(tf, dtype))
        assert out.dtype == getattr(tf, dtype)
        np.testing.assert_array_equal(out.numpy(), np.array(expected, dtype))


def test_python_ints_past_int64_still_refused_with_a_requested_int64():
    with pytest.raises(ValueError, match="Can't convert Python sequence with out-of-range integer to Tensor."):
        tf.constant(2 ** 63, tf.int64)
