"""tf.Assert, tf.debugging.assert_* and check_numerics. Expected messages are TensorFlow 2.21's
eager messages for the same calls (recorded as literals)."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import debugging as dbg
from eagerflow._src.core.errors import InvalidArgumentError
from eagerflow._src.ops.registry import OPS

I32 = np.int32


def ints(*v):
    return tf.constant(np.array(v, dtype=I32))


def message_of(fn, *args, **kwargs):
    with pytest.raises(InvalidArgumentError) as info:
        fn(*args, **kwargs)
    return info.value.message


FAILING = [
    (dbg.assert_greater, (tf.constant([-1., 2.]), 0.), {"message": "Denominator must be positive"},
     "Denominator must be positive\nCondition x > y did not hold.\nFirst 2 elements of x:\n[-1.  2.]\n"
     "First 1 elements of y:\n[0.]"),
    (dbg.assert_greater, (tf.constant([-1., 2.]), 0.), {"name": "myname"},
     "Condition x > y did not hold.\nFirst 2 elements of x:\n[-1.  2.]\nFirst 1 elements of y:\n[0.]"),
    (dbg.assert_equal, (ints(1, 2, 3), ints(1, 5, 3)), {},
     "Condition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\nCorresponding x values:\n[2]\n"
     "Corresponding y values:\n[5]\nFirst 3 elements of x:\n[1 2 3]\nFirst 3 elements of y:\n[1 5 3]"),
    (dbg.assert_equal, (ints(1, 2, 3), 1), {"message": "m"},
     "m\nCondition x == y did not hold.\nFirst 3 elements of x:\n[1 2 3]\nFirst 1 elements of y:\n[1]"),
    (dbg.assert_equal, (ints(*range(10)), ints(*[0] * 10)), {"summarize": 2},
     "Condition x == y did not hold.\nIndices of first 2 different values:\n[[1]\n [2]]\nCorresponding x values:\n"
     "[1 2]\nCorresponding y values:\n[0 0]\nFirst 2 elements of x:\n[0 1]\nFirst 2 elements of y:\n[0 0]"),
    (dbg.assert_less, (ints(*range(10)), ints(*[0] * 10)), {"summarize": 0}, "Condition x < y did not hold."),
    (dbg.assert_none_equal, (ints(1, 2), ints(1, 3)), {},
     "Condition x != y did not hold.\nIndices of first 1 different values:\n[[0]]\nCorresponding x values:\n[1]\n"
     "Corresponding y values:\n[1]\nFirst 2 elements of x:\n[1 2]\nFirst 2 elements of y:\n[1 3]"),
    (dbg.assert_less, (ints(1, 2), ints(2, 2)), {},
     "Condition x < y did not hold.\nIndices of first 1 different values:\n[[1]]\nCorresponding x values:\n[2]\n"
     "Corresponding y values:\n[2]\nFirst 2 elements of x:\n[1 2]\nFirst 2 elements of y:\n[2 2]"),
    (dbg.assert_less_equal, (ints(1, 3), 2), {},
     "Condition x <= y did not hold.\nFirst 2 elements of x:\n[1 3]\nFirst 1 elements of y:\n[2]"),
    (dbg.assert_greater_equal, (ints(1, 3), 2), {},
     "Condition x >= y did not hold.\nFirst 2 elements of x:\n[1 3]\nFirst 1 elements of y:\n[2]"),
    (dbg.assert_less, (tf.constant(3), tf.constant(2)), {},
     "Condition x < y did not hold.\nFirst 1 elements of x:\n[3]\nFirst 1 elements of y:\n[2]"),
    (dbg.assert_equal, (tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 2], [3, 5]])), {},
     "Condition x == y did not hold.\nIndices of first 1 different values:\n[[1 1]]\nCorresponding x values:\n[4]\n"
     "Corresponding y values:\n[5]\nFirst 3 elements of x:\n[1 2 3]\nFirst 3 elements of y:\n[1 2 3]"),
    (dbg.assert_equal, (tf.constant([0.1, 2.5]), tf.constant([0.1, 2.0])), {},
     "Condition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\nCorresponding x values:\n[2.5]\n"
     "Corresponding y values:\n[2.]\nFirst 2 elements of x:\n[0.1 2.5]\nFirst 2 elements of y:\n[0.1 2. ]"),
    (dbg.assert_equal, (tf.constant(["a"]), tf.constant(["b"])), {},
     "Condition x == y did not hold.\nIndices of first 1 different values:\n[[0]]\nCorresponding x values:\n[b'a']\n"
     "Corresponding y values:\n[b'b']\nFirst 1 elements of x:\n[b'a']\nFirst 1 elements of y:\n[b'b']"),
    (dbg.assert_equal, (tf.constant([True]), tf.constant([False])), {},
     "Condition x == y did not hold.\nIndices of first 1 different values:\n[[0]]\nCorresponding x values:\n[ True]\n"
     "Corresponding y values:\n[False]\nFirst 1 elements of x:\n[ True]\nFirst 1 elements of y:\n[False]"),
    (dbg.assert_equal, (tf.zeros((2, 2, 2)), tf.ones((2, 2, 2))), {},
     "Condition x == y did not hold.\nIndices of first 3 different values:\n[[0 0 0]\n [0 0 1]\n [0 1 0]]\n"
     "Corresponding x values:\n[0. 0. 0.]\nCorresponding y values:\n[1. 1. 1.]\nFirst 3 elements of x:\n"
     "[0. 0. 0.]\nFirst 3 elements of y:\n[1. 1. 1.]"),
    (dbg.assert_equal, (tf.zeros((2, 2)), tf.constant([0., 1.])), {},
     "Condition x == y did not hold.\nFirst 3 elements of x:\n[0. 0. 0.]\nFirst 2 elements of y:\n[0. 1.]"),
    (dbg.assert_equal, (1, 2), {},
     "Condition x == y did not hold.\nFirst 1 elements of x:\n[1]\nFirst 1 elements of y:\n[2]"),
    (dbg.assert_positive, (ints(1, 0),), {},
     "\nCondition x > 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['1', '0']"),
    (dbg.assert_positive, (ints(1, 0),), {"message": "hey"},
     "hey.  \nCondition x > 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['1', '0']"),
    (dbg.assert_negative, (tf.constant([-1., 0.]),), {},
     "\nCondition x < 0 did not hold element-wise:\nx (shape=(2,) dtype=float32) = \n['-1.0', '0.0']"),
    (dbg.assert_non_negative, (tf.constant([-1., 0.]),), {},
     "\nCondition x >= 0 did not hold element-wise:\nx (shape=(2,) dtype=float32) = \n['-1.0', '0.0']"),
    (dbg.assert_non_positive, (tf.constant([1., 0.]),), {},
     "\nCondition x <= 0 did not hold element-wise:x (shape=(2,) dtype=float32) = \n['1.0', '0.0']"),
    (dbg.assert_positive, (ints(*range(-1, 9)),), {},
     "\nCondition x > 0 did not hold element-wise:\nx (shape=(10,) dtype=int32) = \n['-1', '0', '1', '...']"),
    (dbg.assert_positive, (ints(*range(-1, 9)),), {"summarize": 2},
     "\nCondition x > 0 did not hold element-wise:\nx (shape=(10,) dtype=int32) = \n['-1', '0', '...']"),
    (dbg.assert_positive, (tf.constant(-1.5),), {},
     "\nCondition x > 0 did not hold element-wise:\nx (shape=() dtype=float32) = \n-1.5"),
    (dbg.assert_positive, (tf.constant([[-1.5, 2.], [3., 4.]]),), {},
     "\nCondition x > 0 did not hold element-wise:\nx (shape=(2, 2) dtype=float32) = \n['-1.5', '2.0', '3.0', '...']"),
    (dbg.Assert, (tf.constant(False), ["x is", ints(1, 2), 3.5]), {},
     "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'x is'\n1, 2\n3.5"),
    (dbg.Assert, (tf.constant(False), [ints(*range(10))]), {"summarize": 2},
     "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: 0, 1, ..."),
    (dbg.Assert, (tf.constant(False), [ints(*range(10))]), {},
     "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: 0, 1, 2, ..."),
    (dbg.Assert, (False, [tf.constant("s"), tf.constant(["s"])]), {"name": "nm"},
     "Expected 'False' to be true. Summarized data: b's'\nb's'"),
    (dbg.Assert, (tf.constant(0), [1]), {},
     "Expected 'tf.Tensor(0, shape=(), dtype=int32)' to be true. Summarized data: 1"),
    (dbg.assert_near, (tf.constant([1., 2.]), tf.constant([1., 2.1])), {},
     "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b''\nb'x and y not equal to "
     "tolerance rtol = tf.Tensor(1.1920929e-06, shape=(), dtype=float32), atol = tf.Tensor(1.1920929e-06, "
     "shape=(), dtype=float32)'\nb'x (shape=(2,) dtype=float32) = '\n1.0, 2.0\nb'y (shape=(2,) dtype=float32) = '"
     "\n1.0, 2.1"),
]


@pytest.mark.parametrize("fn,args,kwargs,expected", FAILING, ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(FAILING)])
def test_failing_assert_message_matches_tensorflow(fn, args, kwargs, expected):
    assert message_of(fn, *args, **kwargs) == expected


PASSING = [
    (dbg.assert_greater, (tf.constant([1., 2.]), 0.)),
    (dbg.assert_equal, (ints(1, 2), ints(1, 2))),
    (dbg.assert_equal, (1, 1)),
    (dbg.assert_none_equal, (ints(1, 2), ints(2, 3))),
    (dbg.assert_less, (tf.constant(np.zeros(0, I32)), tf.constant(2))),  # empty: vacuously true
    (dbg.assert_less_equal, (ints(1, 2), 2)),
    (dbg.assert_greater_equal, (ints(2, 3), 2)),
    (dbg.assert_positive, (ints(1, 2),)),
    (dbg.assert_negative, (tf.constant([-1., -2.]),)),
    (dbg.assert_non_negative, (tf.constant([0., 2.]),)),
    (dbg.assert_non_positive, (tf.constant([0., -2.]),)),
    (dbg.Assert, (tf.constant(True), ["x is", ints(1, 2)])),
    (dbg.Assert, (True, [1])),
    (dbg.assert_near, (tf.constant([1., 2.]), tf.constant([1., 2.0000001]))),
    (dbg.assert_rank, (tf.zeros((2, 3)), 2)),
    (dbg.assert_rank_at_least, (tf.zeros((2, 3)), 1)),
    (dbg.assert_rank_in, (tf.zeros((2, 3)), (1, 2))),
    (dbg.assert_type, (tf.zeros((2, 3)), tf.float32)),
    (dbg.assert_type, (tf.zeros((2, 3)), np.float32)),
    (dbg.assert_type, (tf.zeros((2, 3)), "float32")),
    (dbg.assert_type, (tf.Variable(1.), tf.float32)),
    (dbg.assert_type, ([1, 2], tf.int32)),
    (dbg.assert_integer, (ints(1),)),
    (dbg.assert_scalar, (tf.constant(1.),)),
]


@pytest.mark.parametrize("fn,args", PASSING, ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(PASSING)])
def test_passing_asserts_return_none(fn, args):
    assert fn(*args) is None


def test_operand_errors_come_from_the_comparison_op():
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        dbg.assert_equal(ints(1, 2), ints(1, 2, 3))
    # Each side converted on its own: a Python int against a float tensor is a dtype mismatch.
    with pytest.raises(InvalidArgumentError, match="expected to be a float tensor but is a int32 tensor"):
        dbg.assert_equal(tf.constant([1., 2.]), 1)


def test_assert_argument_errors():
    with pytest.raises(TypeError, match="values must be a sequence."):
        dbg.Assert(False, tf.constant(1))
    with pytest.raises(ValueError, match="truth value of an array with more than one element is ambiguous"):
        dbg.Assert(tf.constant([True, False]), [1])
    with pytest.raises(TypeError, match="unexpected keyword argument 'data'"):
        dbg.assert_equal(1, 2, data=["a"])


X = tf.zeros((2, 3))

STATIC_ERRORS = [
    (dbg.assert_rank, (X, 3), {}, ValueError, "Tensor  must have rank 3.  Received rank 2, shape (2, 3)"),
    (dbg.assert_rank, (X, 3), {"message": "msg"}, ValueError,
     "msg.  Tensor  must have rank 3.  Received rank 2, shape (2, 3)"),
    (dbg.assert_rank, (X, tf.constant(3)), {}, ValueError, "Tensor  must have rank 3.  Received rank 2, shape (2, 3)"),
    (dbg.assert_rank, (X, [3]), {}, ValueError, "Rank must be a scalar."),
    (dbg.assert_rank, (X, 2.0), {}, TypeError, "tensor must be of type tf.int32; got tf.float32"),
    (dbg.assert_rank_at_least, (X, 3), {}, ValueError,
     "Tensor  must have rank at least 3.  Received rank 2, shape (2, 3)"),
    (dbg.assert_rank_in, (X, (0, 1)), {"message": "mm"}, ValueError,
     "mm.  Tensor  must have rank in (0, 1).  Received rank 2, shape (2, 3)"),
    (dbg.assert_type, (X, tf.int32), {}, TypeError, "tensor must be of type tf.int32; got tf.float32"),
    (dbg.assert_type, (X, tf.int32), {"message": "mm"}, TypeError,
     "mm.  tensor must be of type tf.int32; got tf.float32"),
    (dbg.assert_type, (X, "blah"), {}, TypeError,
     "Cannot convert the argument `type_value`: 'blah' to a TensorFlow DType."),
    (dbg.assert_integer, (X,), {}, TypeError,
     "Expected \"x\" to be integer type.  Found: tensor of dtype <dtype: 'float32'>"),
    (dbg.assert_scalar, (X,), {}, ValueError, "Expected scalar shape, saw shape: (2, 3)."),
]


@pytest.mark.parametrize("fn,args,kwargs,cls,expected", STATIC_ERRORS,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(STATIC_ERRORS)])
def test_static_checks_raise_like_tensorflow(fn, args, kwargs, cls, expected):
    with pytest.raises(cls) as info:
        fn(*args, **kwargs)
    assert str(info.value) == expected


Z4 = tf.zeros((4, 2, 3))

SHAPES_OK = [
    [(X, ("N", "D")), (tf.zeros((2,)), ("N",))],
    [(X, (2, 3))], [(X, "ND")], [(X, (None, 3))], [(X, [2, 3])], [(X, (".", 3))],
    [(Z4, ("...", "N", 3))],  # the *string* "..." is just a symbol here
    [(Z4, ("*", "N", 3))],
    [(Z4, (..., "N", 3)), (tf.zeros((7, 2)), (..., "N"))],
    [(tf.constant(1.), [])], [(tf.zeros((2,)), "N")], [(tf.constant(1.), ("N",))],
    [(tf.constant(1.), ("*", "A"))], [(Z4, ("4", 2, 3))], [([1, 2], ("N",))],
]


@pytest.mark.parametrize("shapes", SHAPES_OK, ids=range(len(SHAPES_OK)))
def test_assert_shapes_passes(shapes):
    assert dbg.assert_shapes(shapes) is None


SHAPES_BAD = [
    ([(X, ("N", "D")), (tf.zeros((3,)), ("N",))], {},
     "Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor shape=(3,) dtype=float32 dimension 0 "
     "must have size 2.  Received size 3, shape (3,)"),
    ([(X, ("N",))], {}, "Tensor  must have rank in (0, 1).  Received rank 2, shape (2, 3)"),
    ([(X, (2, 4))], {}, "Specified explicitly.  Tensor shape=(2, 3) dtype=float32 dimension 1 must have size 4.  "
     "Received size 3, shape (2, 3)"),
    ([(tf.zeros((2,)), [])], {}, "Specified explicitly.  Tensor shape=(2,) dtype=float32 dimension 0 must have size "
     "1.  Received size 2, shape (2,)"),
    ([(X, ("N", "N"))], {"message": "hello"},
     "hello.  Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor shape=(2, 3) dtype=float32 "
     "dimension 1 must have size 2.  Received size 3, shape (2, 3)"),
    ([(X, (1, "D"))], {}, "Specified explicitly.  Tensor shape=(2, 3) dtype=float32 dimension 0 must have size 1.  "
     "Received size 2, shape (2, 3)"),
    ([(X, ("...", "A", "B", "C"))], {}, "Tensor  must have rank 4.  Received rank 2, shape (2, 3)"),
    ([(Z4, (..., "N", 3)), (tf.zeros((7, 5)), (..., "N"))], {},
     "Specified by tensor shape=(4, 2, 3) dtype=float32 dimension -2.  Tensor shape=(7, 5) dtype=float32 "
     "dimension -1 must have size 2.  Received size 5, shape (7, 5)"),
    ([(Z4, (..., 4))], {}, "Specified explicitly.  Tensor shape=(4, 2, 3) dtype=float32 dimension -1 must have "
     "size 4.  Received size 3, shape (4, 2, 3)"),
    ([(tf.zeros((3,)), ("*", "A", "B"))], {}, "Tensor  must have rank at least 2.  Received rank 1, shape (3,)"),
    ([(tf.constant(1.), (2,))], {}, "Specified explicitly.  Tensor shape=() dtype=float32 dimension 0 must have "
     "size 2.  Received size 1, shape ()"),
    ([(Z4, ("N", 2, 3)), (tf.zeros((5,)), ("N",))], {},
     "Specified by tensor shape=(4, 2, 3) dtype=float32 dimension 0.  Tensor shape=(5,) dtype=float32 dimension 0 "
     "must have size 4.  Received size 5, shape (5,)"),
]


@pytest.mark.parametrize("shapes,kwargs,expected", SHAPES_BAD, ids=range(len(SHAPES_BAD)))
def test_assert_shapes_fails_like_tensorflow(shapes, kwargs, expected):
    with pytest.raises(ValueError) as info:
        dbg.assert_shapes(shapes, **kwargs)
    assert str(info.value) == expected


@pytest.mark.parametrize("values,dtype,word", [
    ([1., np.nan], np.float32, "NaN"), ([1., np.inf], np.float32, "Inf"), ([-np.inf, np.nan], np.float32, "Inf and NaN"),
    ([np.nan], np.float64, "NaN"), ([np.inf], np.float16, "Inf")])
def test_check_numerics_fails(values, dtype, word):
    msg = message_of(dbg.check_numerics, tf.constant(np.array(values, dtype)), "bad values")
    assert msg == f"bad values : Tensor had {word} values [Op:CheckNumerics]"
    assert message_of(dbg.assert_all_finite, tf.constant(np.array(values, dtype)), "oops").startswith("oops : Tensor had")


def test_check_numerics_passes_values_through():
    x = np.array([1., -2.5, 3e30], np.float32)
    out = dbg.check_numerics(tf.constant(x), "m")
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), x)


def test_check_numerics_refuses_integers():
    with pytest.raises(InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list of allowed values"):
        dbg.check_numerics(ints(1, 2), "m")


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # sqrt's gradient at 0 divides by zero on purpose
def test_check_numerics_gradient_checks_the_gradient():
    x = tf.constant([1., 0.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = dbg.check_numerics(x, "fwd")
        z = tf.sqrt(y)  # d sqrt at 0 is inf: the backward CheckNumerics names it
    with pytest.raises(InvalidArgumentError, match="Not a number \\(NaN\\) or infinity \\(Inf\\) values detected "
                                                   "in gradient. fwd : Tensor had Inf values"):
        tape.gradient(z, x)


def test_ops_are_stateful_where_they_must_be():
    assert OPS["Assert"].stateful and OPS["CheckNumerics"].stateful
    assert not OPS["Assert"].differentiable and OPS["CheckNumerics"].differentiable



def test_asserts_record_into_a_graph_and_check_at_run_time():
    Graph = pytest.importorskip("eagerflow._src.graph.graph").Graph
    evaluate = pytest.importorskip("eagerflow._src.graph.evaluate").evaluate
    from eagerflow._src.core.context import graph_scope
    g = Graph()
    with graph_scope(g):
        x = g.placeholder(tf.float32, tf.TensorShape([None]), "x")
        dbg.assert_greater(x, 0., message="pos")
        dbg.check_numerics(x, "m")
    types = [op.type for op in g.get_operations()]
    assert "Assert" in types and "CheckNumerics" in types
    g.outputs, g.structured_outputs = [], None
    evaluate(g, [tf.constant([1., 2.])])  # passes: nothing raised at run time
    # TensorFlow 2.21's graph Assert kernel wording (tests/ops/test_assert_graph_messages.py)
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "assertion failed: [pos] [Condition x > y did not hold element-wise:] [x (x:0) = ] [-1 2] "
            "[y (assert_greater/y:0) = ] [0]")):
        evaluate(g, [tf.constant([-1., 2.])])
