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
