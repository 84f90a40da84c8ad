"""The dtype of a Python list holding NumPy scalars or arrays (core/convert.py), as TensorFlow 2.21 gives it:
the first number (depth first) decides a float list's type when it is a NumPy float, NumPy ints and unsigned
ints are ints (int32, int64 past int32), and complex lists are complex128."""
import numpy as np
import pytest

import eagerflow as tf

# (value, TensorFlow 2.21's dtype)
CASES = [
    ([np.float64(1.5)], "float64"),
    ([np.float16(1), 2.0], "float16"),
    ([2.0, np.float16(1)], "float32"),
    ([np.float16(1), np.float32(2)], "float16"),
    ([np.float32(1), np.float16(2)], "float32"),
    ([np.float64(1), np.float32(2)], "float64"),
    ([1, np.float64(2)], "float32"),
    ([np.float64(2), 1], "float64"),
    ([[np.float64(1)], [1.0]], "float64"),
    ([np.array(1.0), 1.0], "float64"),
    ([np.float16(1), 1], "float16"),
    ([np.int32(1), 2.5], "float32"),
    ([np.array([1, 2], np.float16), [3.0, 4.0]], "float16"),
    ([[3.0, 4.0], np.array([1, 2], np.float16)], "float32"),
    ([np.int8(1)], "int32"),
    ([np.int64(2 ** 40)], "int64"),
    ([np.uint8(3)], "int32"),
    ([np.array([1, 2], np.uint8)], "int32"),
    ([np.uint8(1), 2], "int32"),
    ([np.complex64(1j)], "complex128"),
    ([1j], "complex128"),
    (np.float64(1), "float64"),
]


@pytest.mark.parametrize("value, dtype", CASES, ids=[str(i) for i in range(len(CASES))])
def test_list_dtype_as_tensorflow(value, dtype):
    assert tf.constant(value).dtype.name == dtype
    assert tf.function(lambda: tf.constant(value))().dtype.name == dtype


def test_values_are_kept():
    np.testing.assert_array_equal(tf.constant([np.float64(1.1), 2]).numpy(), np.array([1.1, 2.0]))
    with pytest.raises(ValueError, match="Can't convert Python sequence with out-of-range integer to Tensor."):
        tf.constant([np.uint64(2 ** 63)])
