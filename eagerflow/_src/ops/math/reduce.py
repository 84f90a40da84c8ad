"""Reductions over axes: Sum, Mean, Max, Min, Prod, Any, All (TensorFlow op types). ArgMax, ArgMin
and Cumsum, which take one axis, are in along_one_axis.py; the axes' normalisation and the ops of the
reductions' gradients (ReducedShape, ProdOfOthers) in reduction_axes.py (both re-exported here).

A reduction's axes are an int32 input tensor (as in TensorFlow), so `axis=None` becomes all axes.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import EagerTensor
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from ..lazy_jax import jnp, lax  # callables that import JAX on first use only
from .along_one_axis import ArgMax, ArgMin, Cumsum, argmax, argmin, cumsum  # noqa: F401
from .reduction_axes import ProdOfOthers, ReducedShape, _axes_tuple, _graph_axes  # noqa: F401

_KEEP = {"keep_dims": True}
_NO_ATTRS: dict = {}


def _reduce_infer(out_dtype=None, allowed=None):
    def infer(inputs, attrs):
        x, axes = inputs
        if allowed == (_dt.bool_,):  # All and Any: an input of fixed dtype, not an attribute
            R.check_input_dtype(infer.op_name, inputs, 0, _dt.bool_)
        elif allowed is not None:
            R.check_dtype_in(infer.op_name, x.dtype, allowed, "input")
        dtype = out_dtype or x.dtype
        keep = attrs.get("keep_dims", False)
        a = static_value(axes)
        if x.shape.rank is None:
            return [Spec(TensorShape(None), dtype)]
        graph = R.graph_shape_check(inputs)
        if graph and axes.shape.rank is not None and axes.shape.rank > 1:
            raise InvalidArgumentError(None, None, f"Shape must be at most rank 1 but is rank {axes.shape.rank}")
        if a is None:
            return [Spec(TensorShape([None] * x.shape.rank) if keep else TensorShape(None), dtype)]
        ax = _graph_axes(a, x.shape.rank) if graph else _axes_tuple(a, x.shape.rank)
        dims = [(1 if keep else -1) if i in ax else d for i, d in enumerate(x.shape)]
        return [Spec(TensorShape([d for d in dims if d != -1]), dtype)]
    infer.op_name = "?"
    return infer


def _kernel(np_fn, dtype_from_input=True):
    def kernel(x, axes, keep_dims=False):
        ax = _axes_tuple(axes, x.ndim)
        out = np_fn(x, axis=ax, keepdims=keep_dims)
        return np.asarray(out, dtype=x.dtype) if dtype_from_input else np.asarray(out)
    return kernel


def _extreme(np_fn, identity):
    """Max/Min; over an empty axis TensorFlow returns the identity (-inf, or the dtype's limit)
    where NumPy raises."""
    def fn(x, axis, keepdims):
        if x.size == 0:
            info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
            init = {"max": -np.inf if x.dtype.kind == "f" else info.min,
                    "min": np.inf if x.dtype.kind == "f" else info.max}[identity]
            return np_fn(x, axis=axis, keepdims=keepdims, initial=init)
        return np_fn(x, axis=axis, keepdims=keepdims)
    return fn


def _mean(x, axis, keepdims):
    n = 1
    for a in axis:
        n *= x.shape[a]
    if x.dtype.kind in "iu":
        return _integer_mean(x, axis, keepdims, n)
    if x.dtype == np.float16:
        # Summed and divided in float32: the count alone passes float16's largest value (65504) at
        # 65,505 elements, and a sum of many halves overflows long before the mean does.
        total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.float32)
        return (total / np.float32(n)).astype(np.float16)
    # sum / n rather than np.mean: an empty mean is NaN, without NumPy's "Mean of empty slice" warning
    return np.sum(x, axis=axis, keepdims=keepdims) / x.dtype.type(n)


def _integer_mean(x, axis, keepdims, n):
    """TensorFlow's integer mean: the sum in 64 bits (wrapping as int64/uint64 do), then an exact
    integer division rounding toward zero (-7 / 2 is -3). No float in between: int64 values past
    2**53 stay exact. An empty mean is 0."""
    wide = np.uint64 if x.dtype.kind == "u" else np.int64
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=wide)
    if n == 0:
        return np.zeros_like(total).astype(x.dtype)
    count = wide(n)
    quotient = total // count  # floors; a negative sum with a remainder is one too low
    if wide is np.int64:
        quotient = quotient + ((total % count != 0) & (total < 0))
    return np.asarray(quotient).astype(x.dtype)


def _keep_shape(op):
    """Output gradient shape with the reduced axes kept as size 1 (for broadcasting back)."""
    x, axes = op.inputs
    from ..array import basic as array
    out_shape = bind(ReducedShape, (array.shape(x), axes))
    return out_shape


def _sum_grad(op, g):
    from ..array import basic as array
    x = op.inputs[0]
    if not op.attrs.get("keep_dims", False):
        g = array.reshape(g, _keep_shape(op))
    return array.broadcast_to(g, array.shape(x)), None


def _mean_grad(op, g):
    from ..array import basic as array
    from . import elementwise as math
    gx, _ = _sum_grad(op, g)
    wide = _dt.float32 if g.dtype is _dt.float16 else g.dtype  # a float16 count overflows past 65504
    count = math.cast(array.size(op.inputs[0]), wide) / math.cast(
        math.maximum(array.size(op.outputs[0]), 1), wide)
    if wide is not g.dtype:
        return math.cast(math.cast(gx, wide) / count, g.dtype), None
    return gx / count, None


def _minmax_grad(op, g):
    """Gradient of Max/Min: split evenly between the positions equal to the extreme value."""
    from ..array import basic as array
    from . import elementwise as math
    x, y = op.inputs[0], op.outputs[0]
    if not op.attrs.get("keep_dims", False):
        shp = _keep_shape(op)
        y = array.reshape(y, shp)
        g = array.reshape(g, shp)
    mask = math.cast(math.equal(x, y), g.dtype)
    count = reduce_sum(mask, op.inputs[1], keepdims=True)
    return mask * g / count, None


def _prod_grad(op, g):
    """Gradient of Prod, correct with zeros: product of all other elements (via cumprod both ways)."""
    from ..array import basic as array
    x, axes = op.inputs
    if not op.attrs.get("keep_dims", False):
        g = array.reshape(g, _keep_shape(op))
    others = bind(ProdOfOthers, (x, axes))
    from .elementwise import conj  # complex: TensorFlow's g * conj(derivative); a no-op for real inputs
    return array.broadcast_to(g, array.shape(x)) * conj(others), None


def _sum(x, axis, keepdims):
    if x.dtype == np.float16:  # accumulated in float32, as TensorFlow does (rounded once, at the end)
        return np.sum(x, axis=axis, keepdims=keepdims, dtype=np.float32)
    return np.sum(x, axis=axis, keepdims=keepdims)


Sum = defop("Sum", inputs=("input", "reduction_indices"), kernel=_kernel(_sum),
            infer=_reduce_infer(allowed=R.NUMBERS), grad=_sum_grad)
Mean = defop("Mean", inputs=("input", "reduction_indices"), kernel=_kernel(_mean),
             infer=_reduce_infer(allowed=R.NUMBERS), grad=_mean_grad)
Max = defop("Max", inputs=("input", "reduction_indices"), kernel=_kernel(_extreme(np.max, "max")),
            infer=_reduce_infer(allowed=R.REAL_NUMBERS), grad=_minmax_grad)
Min = defop("Min", inputs=("input", "reduction_indices"), kernel=_kernel(_extreme(np.min, "min")),
            infer=_reduce_infer(allowed=R.REAL_NUMBERS), grad=_minmax_grad)
Prod = defop("Prod", inputs=("input", "reduction_indices"), kernel=_kernel(np.prod),
             infer=_reduce_infer(allowed=R.NUMBERS), grad=_prod_grad)
Any = defop("Any", inputs=("input", "reduction_indices"), kernel=_kernel(np.any),
            infer=_reduce_infer(allowed=(_dt.bool_,)), grad=NO_GRADIENT)
All = defop("All", inputs=("input", "reduction_indices"), kernel=_kernel(np.all),
            infer=_reduce_infer(allowed=(_dt.bool_,)), grad=NO_GRADIENT)


_EAGER_AXES: dict = {}  # Python axis spec -> int32 eager tensor (immutable, so shared)


def _const_axes(spec):
    """The int32 tensor for a Python int or tuple of ints. Eager tensors are cached: converting a
    list costs more than a small reduction."""
    if state.graph is not None:
        return as_tensor(np.array(spec, np.int32))
    t = _EAGER_AXES.get(spec)
    if t is None:
        t = _EAGER_AXES[spec] = as_tensor(np.array(spec, np.int32))
    return t


def _all_axes(x):
    r = x._value.ndim if type(x) is EagerTensor else x.shape.rank  # no TensorShape on the eager path
    if r is not None:
        return _const_axes(tuple(range(r)))
    from ..array import basic as array
    return bind(_RangeOfRank, (array.rank(x),))


_RangeOfRank = defop("RangeOfRank", inputs=("rank",), grad=NO_GRADIENT,
                     infer=lambda inputs, attrs: [Spec(TensorShape([None]), _dt.int32)],
                     kernel=lambda r: np.arange(int(r), dtype=np.int32),
                     doc="All axes of a tensor of unknown rank (TensorFlow: Range(0, Rank(x))).")


def _axis_tensor(axis):
    """An axis argument as an integer tensor (TensorFlow: attr `Tidx` is int32 or int64)."""
    if type(axis) is int:
        return _const_axes(axis)
    if isinstance(axis, (list, tuple)) and all(type(a) is int for a in axis):
        return _const_axes(tuple(axis))  # also keeps an empty list int32 (it would infer float32)
    if isinstance(axis, float) or (isinstance(axis, (list, tuple)) and any(isinstance(a, float) for a in axis)):
        # TensorFlow converts a Python axis to int32 (a float is refused as it converts), while
        # tracing it first infers the float's dtype and refuses that as the op's input
        if state.graph is None:
            raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32")
        raise TypeError("Value passed to parameter 'reduction_indices' has DataType float32 not in list of allowed "
                        "values: int32, int64")
    axes = as_tensor(axis, _dt.int32)
    if not axes.dtype.is_integer or axes.dtype.is_unsigned or axes.dtype.size < 4:
        if state.graph is not None:
            raise TypeError(f"Value passed to parameter 'reduction_indices' has DataType {axes.dtype.name} not in "
                            f"list of allowed values: int32, int64")
        raise InvalidArgumentError(None, None, f"Value for attr 'Tidx' of {axes.dtype.name} is not in the list "
                                               f"of allowed values: int32, int64")
    return axes


# type -> fn(opname, the tf.reduce_* function, value, axis, keepdims): reductions of composites
# (ops/ragged/reduce.py registers RaggedTensor), so this module never imports them.
COMPOSITE_REDUCERS: dict = {}


def _reducer(opdef):
    def fn(input_tensor, axis=None, keepdims=False, name=None):
        if type(input_tensor) in COMPOSITE_REDUCERS:
            return COMPOSITE_REDUCERS[type(input_tensor)](opdef.name, fn, input_tensor, axis, keepdims)
        x = as_tensor(input_tensor)
        axes = _all_axes(x) if axis is None else _axis_tensor(axis)
        attrs = _KEEP if keepdims else _NO_ATTRS
        return bind(opdef, (x, axes), attrs, name)
    fn.__name__ = "reduce_" + opdef.name.lower()
    fn.__doc__ = f"`tf.{fn.__name__}` (TF op `{opdef.name}`): reduces over `axis` (all axes when None)."
    return fn


reduce_sum = _reducer(Sum)
reduce_mean = _reducer(Mean)
reduce_max = _reducer(Max)
reduce_min = _reducer(Min)
reduce_prod = _reducer(Prod)
reduce_any = _reducer(Any)
reduce_all = _reducer(All)


# ----------------------------------------------------------------------------------------------
# Reductions composed from ops (their gradients come from the ops they are made of)
# ----------------------------------------------------------------------------------------------


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) without overflow: the (finite) maximum is taken out first and held
    constant for the gradient, as TensorFlow does."""
    from ..array import basic as array
    from . import elementwise as math
    x = as_tensor(input_tensor)
    raw_max = reduce_max(x, axis, keepdims=True)
    shift = array.stop_gradient(array.where(math.is_finite(raw_max), raw_max, array.zeros_like(raw_max)))
    out = math.log(reduce_sum(math.exp(x - shift), axis, keepdims=keepdims))
    if not keepdims:
        shift = array.reshape(shift, array.shape(out))
    return out + shift


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Mean squared deviation from the mean (floating point inputs only, as in TensorFlow)."""
    from . import elementwise as math
    x = as_tensor(input_tensor)
    if x.dtype.is_integer:
        raise TypeError(f"Input must be either real or complex. Received integer type {x.dtype}.")
    if x.dtype.is_complex:  # TensorFlow: the mean of |x - mean|^2, a real tensor
        deviations = math.square(math.abs(x - reduce_mean(x, axis, keepdims=True)))
    else:
        deviations = math.squared_difference(x, reduce_mean(x, axis, keepdims=True))
    return reduce_mean(deviations, axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Square root of `reduce_variance`."""
    from . import elementwise as math
    return math.sqrt(reduce_variance(input_tensor, axis, keepdims=keepdims))


def count_nonzero(input, axis=None, keepdims=None, dtype=_dt.int64, name=None):  # noqa: A002
    """Number of elements that are not zero (not "" for strings) along `axis`."""
    from . import elementwise as math
    x = as_tensor(input)
    zero = as_tensor(b"" if x.dtype is _dt.string else np.zeros((), x.dtype.np_dtype))
    counted = reduce_sum(math.cast(math.not_equal(x, zero), _dt.int64), axis, keepdims=bool(keepdims))
    return math.cast(counted, dtype)

# --- JAX lowerings (jit_compile=True, codegen/xla.py); axes are known at trace time ---


def _jax_reduce(jnp_fn, keep_dtype=True):
    def lower(x, axes, keep_dims=False):
        ax = _axes_tuple(np.asarray(axes), x.ndim)
        if jnp_fn == "mean" and x.dtype.kind in "iu":  # TensorFlow: the integer sum divided, truncated
            n = max(int(np.prod([x.shape[a] for a in ax])), 1)
            wide = np.uint64 if x.dtype.kind == "u" else np.int64
            out = lax.div(jnp.sum(x, axis=ax, keepdims=keep_dims, dtype=wide), np.asarray(n, wide))  # toward zero
        elif x.dtype == np.float16 and jnp_fn in ("sum", "mean"):
            out = getattr(jnp, jnp_fn)(x, axis=ax, keepdims=keep_dims, dtype=np.float32)
        else:
            out = getattr(jnp, jnp_fn)(x, axis=ax, keepdims=keep_dims)
        return out.astype(x.dtype) if keep_dtype else out
    return lower


Sum.jax = _jax_reduce("sum")
Mean.jax = _jax_reduce("mean")
Prod.jax = _jax_reduce("prod")
Max.jax = _jax_reduce("max")  # NOTE: over an empty axis XLA gives the identity, as TensorFlow does
Min.jax = _jax_reduce("min")
Any.jax = _jax_reduce("any", keep_dtype=False)
All.jax = _jax_reduce("all", keep_dtype=False)
_RangeOfRank.jax = lambda r: np.arange(int(r), dtype=np.int32)


