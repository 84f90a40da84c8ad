"""Operator dtype promotion under tf.experimental.numpy.experimental_enable_numpy_behavior(): every
pair of operands among eight tensor dtypes and three Python scalars, through `+ - * / // < >= == **`,
against numpy_promotion_tf221.json: TensorFlow 2.21's result dtype and value, or its error class and
message, for the default ("legacy") conversion mode with and without prefer_float32, and the
"all" and "safe" modes (TensorFlow's promotion lattice); `<= > != %` likewise from
numpy_promotion_more_ops_tf221.json."""
import json
import pathlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import numpy_promotion

tnp = tf.experimental.numpy
TABLE = json.loads((pathlib.Path(__file__).parent / "numpy_promotion_tf221.json").read_text())
# `<= > != %` recorded the same way (TensorFlow 2.21, each mode in a fresh process)
MORE_OPS_TABLE = json.loads((pathlib.Path(__file__).parent / "numpy_promotion_more_ops_tf221.json").read_text())
TENSORS = ("bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64")
SCALARS = {"py_int": 2, "py_float": 2.5, "py_bool": True}
OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
       "//": lambda a, b: a // b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b, "==": lambda a, b: a == b,
       "**": lambda a, b: a ** b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "!=": lambda a, b: a != b,
       "%": lambda a, b: a % b}


def _operand(name):
    if name in SCALARS:
        return SCALARS[name]
    return tf.constant(True) if name == "bool" else tf.constant(3, dtype=name)


@pytest.fixture
def numpy_behavior(request):
    before = set(vars(tf.Tensor))
    mode, prefer_float32 = request.param if isinstance(request.param, tuple) else ("legacy", request.param)
    tnp.experimental_enable_numpy_behavior(prefer_float32=prefer_float32, dtype_conversion_mode=mode)
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


@pytest.mark.parametrize("numpy_behavior", [("legacy", False), ("legacy", True), ("all", False), ("safe", False)],
                         indirect=True, ids=["legacy", "legacy_prefer_float32", "all", "safe"])
def test_operator_promotion_table(numpy_behavior, request):
    rows = TABLE[request.node.callspec.id]
    assert len(rows) == 1008
    for row in rows:
        _check(row)


@pytest.mark.parametrize("numpy_behavior", [("legacy", False), ("legacy", True), ("all", False), ("safe", False)],
                         indirect=True, ids=["legacy", "legacy_prefer_float32", "all", "safe"])
def test_more_operators_table(numpy_behavior, request):
    """`<=`, `>`, `!=`, `%`: in "all"/"safe" TensorFlow leaves `!=` unpromoted (`int32 != float32` is
    NotEqual's mismatch, `int64 != 2.5` a conversion TypeError) while `==` is promoted."""
    rows = MORE_OPS_TABLE[request.node.callspec.id]
    assert len(rows) == 448
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


@pytest.mark.parametrize("numpy_behavior", [("all", False), ("safe", False)], indirect=True, ids=["all", "safe"])
def test_lattice_ordering_names_the_first_dtype(numpy_behavior):
    """TensorFlow 2.21's lattice modes check the first tensor of `<`, `<=`, `>`, `>=` against the op's
    dtype list before the two dtypes against each other: its InvalidArgumentError eagerly (in full,
    up to TensorFlow's signature text) and its graph-mode TypeError in a function."""
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        tf.constant(True) <= tf.constant(3, tf.int32)
    assert str(err.value).startswith("Value for attr 'T' of bool is not in the list of allowed values: float, double, "
                                     "int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64\n\t; "
                                     "NodeDef: {{node LessEqual}}; Op<name=LessEqual; ")
    assert "[Op:LessEqual]" in str(err.value)

    @tf.function
    def greater(a, b):
        return a > b
    graph_message = (r"^Value passed to parameter 'x' has DataType complex64 not in list of allowed values: float32, "
                     r"float64, int32, uint8, int16, int8, int64, bfloat16, uint16, float16, uint32, uint64$")
    with pytest.raises(TypeError, match=graph_message):
        greater(tf.constant(3, tf.complex64), tf.constant(3, tf.int32))
    assert greater(tf.constant(1.0), tf.constant(0.5)).numpy()


@pytest.mark.parametrize("numpy_behavior", [True], indirect=True)
def test_prefer_float32_types_python_floats(numpy_behavior):
    """TensorFlow 2.21 with prefer_float32=True: tnp.asarray(1.5) and tnp.array([1.5]) are float32,
    tnp.zeros(2) keeps its float64 default."""
    assert (tnp.asarray(1.5).dtype, tnp.array([1.5]).dtype, tnp.zeros(2).dtype) == (tf.float32, tf.float32, tf.float64)


def test_disabled_operators_keep_tensorflows_rules():
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute AddV2"):
        tf.constant(1, tf.int32) + tf.constant(1.0)
    assert numpy_promotion.mode is None


def test_unknown_conversion_mode_is_tensorflows_value_error():
    with pytest.raises(ValueError, match="^The provided promotion mode bogus does not exist. Make sure the provided "
                                         "dtype conversion mode is one of the followings: 'off', 'legacy', 'safe' or "
                                         "'all'.$"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="bogus")
    assert numpy_promotion.mode is None


@pytest.mark.parametrize("numpy_behavior", [("off", False)], indirect=True)
def test_off_mode_keeps_operators(numpy_behavior):
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute AddV2"):
        tf.constant(1, tf.int32) + tf.constant(1.0)
    assert tf.constant([[1.0]]).T.shape == (1, 1)
