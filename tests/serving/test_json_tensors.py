"""JSON <-> arrays without a server: the dtype rules of TensorFlow Serving's JSON mapping, and float32
outputs written as their shortest round-tripping decimals."""
import json
import math

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.serving.errors import ServingError
from eagerflow.serving.json_tensors import to_array, to_json_value
from eagerflow.serving.servable import TensorInfo


def _info(dtype, shape=None):
    return TensorInfo("x", dtype, shape, "x:0")


def test_float32_outputs_are_written_as_their_shortest_decimal():
    values = np.array([0.2, 1 / 3, 1e-8, 3.5, np.nan, -np.inf, 16777217], np.float32)
    written = to_json_value("y", values)
    assert json.dumps(written[:4]) == "[0.2, 0.33333334, 1e-08, 3.5]"
    assert math.isnan(written[4]) and written[5] == -math.inf
    np.testing.assert_array_equal(np.array(written, np.float32), values)  # every value reads back exactly


def test_float64_and_integers_are_written_as_they_are():
    assert to_json_value("y", np.array([0.1, 2.0])) == [0.1, 2.0]
    assert to_json_value("y", np.array([[1, -2]], np.int64)) == [[1, -2]]
    assert to_json_value("y", np.array([True])) == [True]


@pytest.mark.parametrize("dtype, value, expected", [
    (tf.float32, [[1, 2.5]], np.array([[1, 2.5]], np.float32)),
    (tf.float64, [1e300], np.array([1e300])),
    (tf.int64, [2 ** 62], np.array([2 ** 62], np.int64)),
    (tf.uint8, [0, 255], np.array([0, 255], np.uint8)),
    (tf.bool, [True, False], np.array([True, False])),
    (tf.int32, 7, np.array(7, np.int32)),
    (tf.float32, [1, 10 ** 30], np.array([1, 1e30], np.float32)),
])
def test_values_are_decoded_into_the_signatures_dtype(dtype, value, expected):
    array = to_array(value, _info(dtype))
    assert array.dtype == expected.dtype and array.shape == expected.shape
    np.testing.assert_array_equal(array, expected)


@pytest.mark.parametrize("dtype, value, message", [
    (tf.uint8, [256], "JSON Value: 256 Type: Number is out of range for type: uint8"),
    (tf.int64, [2 ** 70], "JSON Value: 1180591620717411303424 Type: Number is out of range for type: int64"),
    (tf.bool, [1], "JSON Value: 1 Type: Number is not of expected type: bool"),
    (tf.int32, [1, True], "JSON Value: true Type: True is not of expected type: int32"),
    (tf.float32, [[1], [2, 3]], "Encountered list at unexpected size: 2 at level: 1 expected size: 1"),
    (tf.float32, [[1], 2], "JSON Value: 2 found at incorrect level: 2 in the JSON DOM. Expected at level: 2"),
    (tf.string, [{"b64": "a"}], "Unable to base64 decode"),
    (tf.string, [{"bytes": "a"}], 'JSON Value: {"bytes":"a"} not formatted correctly for base64 data'),
])
def test_values_that_do_not_fit_the_dtype_are_invalid(dtype, value, message):
    with pytest.raises(ServingError, match="^" + message.replace("[", r"\[").replace("(", r"\(")) as info:
        to_array(value, _info(dtype))
    assert info.value.code == "INVALID_ARGUMENT"


def _random_nested(rng, depth):
    """Nested lists `depth` deep, dense or broken in one of the ways a request can be (a list of another
    length, a number or string where a list belongs, a list, string, object, null, bool or huge integer
    among the numbers)."""
    shape = [int(n) for n in rng.integers(1, 4, size=depth)]
    value = rng.random(shape).round(3)
    value = (value * 100).astype(int).tolist() if rng.random() < 0.3 else value.tolist()
    if rng.random() < 0.2:
        return value
    node = value
    for _ in range(int(rng.integers(0, depth))):
        node = node[int(rng.integers(0, len(node)))]
    where = int(rng.integers(0, len(node)))
    node[where] = [[1.5], [2.5, 3.5], 2.0, "2", {"b64": "AA=="}, None, True, 2 ** 70, [], [[1.0]]][
        int(rng.integers(0, 10))]
    return value


def test_deep_lists_decode_to_what_numpy_makes_of_them():
    """The fast reading of nested lists (3 levels or more) gives np.array's own array, or leaves the
    value to it (None) where it is not dense numbers: checked against NumPy on random values."""
    from eagerflow.serving.json_tensors import _nested_numbers
    rng = np.random.default_rng(7)
    read = 0
    for _ in range(3000):
        depth = int(rng.integers(3, 6))
        value = _random_nested(rng, depth)
        fast = _nested_numbers(value, depth)
        if fast is None:
            continue
        read += 1
        expected = np.array(value)
        assert fast.dtype == expected.dtype and fast.shape == expected.shape, value
        np.testing.assert_array_equal(fast, expected)
    assert read > 600  # the dense ones (and the broken ones that are still dense numbers) were read


@pytest.mark.parametrize("value, message", [
    ([[[1.0], [2.0, 3.0]]], "Encountered list at unexpected size: 2 at level: 2 expected size: 1"),
    ([[[1.0], [2.0]], [[3.0], 4.0]],
     "JSON Value: 4.0 found at incorrect level: 3 in the JSON DOM. Expected at level: 3"),
    ([[[1.0], ["a"]]], 'JSON Value: "a" Type: String is not of expected type: float'),
    ([[[1.0], [None]]], "JSON Value: null Type: Null is not of expected type: float"),
])
def test_deep_lists_that_are_not_dense_numbers_keep_their_messages(value, message):
    with pytest.raises(ServingError, match="^" + message.replace("[", r"\[")) as info:
        to_array(value, _info(tf.float32))
    assert info.value.code == "INVALID_ARGUMENT"


def test_an_image_batch_decodes_exactly():
    images = np.random.default_rng(1).random((3, 28, 28, 1)).astype(np.float32)
    decoded = to_array(json.loads(json.dumps(images.tolist())), _info(tf.float32, (None, 28, 28, 1)))
    assert decoded.dtype == np.float32 and decoded.shape == (3, 28, 28, 1)
    np.testing.assert_array_equal(decoded, images)
