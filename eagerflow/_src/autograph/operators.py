"""What converted code calls (as `ag__.name`): each picks a TensorFlow op or plain Python at trace time.

The rule everywhere: a symbolic tensor (or a Variable, inside a graph) as the condition or the
iterable -> tf.cond / tf.while_loop; anything else -> the Python statement it came from, run now.
So a Python condition is resolved while tracing (frozen into the graph), as in TensorFlow.

Branch and loop functions take their state as parameters and return it (see converters/):
    if_stmt(test, if_true, if_false, names, inputs)   -> the outputs named `names`
                                                         (names None: the branches `return`)
    while_stmt(loop_test, loop_body, init, names, opts) -> the loop variables (loop_ops.py)
    for_stmt(iterable, loop_body, init, names, extra_test, opts) -> the loop variables (loop_ops.py)
The values they pass around (Undefined, NO_RETURN, TensorList) are in values.py.
"""
from __future__ import annotations

from ..control_flow.cond import cond as _cond
from ..core import nest
from ..core.convert import convert_to_tensor
from ..core.tensor import EagerTensor, Tensor
from .loop_ops import for_stmt, loop_options, while_stmt
from .values import (NO_RETURN, TensorList, Undefined, bool_tensor as _bool_tensor, condition as _condition,
                     forget_composite, function_return, get_composite, is_symbolic as _is_symbolic, is_undefined)


# --- conditionals ---------------------------------------------------------------------------------


def if_stmt(test, if_true, if_false, names, inputs=()):
    if not _is_symbolic(test):
        return if_true(*inputs) if test else if_false(*inputs)
    return _tf_if(_condition(test, "if statement"), if_true, if_false, names, inputs)


_PLACEHOLDER = False  # what an undefined output carries through tf.cond (never read)


def _tf_if(test, if_true, if_false, names, inputs):
    returning = names is None
    labels = ("retval_",) if returning else names
    seen = {}

    def traced(fn, branch):
        def run():
            out = fn(*inputs)
            values = (out,) if returning else tuple(out)
            _check_branch(values, labels, branch, seen, returning)
            # A None or undefined output is reported once both branches are seen (_check_branch).
            values = tuple(_PLACEHOLDER if v is None or isinstance(v, Undefined) else v for v in values)
            # NOTE: an If with no outputs breaks codegen/pycode.py (it emits "= ..."); one dummy
            # output keeps the op (stateful branches keep it alive in the graph anyway).
            return values if values else (_PLACEHOLDER,)
        return run

    outs = _cond(test, traced(if_true, "main"), traced(if_false, "else"))
    outs = tuple(outs) if isinstance(outs, (tuple, list)) else (outs,)
    outs = outs[:len(labels)]
    outs = tuple(Undefined(n) if seen.get(("undefined", n)) else v for n, v in zip(labels, outs))
    return outs[0] if returning else outs


def _check_branch(values, labels, branch, seen, returning):
    """TensorFlow's errors for branch outputs that cannot be merged, naming the variable.

    In TensorFlow's order: a branch with no value for a name (or no `return`) fails as soon as
    it is traced; a None is reported after both are (main before else); then structures, dtypes."""
    other = "else" if branch == "main" else "main"
    if branch == "else":  # the main branch's missing names come first, as TensorFlow checks it first
        for name, value in zip(labels, values):
            if seen[("undefined", name)] and not isinstance(value, Undefined) and value is not NO_RETURN:
                raise ValueError(f"'{name}' must also be initialized in the main branch")
    for name, value in zip(labels, values):
        if value is NO_RETURN or (name == "retval_" and not returning and (
                value is None or isinstance(value, Undefined))):  # a loop's `return` in one branch only
            raise ValueError(f"the {branch} branch must also have a return statement.")
        undefined = isinstance(value, Undefined)
        if branch == "main":
            seen[("undefined", name)] = undefined
            seen[("value", name)] = value
            continue
        if undefined != seen[("undefined", name)]:
            missing = branch if undefined else other
            raise ValueError(f"'{name}' must also be initialized in the {missing} branch")
        if undefined:
            continue
        first = seen[("value", name)]
        for side, v in (("main", first), ("else", value)):
            if v is None:
                raise ValueError(f"'{name}' is None at the end of the {side} branch.")
        try:
            nest.assert_same_structure(first, value, check_types=True,
                                       expand_composites=True)  # a tuple is not a list (TF 2.21)
        except (ValueError, TypeError) as err:
            raise TypeError(f"'{name}' must have the same nested structure in the main and else branches:"
                            f"\n\n{err}") from None
        for a, b in zip(nest.flatten(first, expand_composites=True), nest.flatten(value, expand_composites=True)):
            da, db = _dtype_of(a), _dtype_of(b)
            if da is not None and db is not None and da is not db:
                raise TypeError(f"'{name}' has dtype {da.name} in the main branch, but dtype {db.name} in the "
                                f"else branch")


def _dtype_of(value):
    if isinstance(value, (Tensor, TensorList)) or hasattr(type(value), "_as_tensor"):
        return value.dtype
    try:
        return convert_to_tensor(value).dtype
    except (TypeError, ValueError):
        return None


def if_exp(test, if_true, if_false):
    """`a if test else b`."""
    if not _is_symbolic(test):
        return if_true() if test else if_false()
    return _cond(_bool_tensor(test), if_true, if_false)


def and_(a, b):
    """`a and b()`: b is evaluated only when needed (Python values keep Python's semantics)."""
    if not _is_symbolic(a):
        return b() if a else a
    a = _bool_tensor(a)
    return _cond(a, lambda: _bool_tensor(b()), lambda: a)


def or_(a, b):
    if not _is_symbolic(a):
        return a if a else b()
    a = _bool_tensor(a)
    return _cond(a, lambda: a, lambda: _bool_tensor(b()))


def not_(a):
    if not _is_symbolic(a):
        return not a
    from ..ops.math.elementwise import logical_not
    return logical_not(_bool_tensor(a))


# --- builtins and lists ---------------------------------------------------------------------------


def len_(x):
    """`len(x)`; a tensor whose length is known only at run time gives `tf.shape(x)[0]`."""
    if isinstance(x, TensorList):
        x = x.tensor
    if isinstance(x, Tensor) and not isinstance(x, EagerTensor):
        shape = x.shape
        if shape.rank == 0:
            raise ValueError(f"len requires a non-scalar tensor, got one of shape {shape}")
        if shape.rank is not None and shape[0] is not None:
            return shape[0]
        from ..ops.array.basic import shape as _shape
        return _shape(x)[0]
    return len(x)


def range_(*args):
    """`range(...)`; a symbolic bound gives `tf.range` (a loop over it becomes a loop op)."""
    if any(_is_symbolic(a) for a in args):
        from ..ops.array.sequences import range as _range
        return _range(*args)
    return range(*[int(a) if isinstance(a, EagerTensor) else a for a in args])


def list_append(xs, value):
    """`xs.append(value)`: in place for Python lists; a new stacked tensor for a TensorList."""
    if isinstance(xs, TensorList):
        from ..ops.array.basic import expand_dims
        from ..ops.array.joining import concat
        return TensorList(concat([xs.tensor, expand_dims(convert_to_tensor(value), 0)], 0))
    xs.append(value)
    return xs


def list_stack(stack, xs, *args, **kwargs):
    """`tf.stack(xs)` of a list appended to: a TensorList is already stacked."""
    if not isinstance(xs, TensorList):
        return stack(xs, *args, **kwargs)
    axis = args[0] if args else kwargs.get("axis", 0)
    if axis == 0:
        return xs.tensor
    from ..ops.array.basic import transpose
    rank = xs.tensor.shape.rank
    axis = axis % rank
    perm = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
    return transpose(xs.tensor, perm)


def assert_(test, msg=None):
    """`assert test, msg`: tf.debugging.Assert on a tensor (checked at run time), else Python's.
    (Beyond TensorFlow's default on purpose: see converters/asserts.py.)"""
    if _is_symbolic(test):
        from ..ops.debugging.checks import Assert
        text = msg() if callable(msg) else msg
        Assert(_bool_tensor(test), [text if text is not None else "Assertion failed"])
        return None
    if not test:
        text = msg() if callable(msg) else msg
        raise AssertionError(text) if text is not None else AssertionError()
    return None

# --- calls into user code ---------------------------------------------------------------------------


def convert(f):
    """`f` converted when it is user code (cached per function); library callables as they are."""
    from . import api
    return api.converted(f)


__all__ = ["NO_RETURN", "function_return", "Undefined", "get_composite", "forget_composite", "is_undefined",
           "TensorList", "if_stmt", "if_exp", "and_", "or_", "not_", "len_", "range_", "list_append", "list_stack", "assert_", "loop_options",
           "while_stmt", "for_stmt", "convert"]
