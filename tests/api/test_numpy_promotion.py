"""Operator dtype promotion under tf.experimental.numpy.experimental_enable_numpy_behavior(): every
pair of operands among eight tensor dtypes and three Python scalars, through `+ - * / // < >= == **`,
against numpy_promotion_tf221.json: TensorFlow 2.21's result dtype and value, or its error class and
message, for the default ("legacy") conversion mode, with and without prefer_float32."""
import json
import pathlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import numpy_promotion

tnp = tf.experimental.numpy
TABLE = json.loads((pathlib.Path(__file__).parent / "numpy_promotion_tf221.json").read_text())
TENSORS = ("bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64")
SCALARS = {"py_int": 2, "py_float": 2.5, "py_bool": True}
OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
       "//": lambda a, b: a // b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b, "==": lambda a, b: a == b,
       "**": lambda a, b: a ** b}


def _operand(name):
    if name in SCALARS:
        return SCALARS[name]
    return tf.constant(True) if name == "bool" else tf.constant(3, dtype=name)


@pytest.fixture
def numpy_behavior(request):
    before = set(vars(tf.Tensor))
    tnp.experimental_enable_numpy_behavior(prefer_float32=request.param)
    yield request.param
    numpy_promotion.disable()
    for name in set(vars(tf.Tensor)) - before:
        delattr(tf.Tensor, name)


def _check(row):
    a, op, b, expected, detail = row
    try:
        result = OPS[op](_operand(a), _operand(b))
    except Exception as err:  # noqa: BLE001 - the class is what is compared
        assert (type(err).__name__, str(err)[:len(detail)]) == (expected, detail), row
        return
    assert result.dtype.name == expected, row
    want = complex(eval(detail)) if expected.startswith("complex") else eval(detail)  # a repr of a number
    np.testing.assert_allclose(complex(result.numpy().item()), want, rtol=2e-6, err_msg=str(row))


@pytest.mark.parametrize("numpy_behavior", [False, True], indirect=True, ids=["legacy", "prefer_float32"])
def test_operator_promotion_table(numpy_behavior):
    rows = TABLE["legacy_prefer_float32" if numpy_behavior else "legacy"]
    assert len(rows) == 1008
    for row in rows:
        _check(row)


@pytest.mark.parametrize("numpy_behavior", [False], indirect=True)
def test_promotion_in_a_function_and_examples(numpy_behavior):
    @tf.function
    def f(i, x):
        return i + x, i / 2, x * 2.5
    s, q, m = f(tf.constant([1, 2], tf.int32), tf.constant([0.5, 0.25], tf.float32))
    assert (s.dtype, q.dtype, m.dtype) == (tf.float64, tf.float64, tf.float32)
    np.testing.assert_allclose(s.numpy(), [1.5, 2.25])
    assert (tf.constant([1], tf.uint8) < tf.constant([2.5], tf.float16)).numpy().tolist() == [True]


@pytest.mark.parametrize("numpy_behavior", [True], indirect=True)
def test_prefer_float32_types_python_floats(numpy_behavior):
    """TensorFlow 2.21 with prefer_float32=True: tnp.asarray(1.5) and tnp.array([1.5]) are float32,
    tnp.zeros(2) keeps its float64 default."""
    assert (tnp.asarray(1.5).dtype, tnp.array([1.5]).dtype, tnp.zeros(2).dtype) == (tf.float32, tf.float32, tf.float64)


def test_disabled_operators_keep_tensorflows_rules():
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute AddV2"):
        tf.constant(1, tf.int32) + tf.constant(1.0)
    assert numpy_promotion.mode is None


def test_other_conversion_modes_are_refused_by_name():
    with pytest.raises(NotImplementedError, match="dtype_conversion_mode='all'"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
    assert numpy_promotion.mode is None
