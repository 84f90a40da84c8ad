"""Run-time checks: `tf.Assert` and `tf.debugging.assert_*` (and, imported from numerics.py,
`check_numerics`).

Every value check is an `Assert` op (stateful: no pass may drop it) whose condition is a boolean
scalar computed with ordinary ops (`reduce_all(greater(x, y))`). Eagerly the op runs at once and
its kernel raises `InvalidArgumentError`; inside a traced function the same code records the op and
the check happens at every call. Eagerly the kernel writes the message TensorFlow writes eagerly
(NumPy text of the values, "Condition x > y did not hold.", ...).

Traced (the tensors symbolic), the asserts instead write what TensorFlow's graph Assert kernel
writes: "assertion failed: [piece] [piece] ...", each data piece summarized as TensorFlow's kernel
does, the tensors named ("x (a:0) = "), the op placed as TensorFlow places it
("assert_less/Assert/AssertGuard/Assert"; without the guard when all data are int32 or strings).

The message layout is a static attr `form`:
- "data": tf.Assert's "Expected '<condition>' to be true. Summarized data: ..." over the data tensors;
- "compare": the binary asserts (inputs x, y and the elementwise test): the failing indices and
  values when x and y have the same shape, then the first `summarize` elements of each;
- "elementwise": assert_positive & co.: "Condition x > 0 did not hold element-wise:" and x.

The texts themselves are built in ops/debugging/assert_messages.py. Checks TensorFlow makes on
static shapes and dtypes (assert_rank, assert_shapes, assert_type, ...) live in
ops/debugging/static_checks.py.
"""
from __future__ import annotations

import collections.abc as _abc

import numpy as np

from ...core import dtypes as _dt
from ...core.convert import convert_to_tensor, is_tensor_like
from ...core.errors import InvalidArgumentError
from ...core.context import state
from ...core.scopes import name_scope
from ...core.tensor import EagerTensor, Tensor
from ..math import elementwise as _math
from ..math.reduce import reduce_all
from ..registry import NO_GRADIENT, bind, defop
from .numerics import assert_all_finite, check_numerics, CheckNumerics  # noqa: F401 - the tf.debugging names

# ----------------------------------------------------------------------------------------------
# The Assert op and its messages
# ----------------------------------------------------------------------------------------------


class AssertionFailed(InvalidArgumentError):
    """What the Assert kernel raises; `_run_assert` re-raises it as a plain InvalidArgumentError
    without the " [Op:Assert]" tag that eager `bind` appends, since TensorFlow's eager assertion
    messages carry none."""


def _assert_kernel(condition, *data, summarize=3, form="data", **details):
    if np.size(condition) != 1:
        raise InvalidArgumentError(None, None, f"In[0] should be a scalar: {list(np.shape(condition))}")
    if not np.asarray(condition).reshape(())[()]:
        from .assert_messages import FORMS  # the texts load on the first failure, not with eagerflow
        raise AssertionFailed(None, None, FORMS[form](condition, data, summarize, **details))
    return ()


def _assert_infer(inputs, attrs):
    shape = inputs[0].shape
    if shape.rank is not None and shape.is_fully_defined() and shape.num_elements() != 1:
        raise InvalidArgumentError(None, None, f"In[0] should be a scalar: {shape}")
    return []


AssertOp = defop("Assert", inputs=("condition", "data"), kernel=_assert_kernel, infer=_assert_infer,
                grad=NO_GRADIENT, multi_output=True, stateful=True,
                doc="Raises InvalidArgumentError (message built from the data) when the condition is false.")


def _run_assert(inputs, attrs, name):
    try:
        bind(AssertOp, inputs, attrs, name)
    except AssertionFailed as err:
        raise InvalidArgumentError(None, None, err.message.rsplit(" [Op:Assert]", 1)[0]) from None
    return None


def Assert(condition, data, summarize=None, name=None):
    """`tf.debugging.Assert` / `tf.Assert`: raises InvalidArgumentError with the data summarized
    when `condition` is false. Returns None (the op stays in a traced graph by being stateful)."""
    if is_tensor_like(data) or not isinstance(data, _abc.Sequence) or isinstance(data, (str, bytes)):
        raise TypeError("values must be a sequence.")
    text = None if is_tensor_like(condition) else str(condition)
    cond = convert_to_tensor(condition)
    shape = cond.shape
    if shape.rank is not None and shape.is_fully_defined() and shape.num_elements() != 1:
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all()")
    tensors = [convert_to_tensor(d) for d in data]
    from .assert_messages import summarize_limit
    attrs = {"summarize": summarize_limit(summarize) if summarize is None else int(summarize), "form": "data",
             "condition_text": text}
    _run_assert([cond, *tensors], attrs, name)
    return None


# ----------------------------------------------------------------------------------------------
# Comparisons: x OP y for every element
# ----------------------------------------------------------------------------------------------


def _constant_values(*tensors):
    """The NumPy values of graph tensors that are all constants (TensorFlow checks those while
    tracing); None when any is computed or the code runs eagerly."""
    values = []
    for t in tensors:
        op = getattr(t, "_op", None)
        if op is None or op.type != "Const" or op.inputs:
            return None
        values.append(np.asarray(op.attrs["value"]))
    return values


_NUMPY_TESTS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
                ">=": np.greater_equal}


def _static_failure(lines, tensors, values):
    """A check on constants that fails: TensorFlow raises while tracing, naming the tensors."""
    for label, t, v in zip(("x", "y"), tensors, values):
        lines += [f"{label} ({t.name}) = ", str(v)]
    raise InvalidArgumentError(None, None, "\n".join(lines))


def _traced(*values) -> bool:
    return state.graph is not None or any(isinstance(v, Tensor) and not isinstance(v, EagerTensor)
                                          for v in values)


def _graph_assert(condition, pieces, summarize):
    """The traced Assert, named as TensorFlow names it: a guard (a cond) around it unless every
    data tensor is int32 or a string, as TensorFlow's tf.Assert decides."""
    tensors = [p for p in pieces if isinstance(p, Tensor)]
    guarded = any(t.dtype not in (_dt.int32, _dt.string) for t in tensors)
    attrs = {"summarize": summarize, "form": "graph",
             "pieces": tuple(None if isinstance(p, Tensor) else str(p) for p in pieces)}
    with name_scope("Assert"):
        if guarded:
            with name_scope("AssertGuard"):
                bind(AssertOp, [condition, *tensors], attrs, "Assert")
        else:
            bind(AssertOp, [condition, *tensors], attrs, "Assert")


def _binary_assert(op_fn, symbol, x, y, message, summarize, name, public, data=None):
    if _traced(x, y):
        with name_scope(name or public):
            x = convert_to_tensor(x, name="x")
            y = convert_to_tensor(y, name="y")
            return _checked_binary(op_fn, symbol, x, y, message, summarize, data)
    return _checked_binary(op_fn, symbol, convert_to_tensor(x), convert_to_tensor(y), message, summarize, data)


def _checked_binary(op_fn, symbol, x, y, message, summarize, data):
    # Each side converted on its own (no dtype borrowed from the other), as TensorFlow does: so
    # assert_equal(float_tensor, 1) reports the dtype mismatch.
    test = op_fn(x, y)
    static = _constant_values(x, y)
    if static is not None and not np.all(_NUMPY_TESTS[symbol](*static)):
        _static_failure(([] if message is None else [str(message)]) +
                        [f"Condition x {symbol} y did not hold element-wise:"], (x, y), static)
    if isinstance(test, EagerTensor):
        attrs = {"summarize": summarize, "form": "compare", "symbol": symbol, "message": message}
        _run_assert([reduce_all(test), x, y, test], attrs, None)
        return None
    if data is None:
        data = ([] if message is None else [str(message)]) + [
            f"Condition x {symbol} y did not hold element-wise:", f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
    _graph_assert(reduce_all(test), data, summarize)
    return None


def _binary(op_fn, symbol, public):
    def fn(x, y, message=None, summarize=None, name=None):
        return _binary_assert(op_fn, symbol, x, y, message, summarize, name, public)
    fn.__name__ = public
    fn.__qualname__ = public
    fn.__doc__ = (f"`tf.debugging.{public}`: raises InvalidArgumentError unless `x {symbol} y` holds for "
                  f"every element (with broadcasting). Returns None.")
    return fn


assert_equal = _binary(_math.equal, "==", "assert_equal")
assert_none_equal = _binary(_math.not_equal, "!=", "assert_none_equal")
assert_less = _binary(_math.less, "<", "assert_less")
assert_less_equal = _binary(_math.less_equal, "<=", "assert_less_equal")
assert_greater = _binary(_math.greater, ">", "assert_greater")
assert_greater_equal = _binary(_math.greater_equal, ">=", "assert_greater_equal")


def message_prefix(message) -> str:
    """How TensorFlow puts a user's `message` before its own text in assertion errors."""
    return f"{message}.  " if message else ""


def _sign_assert(op_fn, header, fused=False, public="", compare=None):
    def fn(x, message=None, summarize=None, name=None):
        if not _traced(x):
            return _sign_check(convert_to_tensor(x), message, summarize, name, False)
        with name_scope(name or public):  # TensorFlow's graph form: the binary assert against 0, in this scope
            return _sign_check(convert_to_tensor(x, name="x"), message, summarize, name, True)

    def _sign_check(x, message, summarize, name, traced):
        zero = _zero_like(x)
        static = _constant_values(x)
        if static is not None and not np.all(_NUMPY_TESTS[header.split()[2]](static[0], 0)):
            glued = [message_prefix(message), header + f"x ({x.name}) = ", str(static[0])]
            if fused:
                raise InvalidArgumentError(None, None, "\n".join(glued))
            _static_failure([message_prefix(message), header], (x,), static)
        if traced:
            described = f"x ({x.name}) = "
            data = ([message_prefix(message), header + described, x] if fused
                    else [message_prefix(message), header, described, x])
            return compare(x, zero, summarize=summarize, data=data)
        attrs = {"summarize": summarize, "form": "elementwise", "prefix": message_prefix(message),
                 "header": header, "fused": fused}
        _run_assert([reduce_all(op_fn(x, zero)), x], attrs, name)
        return None

    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = f"`tf.debugging.{public}`: raises InvalidArgumentError unless {header[10:-25]} everywhere."
    return fn


def _zero_like(x):
    try:
        return convert_to_tensor(0, dtype=x.dtype)
    except (TypeError, ValueError):
        raise TypeError(f"Cannot convert 0 to EagerTensor of dtype {x.dtype.name}") from None


def _inner(op_fn, symbol, public, swap=False):
    """The binary assert a sign assert runs when traced (TensorFlow: assert_less(0, x) for x > 0)."""
    def compare(x, zero, summarize, data):
        a, b = (zero, x) if swap else (x, zero)
        return _binary_assert(op_fn, symbol, a, b, None, summarize, None, public, data)
    return compare


assert_positive = _sign_assert(_math.greater, "Condition x > 0 did not hold element-wise:",
                               public="assert_positive", compare=_inner(_math.less, "<", "assert_less", True))
assert_negative = _sign_assert(_math.less, "Condition x < 0 did not hold element-wise:",
                               public="assert_negative", compare=_inner(_math.less, "<", "assert_less"))
assert_non_negative = _sign_assert(_math.greater_equal, "Condition x >= 0 did not hold element-wise:",
                                   public="assert_non_negative",
                                   compare=_inner(_math.less_equal, "<=", "assert_less_equal", True))
assert_non_positive = _sign_assert(_math.less_equal, "Condition x <= 0 did not hold element-wise:",
                                   fused=True, public="assert_non_positive",
                                   compare=_inner(_math.less_equal, "<=", "assert_less_equal"))


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """`tf.debugging.assert_near`: |x - y| <= atol + rtol * |y| everywhere (default tolerances:
    10 * machine epsilon of the dtype)."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    eps = float(np.finfo(x.dtype.np_dtype).eps) if x.dtype.is_floating else 0.0
    rtol = convert_to_tensor(10 * eps if rtol is None else rtol, dtype=x.dtype)
    atol = convert_to_tensor(10 * eps if atol is None else atol, dtype=x.dtype)
    diff = _math.abs(_math.subtract(x, y))
    test = _math.less_equal(diff, _math.add(atol, _math.multiply(rtol, _math.abs(y))))
    described = f"shape={x.shape} dtype={x.dtype.name}"
    data = ["" if message is None else message,
            f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
            f"x ({described}) = ", x, f"y (shape={y.shape} dtype={y.dtype.name}) = ", y]
    return Assert(reduce_all(test), data, summarize=summarize, name=name)


# --- Under jit_compile=True (codegen/xla.py) Assert is a no-op, as in TensorFlow's XLA bridge ---
AssertOp.jax = lambda condition, *data, **attrs: []
