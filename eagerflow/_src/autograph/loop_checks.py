"""TensorFlow's refusals for the variables of a loop that becomes a tf.while_loop, in its words.

A tensor loop carries its variables through a loop op, so each must keep its nested structure,
dtype and (unless `set_loop_options(shape_invariants=...)` relaxes it) shape from one iteration to
the next, and must have a value before the loop. The checks here name the Python variable, as
TensorFlow's AutoGraph does, instead of leaving the user a message about flat loop tensors:

    'i' has dtype int32 before the loop, but dtype float32 after one iteration       (TypeError)
    's' does not have the same nested structure after one iteration.                  (TypeError)
    's' has shape (1,) before the loop, but shape (2,) after one iteration. Use
        tf.autograph.experimental.set_loop_options to set shape invariants.          (ValueError)
    's' is None at the end of the iteration.                                          (ValueError)

A loop over a tf.data.Dataset or one of its iterators follows TensorFlow's: its variables must
be defined, and not None, before the loop (no automatic definition) and a `return` inside it is
refused. Over a dataset (not an iterator) shapes may change between iterations: the loop keeps
the most specific shape every iteration agrees with.
"""
from __future__ import annotations

from ..core import nest
from ..core.convert import convert_to_tensor

RETURN_IN_LOOP = ("a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                  "statement depends on a static Python condition such as a hyperparameter")

TENSOR_BREAK_IN_PY_FOR = (
    "break and return statements which depend on a TF condition are not supported in Python for loops. Did you "
    "intend to make it a TF loop?")

TENSOR_TEST_IN_PY_WHILE = (
    "The condition of while loop started as non-Tensor, then changed to Tensor. This may happen either because "
    "variables changed type, or when a break or return statement inside the loop depends on a Tensor condition. In "
    "both cases, changing to a TF loop should remove the error.")

RETVAL = "retval_"  # the variable returns.py carries a `return` inside a loop in


class RelaxShapes(Exception):
    """A dataset loop's variable changed shape: trace the loop again with these (flat) invariants."""

    def __init__(self, invariants):
        super().__init__("relax")
        self.invariants = invariants


def shape_text(shape):
    return str(tuple(shape.as_list())) if shape.rank is not None else "<unknown>"


def undefined_before_dataset_loop(name, value):
    """TensorFlow's error for a dataset loop's variable with no value before the loop."""
    if name == RETVAL:
        return NotImplementedError(RETURN_IN_LOOP)
    if value is None:
        return ValueError(f"'{name}' is not allowed to be None before the loop")
    return ValueError(f"'{name}' must be defined before the loop")


def check_initial_shape(name, shape, invariant):
    """A shape invariant the user set must hold for the value entering the loop."""
    if not shape.is_subtype_of(invariant):
        raise ValueError(f"'{name}' has shape {shape_text(shape)} before the loop, which does not conform with the "
                         f"shape invariant {shape_text(invariant)}.")


def check_structure(name, before, after):
    """The value after one iteration must have the nested structure it entered with."""
    try:
        nest.assert_same_structure(before, after, check_types=True, expand_composites=True)
    except (ValueError, TypeError) as err:
        raise TypeError(f"'{name}' does not have the same nested structure after one iteration.\n\n{err}") from None


def check_leaf(name, entry, exit_, invariant, user_invariant, relax):
    """One flat loop tensor after one iteration: its dtype, then its shape (see the module docstring).

    `relax` (a dataset loop): a shape change is not an error; RelaxShapes asks for a wider invariant."""
    t = convert_to_tensor(exit_)
    if t.dtype is not entry.dtype:
        raise TypeError(f"'{name}' has dtype {entry.dtype.name} before the loop, but dtype {t.dtype.name} after one "
                        f"iteration")
    if t.shape.is_subtype_of(invariant):
        return t
    if relax:
        return None
    if user_invariant:
        raise ValueError(f"'{name}' has shape {shape_text(t.shape)} after one iteration, which does not conform with "
                         f"the shape invariant {shape_text(invariant)}.")
    raise ValueError(f"'{name}' has shape {shape_text(entry.shape)} before the loop, but shape {shape_text(t.shape)} "
                     f"after one iteration. Use tf.autograph.experimental.set_loop_options to set shape invariants.")


def zero_iterations_message(names):
    """What the run-time check says when a loop that defines variables (or the return value) ran no
    iteration: after it, those variables would have no value."""
    shown = ["the function return value" if n == RETVAL else n for n in names]
    return f"loop must iterate at least once to initialize {', '.join(shown)}"
