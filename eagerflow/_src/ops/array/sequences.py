"""Generated sequences: Range (tf.range), LinSpace (tf.linspace) and OneHot (tf.one_hot).

NOTE: this module defines `range` (tf.range), which hides Python's `range` everywhere in it.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.convert import convert_to_tensor, is_tensor_like
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..math import elementwise as _math
from ..math import reduce as _reduce
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from . import basic as _array

_NO_ATTRS: dict = {}


# --- Range / LinSpace ------------------------------------------------------------------------------

def _fmt_num(v):
    return f"{v:g}" if isinstance(v, float) else str(v)


def _range_len(start, limit, delta):
    if delta == 0:
        R.refuse(f"Requires delta != 0: {_fmt_num(delta)}", "Requires delta != 0")
    if delta > 0 and start > limit:
        raise InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: "
                                               f"{_fmt_num(start)}/{_fmt_num(limit)}")
    if delta < 0 and start < limit:
        raise InvalidArgumentError(None, None, f"Requires start >= limit when delta < 0: "
                                               f"{_fmt_num(start)}/{_fmt_num(limit)}")
    if isinstance(start, int):
        return -((start - limit) // delta) if delta > 0 else -((limit - start) // -delta)
    return int(np.ceil(abs((limit - start) / delta)))


def _range_kernel(start, limit, delta):
    s, l, d = (v.item() for v in (start, limit, delta))
    n = _range_len(s, l, d)
    try:
        return (start + np.arange(n, dtype=start.dtype) * delta).astype(start.dtype)
    except (MemoryError, ValueError) as exc:  # the shape and dtype for TensorFlow's OOM message, in every mode
        exc.shape, exc.dtype = [n], start.dtype
        raise


def _range_infer(inputs, attrs):
    for name, t in zip(("start", "limit", "delta"), inputs):
        rank, size = t.shape.rank, t.shape.num_elements()
        if R.building_graph() and rank not in (None, 0):
            R.refuse("", f"Shape must be rank 0 but is rank {rank}")
        if size not in (None, 1):  # eagerly a one-element vector passes (TensorFlow's legacy scalars)
            R.refuse(f"{name} must be a scalar, not shape {R.fmt_dims(t.shape)}")
    values = [static_value(t) for t in inputs]
    dtype = inputs[0].dtype
    if any(v is None for v in values):
        return [Spec(TensorShape([None]), dtype)]
    return [Spec(TensorShape([_range_len(*(np.asarray(v).item() for v in values))]), dtype)]


Range = defop("Range", inputs=("start", "limit", "delta"), kernel=_range_kernel, infer=_range_infer,
              grad=NO_GRADIENT, doc="start, start + delta, ... up to (not including) limit.")

_RANGE_ORDER = (_dt.int32, _dt.int64, _dt.float32, _dt.float64)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 - TensorFlow's name
    """`tf.range`: Python ints give int32, any float gives float32, tensors keep their dtype; the widest
    of the three arguments wins (int32 < int64 < float32 < float64) unless `dtype` is given."""
    if limit is None:
        start, limit = 0, start
    dtype = None if dtype is None else _dt.as_dtype(dtype)
    args = [convert_to_tensor(v, dtype=dtype) if dtype is not None and not is_tensor_like(v) else as_tensor(v)
            for v in (start, limit, delta)]
    if dtype is None:
        dtype = max((a.dtype for a in args), key=lambda d: _RANGE_ORDER.index(d) if d in _RANGE_ORDER else -1)
    args = [a if a.dtype is dtype else _math.cast(a, dtype) for a in args]
    return bind(Range, tuple(args))


def _negative_num(n):
    """TensorFlow's tf.linspace counts its points with a Range from 1 to num, which refuses a
    negative num in its own words, eagerly and while tracing."""
    return InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: 1/{n}")


def _linspace_kernel(start, stop, num):
    n = int(num)
    if n < 0:
        raise _negative_num(n)
    return np.linspace(start, stop, n).astype(start.dtype)


def _linspace_infer(inputs, attrs):
    start, stop, num = inputs
    R.check_same_dtype("LinSpace", (start, stop))
    n = static_value(num)
    if n is not None and int(n) < 0:
        raise _negative_num(int(n))
    return [Spec(TensorShape([None if n is None else int(n)]), start.dtype)]


def _linspace_grad(op, g):
    """out[i] = start * (1 - w[i]) + stop * w[i] with w[i] = i / (num - 1)."""
    start, _, num = op.inputs
    n = _math.cast(num, _dt.int32)
    w = _math.cast(range(0, n), g.dtype) / _math.cast(_math.maximum(n - 1, 1), g.dtype)
    return _reduce.reduce_sum(g * (1 - w)), _reduce.reduce_sum(g * w), None


LinSpace = defop("LinSpace", inputs=("start", "stop", "num"), kernel=_linspace_kernel, infer=_linspace_infer,
                 grad=_linspace_grad, doc="num evenly spaced values from start to stop (both included).")


def linspace(start, stop, num, name=None, axis=0):
    """`tf.linspace` (TensorFlow 2's N-d version): integer inputs give float64. Scalar ends run the
    LinSpace op; tensor ends are computed as start + (stop - start) * i / (num - 1) along `axis`."""
    a, b = as_tensor(start), as_tensor(stop)
    if a.dtype.is_integer or b.dtype.is_integer:
        a, b = _math.cast(a, _dt.float64), _math.cast(b, _dt.float64)
    elif a.dtype is not b.dtype:
        b = _math.cast(b, a.dtype)
    n = as_tensor(num)
    if not n.dtype.is_integer:
        shown = static_value(n) if state.graph is None else n if is_tensor_like(num) else \
            f'Tensor("linspace/num:0", shape={tuple(n.shape.as_list())}, dtype={n.dtype.name})'  # TF's node name
        raise TypeError(f"Argument `tensor` (name: num) must be of type integer. Received `tensor` = {shown} of "
                        f"dtype: <dtype: '{n.dtype.name}'>")
    if a.shape.rank == 0 and b.shape.rank == 0:
        return bind(LinSpace, (a, b, n))
    # N-d ends: broadcast them, then put the new axis at `axis`.
    a, b = a + _array.zeros_like(b), b + _array.zeros_like(a)
    rank_out = a.shape.rank + 1
    ax = axis % rank_out
    w = _math.cast(range(0, n), a.dtype) / _math.cast(_math.maximum(n - 1, 1), a.dtype)
    w = _array.reshape(w, [-1] + [1] * (rank_out - 1 - ax))
    return _array.expand_dims(a, ax) + _array.expand_dims(b - a, ax) * w


# --- OneHot --------------------------------------------------------------------------------------

def _one_hot_kernel(indices, depth, on_value, off_value, axis=-1):
    d = int(depth)
    if d < 0:
        raise InvalidArgumentError(None, None, f"depth must be non-negative, got: {d}")
    out_rank = indices.ndim + 1
    if not (axis == -1 or 0 <= axis < out_rank):
        raise InvalidArgumentError(None, None, f"Expected axis to be -1 or between [0, {out_rank}).  But received: "
                                               f"{axis}")
    hot = np.expand_dims(indices, -1) == np.arange(d)
    out = np.where(hot, on_value, off_value).astype(on_value.dtype)
    return out if axis == -1 else np.moveaxis(out, -1, axis).copy()


def _one_hot_infer(inputs, attrs):
    indices, depth, on, off = inputs
    R.check_same_dtype("OneHot", (on, off))
    R.check_dtype_in("OneHot", indices.dtype, (_dt.uint8, _dt.int8, _dt.int32, _dt.int64), "indices", attr="TI")
    axis = attrs.get("axis", -1)
    d = static_value(depth)
    if d is not None and int(d) < 0:
        R.refuse(f"depth must be non-negative, got: {int(d)}",
                 f"Dimension size, given by scalar input 1, must be non-negative but is {int(d)}")
    if indices.shape.rank is None:
        return [Spec(TensorShape(None), on.dtype)]
    out_rank = indices.shape.rank + 1
    if not (axis == -1 or 0 <= axis < out_rank):
        raise InvalidArgumentError(None, None, f"Expected axis to be -1 or between [0, {out_rank}).  But received: "
                                               f"{axis}")
    dims = list(indices.shape)
    dims.insert(out_rank - 1 if axis == -1 else axis, None if d is None else int(d))
    return [Spec(TensorShape(dims), on.dtype)]


OneHot = defop("OneHot", inputs=("indices", "depth", "on_value", "off_value"), kernel=_one_hot_kernel,
               infer=_one_hot_infer, grad=NO_GRADIENT,
               doc="on_value where the index matches the position along the new axis, off_value elsewhere.")


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    ix = as_tensor(indices)
    on = None if on_value is None else as_tensor(on_value, dtype)
    off = None if off_value is None else as_tensor(off_value, dtype)
    if on is not None and off is not None and on.dtype is not off.dtype:
        raise TypeError(f"dtype {on.dtype} of on_value does not match dtype {off.dtype} of off_value")
    if dtype is not None:
        dtype = _dt.as_dtype(dtype)
    else:
        dtype = on.dtype if on is not None else off.dtype if off is not None else _dt.float32
    for t, what in ((on, "on_value"), (off, "off_value")):
        if t is not None and t.dtype is not dtype:
            raise TypeError(f"dtype {t.dtype} of {what} does not match dtype parameter {dtype}")
    on = convert_to_tensor(1, dtype=dtype) if on is None else on
    off = convert_to_tensor(0, dtype=dtype) if off is None else off
    attrs = _NO_ATTRS if axis is None or axis == -1 else {"axis": int(axis)}
    return bind(OneHot, (ix, as_int_tensor(depth), on, off), attrs)


# --- JAX lowerings (jit_compile=True, codegen/xla.py): lengths are known at trace time under XLA ---


def _jax_one_hot(indices, depth, on_value, off_value, axis=-1):
    hot = jnp.expand_dims(indices, -1) == jnp.arange(int(depth))
    out = jnp.where(hot, on_value, off_value).astype(on_value.dtype)
    return out if axis == -1 else jnp.moveaxis(out, -1, axis)


Range.jax = lambda start, limit, delta: jnp.asarray(_range_kernel(np.asarray(start), np.asarray(limit),
                                                                  np.asarray(delta)))
OneHot.jax = _jax_one_hot
LinSpace.jax = lambda start, stop, num: jnp.linspace(start, stop, int(num)).astype(start.dtype)
