"""AutoGraph's refusals, as TensorFlow words them.

Each case was run in TensorFlow 2.21 as `tf.function(case)(arg)`; the exception class and the
message below are what it raised (the "in user code:" frame TF puts in front is left out)."""
import re
import traceback

import numpy as np
import pytest

import eagerflow as tf

from . import refusal_cases
from .refusal_cases import (  # noqa: F401 - the table names them
    only_if, only_else, none_else, none_if, ret_one_branch, ret_one_branch_nested, ret_none_after,
    ret_none_else, cond_dtype, cond_structure, cond_tuple_or_list, Box, attribute_one_branch, attribute_none,
    item_one_branch, python_if_leaves_undefined, loop_dtype_while, loop_dtype_for, loop_python_float_to_int,
    loop_to_string, loop_tensor_to_tuple, loop_tuple_to_list, loop_dict_keys, loop_attribute_dtype,
    loop_list_grows, loop_shape_for, loop_shape_while, loop_rank, loop_invariant_rejects_init,
    loop_invariant_rejects_exit, loop_becomes_none_for, loop_becomes_none_while, loop_reads_before_defining,
    tensor_break_in_python_for, tensor_break_in_python_while, tensor_return_in_python_for,
    tensor_return_in_python_while, conditional_return_in_tensor_for, conditional_return_in_tensor_while,
    dataset_return, dataset_unconditional_return, dataset_undefined, dataset_none, dataset_dtype,
    dataset_structure, iterator_undefined, iterator_none, iterator_shape, iterator_return)

I3 = tf.constant(3)
I64_5 = tf.constant(5, tf.int64)
NOT_ALLOWED_NONE = "is not allowed to be None before the loop"
SHAPE_HINT = "Use tf.autograph.experimental.set_loop_options to set shape invariants."
RETURN_IN_LOOP = ("a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                  "statement depends on a static Python condition such as a hyperparameter")

# (function, argument, exception class, TF 2.21's message, from its start)
REFUSALS = [
    (only_if, I3, ValueError, "'y' must also be initialized in the else branch"),
    (only_else, I3, ValueError, "'y' must also be initialized in the main branch"),
    (none_else, I3, ValueError, "'y' is None at the end of the else branch."),
    (none_if, I3, ValueError, "'y' is None at the end of the main branch."),
    (ret_one_branch, I3, ValueError, "the else branch must also have a return statement."),
    (ret_one_branch_nested, I3, ValueError, "the else branch must also have a return statement."),
    (ret_none_after, I3, ValueError, "'retval_' is None at the end of the else branch."),
    (ret_none_else, I3, ValueError, "'retval_' is None at the end of the else branch."),
    (cond_dtype, I3, TypeError, "'y' has dtype int32 in the main branch, but dtype float32 in the else branch"),
    (cond_structure, I3, TypeError, "'y' must have the same nested structure in the main and else branches:"),
    (cond_tuple_or_list, I3, TypeError, "'y' must have the same nested structure in the main and else branches:"),
    (attribute_one_branch, I3, ValueError, "'b.v' must also be initialized in the else branch"),
    (attribute_none, I3, ValueError, "'b.v' is None at the end of the else branch."),
    (item_one_branch, I3, ValueError, "'d['k']' must also be initialized in the else branch"),
    (loop_attribute_dtype, I3, TypeError,
     "'b.v' has dtype int32 before the loop, but dtype float32 after one iteration"),
    (loop_list_grows, I3, TypeError, "'s' does not have the same nested structure after one iteration."),
    (loop_dtype_while, I3, TypeError, "'i' has dtype int32 before the loop, but dtype float32 after one iteration"),
    (loop_dtype_for, I3, TypeError, "'s' has dtype int32 before the loop, but dtype float32 after one iteration"),
    (loop_python_float_to_int, I3, TypeError,
     "'s' has dtype float32 before the loop, but dtype int32 after one iteration"),
    (loop_to_string, I3, TypeError, "'s' has dtype int32 before the loop, but dtype string after one iteration"),
    (loop_tensor_to_tuple, I3, TypeError, "'s' does not have the same nested structure after one iteration."),
    (loop_tuple_to_list, I3, TypeError, "'s' does not have the same nested structure after one iteration."),
    (loop_dict_keys, I3, TypeError, "'s' does not have the same nested structure after one iteration."),
    (loop_shape_for, I3, ValueError, "'s' has shape (1,) before the loop, but shape (2,) after one iteration. "
                                     + SHAPE_HINT),
    (loop_shape_while, I3, ValueError, "'s' has shape (1,) before the loop, but shape (2,) after one iteration. "
                                       + SHAPE_HINT),
    (loop_rank, I3, ValueError, "'s' has shape (1,) before the loop, but shape (1, 1) after one iteration. "
                                + SHAPE_HINT),
    (loop_invariant_rejects_init, I3, ValueError,
     "'s' has shape (2,) before the loop, which does not conform with the shape invariant (3,)."),
    (loop_invariant_rejects_exit, I3, ValueError,
     "'s' has shape (2, 2) after one iteration, which does not conform with the shape invariant (None,)."),
    (loop_becomes_none_for, I3, ValueError, "'s' is None at the end of the iteration."),
    (loop_becomes_none_while, I3, ValueError, "'s' is None at the end of the iteration."),
    (loop_reads_before_defining, I3, ValueError,
     "'t' must be defined before the loop\nNote: AutoGraph tried to define it automatically, but ran into a "
     "UnboundLocalError: 't' is used before assignment"),
    (tensor_break_in_python_for, I3, NotImplementedError,
     "break and return statements which depend on a TF condition are not supported in Python for loops. Did you "
     "intend to make it a TF loop?"),
    (tensor_break_in_python_while, I3, NotImplementedError,
     "The condition of while loop started as non-Tensor, then changed to Tensor. This may happen either because "
     "variables changed type, or when a break or return statement inside the loop depends on a Tensor condition. "
     "In both cases, changing to a TF loop should remove the error."),
    (tensor_return_in_python_for, I3, ValueError, "the else branch must also have a return statement."),
    (tensor_return_in_python_while, I3, ValueError, "the else branch must also have a return statement."),
    (conditional_return_in_tensor_for, I3, NotImplementedError, RETURN_IN_LOOP),
    (conditional_return_in_tensor_while, I3, NotImplementedError, RETURN_IN_LOOP),
    (dataset_return, I64_5, NotImplementedError, RETURN_IN_LOOP),
    (dataset_unconditional_return, I64_5, NotImplementedError, RETURN_IN_LOOP),
    (dataset_undefined, I64_5, ValueError, "'s' must be defined before the loop"),
    (dataset_none, I64_5, ValueError, "'s' " + NOT_ALLOWED_NONE),
    (dataset_dtype, I64_5, TypeError, "'s' has dtype int32 before the loop, but dtype int64 after one iteration"),
    (dataset_structure, I64_5, TypeError, "'s' does not have the same nested structure after one iteration."),
    (iterator_undefined, I64_5, ValueError, "'s' must be defined before the loop"),
    (iterator_none, I64_5, ValueError, "'s' " + NOT_ALLOWED_NONE),
    (iterator_shape, I64_5, ValueError, "'s' has shape (1,) before the loop, but shape (2,) after one iteration. "
                                        + SHAPE_HINT),
    (iterator_return, I64_5, NotImplementedError, RETURN_IN_LOOP),
]


@pytest.mark.parametrize("fn, arg, error, message", REFUSALS, ids=[r[0].__name__ for r in REFUSALS])
def test_refused_as_tensorflow_refuses(fn, arg, error, message):
    with pytest.raises(error) as info:
        tf.function(fn)(arg)
    assert str(info.value).startswith(message), str(info.value)


LINE_CASES = [r for r in REFUSALS if r[0] in (only_if, only_else, none_else, none_if, loop_dtype_while,
                                               loop_dtype_for, loop_shape_for, attribute_one_branch)]


def test_returning_a_name_a_python_if_left_without_value():
    # TF 2.21: UnboundLocalError "'y' is used before assignment" (was a TypeError about converting
    # an Undefined placeholder to a tensor); with the branch taken, the value.
    f = tf.function(python_if_leaves_undefined)
    with pytest.raises(UnboundLocalError, match="'y' is used before assignment"):
        f(tf.constant(1), False)
    assert int(f(tf.constant(1), True)) == 1


@pytest.mark.parametrize("fn, arg, error, message", LINE_CASES, ids=[r[0].__name__ for r in LINE_CASES])
def test_the_traceback_names_the_users_line(fn, arg, error, message):
    """TF puts the user's file:line of the statement in its message ("in user code:"); ours is
    in the traceback: the converted code runs under the user's file name and line numbers."""
    with pytest.raises(error) as info:
        tf.function(fn)(arg)
    frames = traceback.extract_tb(info.tb)
    lines = {f.lineno for f in frames if f.filename == refusal_cases.__file__}
    import inspect
    source, first = inspect.getsourcelines(fn)
    statement = next(first + k for k, line in enumerate(source) if re.match(r"\s+(if|for|while) ", line))
    assert statement in lines, (statement, [(f.filename, f.lineno) for f in frames])


# --- what TF 2.21 accepts around these refusals ---------------------------------------------------

def unconditional_return_in_tensor_for(n):
    for i in tf.range(n):
        return i * 10


def unconditional_return_in_tensor_while(n):
    i = tf.constant(0)
    while i < n:
        return i + 7
    return i


def defined_in_tensor_loop(n):
    for i in tf.range(n):
        s = i
    return s


def none_then_defined_in_tensor_loop(n):
    s = None
    for i in tf.range(n):
        s = i
    return s


def test_a_return_every_iteration_reaches_is_the_loops_value():
    # TF 2.21: 0 and 7 for n = 2; no iteration: InvalidArgumentError at run time.
    f = tf.function(unconditional_return_in_tensor_for)
    assert int(f(tf.constant(2))) == 0
    g = tf.function(unconditional_return_in_tensor_while)
    assert int(g(tf.constant(2))) == 7
    for fn in (f, g):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="loop must iterate at least once to initialize the function return value"):
            fn(tf.constant(0))


def test_a_variable_the_loop_defines_needs_one_iteration():
    # TF 2.21: the last value (1 for n = 2); no iteration: InvalidArgumentError at run time.
    for fn in (defined_in_tensor_loop, none_then_defined_in_tensor_loop):
        f = tf.function(fn)
        assert int(f(tf.constant(2))) == 1
        with pytest.raises(tf.errors.InvalidArgumentError, match="loop must iterate at least once to initialize s"):
            f(tf.constant(0))


def dataset_growing(n):
    s = tf.zeros([1], tf.int64)
    for x in tf.data.Dataset.range(n):
        s = tf.concat([s, [x]], 0)
    return s


def dataset_changing_rank(n):
    s = tf.zeros([1], tf.int64)
    for x in tf.data.Dataset.range(n):
        s = tf.reshape(s, [1, -1])
    return s


def test_a_dataset_loop_may_change_shapes():
    # TF 2.21: [0 0 1 2] with static shape (None,); [[0]] with unknown static shape.
    f = tf.function(dataset_growing)
    np.testing.assert_array_equal(f(tf.constant(3, tf.int64)).numpy(), [0, 0, 1, 2])
    assert f.get_concrete_function(tf.TensorSpec([], tf.int64)).structured_outputs.shape.as_list() == [None]
    g = tf.function(dataset_changing_rank)
    np.testing.assert_array_equal(g(tf.constant(3, tf.int64)).numpy(), [[0]])
    assert g.get_concrete_function(tf.TensorSpec([], tf.int64)).structured_outputs.shape.rank is None


def test_a_loop_that_ends_the_function_returns_its_value():
    def first_even(xs):
        for x in xs:
            return x
    assert int(tf.function(first_even)(tf.constant([4, 5]))) == 4


# --- the two places we go beyond TensorFlow on purpose (docs/differences.md, converters/calls.py, asserts.py) ----

def appended_in_tensor_loop(n):
    items = []
    for i in tf.range(n):
        items.append(i * 2)
    return tf.stack(items)


def asserted(x):
    assert x > 0, "x must be positive"
    return x


def test_the_two_deliberate_extensions_stay():
    # TF 2.21: InaccessibleTensorError for the list; OperatorNotAllowedInGraphError for the assert
    # unless Feature.ASSERT_STATEMENTS is asked for. Here: the stacked items, and a run-time check.
    np.testing.assert_array_equal(tf.function(appended_in_tensor_loop)(tf.constant(3)).numpy(), [0, 2, 4])
    f = tf.function(asserted)
    assert int(f(tf.constant(1))) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        f(tf.constant(-1))
