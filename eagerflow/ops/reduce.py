"""Reductions over axes: Sum, Mean, Max, Min, Prod, Any, All (TensorFlow op types).

A reduction's axes are an int32 input tensor (as in TensorFlow), so `axis=None` becomes all axes.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from . import shape_rules as R
from .operands import as_int_tensor, as_tensor
from .registry import NO_GRADIENT, Spec, bind, defop, static_value

_KEEP = {"keep_dims": True}
_NO_ATTRS: dict = {}


def _axes_tuple(axes, ndim):
    axes = np.ravel(axes)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise InvalidArgumentError(None, None, f"Invalid reduction dimension ({a} for input with {ndim} "
                                                   f"dimension(s)")
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(set(out)))


def _reduce_infer(out_dtype=None, allowed=None):
    def infer(inputs, attrs):
        x, axes = inputs
        if allowed is not None:
            R.check_dtype_in(infer.op_name, x.dtype, allowed, "input")
        dtype = out_dtype or x.dtype
        keep = attrs.get("keep_dims", False)
        a = static_value(axes)
        if x.shape.rank is None:
            return [Spec(TensorShape(None), dtype)]
        if a is None:
            return [Spec(TensorShape([None] * x.shape.rank) if keep else TensorShape(None), dtype)]
        ax = _axes_tuple(a, x.shape.rank)
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


def _mean(x, axis, keepdims):
    if x.dtype.kind in "iu":  # TensorFlow's integer mean truncates toward zero
        s = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
        n = int(np.prod([x.shape[a] for a in axis])) if axis else 1
        return np.trunc(s / max(n, 1)).astype(x.dtype) if n else s
    return np.mean(x, axis=axis, keepdims=keepdims)


def _keep_shape(op):
    """Output gradient shape with the reduced axes kept as size 1 (for broadcasting back)."""
    x, axes = op.inputs
    from . import array
    out_shape = bind(ReducedShape, (array.shape(x), axes))
    return out_shape


def _sum_grad(op, g):
    from . import array
    x = op.inputs[0]
    if not op.attrs.get("keep_dims", False):
        g = array.reshape(g, _keep_shape(op))
    return array.broadcast_to(g, array.shape(x)), None


def _mean_grad(op, g):
    from . import array, math
    gx, _ = _sum_grad(op, g)
    count = math.cast(array.size(op.inputs[0]), g.dtype) / math.cast(
        math.maximum(array.size(op.outputs[0]), 1), g.dtype)
    return gx / count, None


def _minmax_grad(op, g):
    """Gradient of Max/Min: split evenly between the positions equal to the extreme value."""
    from . import array, math
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
    from . import array
    x, axes = op.inputs
    if not op.attrs.get("keep_dims", False):
        g = array.reshape(g, _keep_shape(op))
    others = bind(ProdOfOthers, (x, axes))
    return array.broadcast_to(g, array.shape(x)) * others, None


def _prod_others_kernel(x, axes):
    """For each element, the product of the other elements of its reduction group; exact with
    zeros (exclusive cumulative products from both ends, no division)."""
    ax = _axes_tuple(axes, x.ndim)
    keep = [i for i in range(x.ndim) if i not in ax]
    perm = keep + list(ax)
    xt = np.transpose(x, perm)
    lead = xt.shape[:len(keep)]
    flat = xt.reshape(lead + (-1,))
    ones = np.ones(lead + (1,), dtype=x.dtype)
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], -1), -1)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(flat, -1)[..., :-1]], -1), -1), -1)
    return np.transpose((left * right).reshape(xt.shape), np.argsort(perm)).astype(x.dtype, copy=False)


ProdOfOthers = defop("ProdOfOthers", inputs=("x", "axes"), kernel=_prod_others_kernel,
                     infer=lambda inputs, attrs: [Spec(inputs[0].shape, inputs[0].dtype)],
                     grad=lambda op, g: (None, None),
                     doc="d Prod / d x: the product of the other reduced elements. Its own gradient is "
                         "not defined yet, so Prod has first-order gradients only.")


def _reduced_shape_kernel(shape, axes):
    out = np.array(shape, dtype=np.int32)
    for a in _axes_tuple(axes, len(shape)):
        out[a] = 1
    return out


ReducedShape = defop("ReducedShape", inputs=("input_shape", "axes"), kernel=_reduced_shape_kernel,
                     infer=lambda inputs, attrs: [Spec(inputs[0].shape, _dt.int32)], grad=NO_GRADIENT,
                     doc="The shape of a keepdims reduction (TensorFlow's reduced_shape helper).")

Sum = defop("Sum", inputs=("input", "reduction_indices"), kernel=_kernel(np.sum),
            infer=_reduce_infer(allowed=R.NUMBERS), grad=_sum_grad)
Mean = defop("Mean", inputs=("input", "reduction_indices"), kernel=_kernel(_mean),
             infer=_reduce_infer(allowed=R.NUMBERS), grad=_mean_grad)
Max = defop("Max", inputs=("input", "reduction_indices"), kernel=_kernel(np.max),
            infer=_reduce_infer(allowed=R.REAL_NUMBERS), grad=_minmax_grad)
Min = defop("Min", inputs=("input", "reduction_indices"), kernel=_kernel(np.min),
            infer=_reduce_infer(allowed=R.REAL_NUMBERS), grad=_minmax_grad)
Prod = defop("Prod", inputs=("input", "reduction_indices"), kernel=_kernel(np.prod),
             infer=_reduce_infer(allowed=R.NUMBERS), grad=_prod_grad)
Any = defop("Any", inputs=("input", "reduction_indices"), kernel=_kernel(np.any),
            infer=_reduce_infer(allowed=(_dt.bool_,)), grad=NO_GRADIENT)
All = defop("All", inputs=("input", "reduction_indices"), kernel=_kernel(np.all),
            infer=_reduce_infer(allowed=(_dt.bool_,)), grad=NO_GRADIENT)


def _all_axes(x):
    r = x.shape.rank
    if r is not None:
        return as_int_tensor(list(range(r)))
    from . import array
    return bind(_RangeOfRank, (array.rank(x),))


_RangeOfRank = defop("RangeOfRank", inputs=("rank",), grad=NO_GRADIENT,
                     infer=lambda inputs, attrs: [Spec(TensorShape([None]), _dt.int32)],
                     kernel=lambda r: np.arange(int(r), dtype=np.int32),
                     doc="All axes of a tensor of unknown rank (TensorFlow: Range(0, Rank(x))).")


def _reducer(opdef):
    def fn(input_tensor, axis=None, keepdims=False, name=None):
        x = as_tensor(input_tensor)
        axes = _all_axes(x) if axis is None else as_int_tensor(axis)
        return bind(opdef, (x, axes), _KEEP if keepdims else _NO_ATTRS)
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
