"""Ops along one axis given as a scalar int32 input: ArgMax/ArgMin (the index of the extreme value)
and Cumsum (the running sum), with their JAX lowerings.

Why apart from reduce.py: these take exactly one axis, checked by `_one_axis` with TensorFlow's
words for each op, where a reduction takes a list of axes; reduce.py re-exports them.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from ..lazy_jax import jnp  # callables that import JAX on first use only

_NO_ATTRS: dict = {}


# ----------------------------------------------------------------------------------------------
# ArgMax / ArgMin: the index of the extreme value along one axis (an int32 input, as in TF)
# ----------------------------------------------------------------------------------------------


def _one_axis(axis, ndim, what="dimension", graph=False):
    a = int(axis)
    if not -ndim <= a < ndim:
        if what == "dimension" and graph:  # the graph's shape function's words
            raise InvalidArgumentError(None, None, f"Dimension ({a}) must be in the range [{-ndim}, {ndim}), where "
                                                   f"{ndim} is the number of dimensions in the input.")
        prefix = "ScanOp: Expected scan axis" if what == "scan" else "Expected dimension"
        raise InvalidArgumentError(None, None, f"{prefix} in the range [{-ndim}, {ndim}), but got {a}")
    return a % ndim


def _nan_never_extreme(x, fill, where_fn=np.where, isnan=np.isnan):
    """x with NaN replaced by `fill` (-inf for ArgMax, inf for ArgMin): TensorFlow's ArgMax/ArgMin
    keep the first index whose value beats the best so far, and NaN beats nothing, so a NaN is
    never the answer unless no value beats the start (an all-NaN row gives index 0)."""
    if x.dtype.kind not in "fV":  # integers, bool (kind "V": ml_dtypes' bfloat16)
        return x
    return where_fn(isnan(x), x.dtype.type(fill), x)


def _arg_kernel(np_fn, fill):
    def kernel(x, dimension, output_type=_dt.int64):
        if np.ndim(dimension) != 0:
            raise InvalidArgumentError(None, None, f"dim must be a scalar, but received tensor of shape: "
                                                   f"[{','.join(map(str, np.shape(dimension)))}]")
        a = _one_axis(dimension, x.ndim)
        if x.shape[a] == 0:
            raise InvalidArgumentError(None, None, f"Reduction axis {a} is empty in shape "
                                                   f"[{','.join(map(str, x.shape))}]")
        return np_fn(_nan_never_extreme(x, fill), axis=a).astype(output_type.np_dtype)
    return kernel


def _arg_infer(op_name, inputs, attrs):
    x, dim = inputs
    R.check_dtype_in(op_name, x.dtype, R.REAL_NUMBERS + (_dt.bool_,), "input")
    out_dtype = attrs.get("output_type", _dt.int64)
    a = static_value(dim)
    if x.shape.rank is None:
        return [Spec(TensorShape(None), out_dtype)]
    if a is None:
        return [Spec(TensorShape([None] * (x.shape.rank - 1)), out_dtype)]
    a = _one_axis(a, x.shape.rank, graph=R.graph_shape_check(inputs))
    return [Spec(TensorShape([d for i, d in enumerate(x.shape) if i != a]), out_dtype)]


def _arg_rule(name):
    # NOTE: the op name is bound here, per op; a module-level "current name" slot that each rule
    # set before calling the shared one was read by the wrong op when threads interleaved.
    def infer(inputs, attrs):
        return _arg_infer(name, inputs, attrs)
    return infer


ArgMax = defop("ArgMax", inputs=("input", "dimension"), kernel=_arg_kernel(np.argmax, -np.inf),
               infer=_arg_rule("ArgMax"), grad=NO_GRADIENT)
ArgMin = defop("ArgMin", inputs=("input", "dimension"), kernel=_arg_kernel(np.argmin, np.inf),
               infer=_arg_rule("ArgMin"), grad=NO_GRADIENT)


def _arg_fn(opdef, allowed_out):
    def fn(input, axis=None, output_type=_dt.int64, name=None):  # noqa: A002 - TensorFlow's name
        x = as_tensor(input)
        if axis is None:
            axis = 0
        if not (isinstance(axis, (int, np.integer)) or
                (hasattr(axis, "dtype") and _dt.as_dtype(axis.dtype).is_integer)):
            raise TypeError("axis must be int or Tensor with integer datatype")
        output_type = _dt.as_dtype(output_type)
        if output_type not in allowed_out:
            raise TypeError(f"Value passed to parameter 'output_type' has DataType {output_type.name} not in "
                            f"list of allowed values: {', '.join(d.name for d in allowed_out)}")
        dim = as_tensor(axis, _dt.int32)
        attrs = {"output_type": output_type}
        return bind(opdef, (x, dim), attrs)
    fn.__name__ = opdef.name.lower()
    fn.__doc__ = (f"`tf.math.{fn.__name__}`: index of the {opdef.name[3:].lower()} along `axis` (0 when None); "
                  f"ties give the first index. No gradient.")
    return fn


argmax = _arg_fn(ArgMax, (_dt.int16, _dt.uint16, _dt.int32, _dt.int64))
argmin = _arg_fn(ArgMin, (_dt.int32, _dt.int64))

# ----------------------------------------------------------------------------------------------
# Cumsum
# ----------------------------------------------------------------------------------------------


def running_scan(x, a, scan, identity, exclusive=False, reverse=False, xp=np):
    """The running `scan` (cumsum, cumprod of the array module `xp`: NumPy for the kernels, jax.numpy
    for the lowerings) of `x` along axis `a`, as Cumsum and Cumprod run it: `exclusive` shifts the
    result one place along the axis with `identity` (0 for a sum, 1 for a product) entering first;
    `reverse` runs from the end."""
    if reverse:
        x = xp.flip(x, a)
    out = scan(x, axis=a, dtype=x.dtype)
    if exclusive:
        first = xp.full_like(xp.take(out, np.array([0]), axis=a), identity)
        out = xp.concatenate([first, xp.take(out, np.arange(x.shape[a] - 1), axis=a)], axis=a)
    return xp.flip(out, a) if reverse else out


def _cumsum_kernel(x, axis, exclusive=False, reverse=False):
    if np.ndim(axis) != 0:
        raise InvalidArgumentError(None, None, f"ScanOp: axis must be a scalar, not "
                                               f"[{','.join(map(str, np.shape(axis)))}]")
    return running_scan(x, _one_axis(axis, x.ndim, "scan"), np.cumsum, 0, exclusive, reverse)


def _cumsum_grad(op, g):
    """The gradient of a running sum is the running sum taken the other way."""
    ex, rev = op.attrs.get("exclusive", False), op.attrs.get("reverse", False)
    return cumsum(g, op.inputs[1], exclusive=ex, reverse=not rev), None


def _cumsum_infer(inputs, attrs):
    x, axis = inputs
    R.check_dtype_in("Cumsum", x.dtype, R.NUMBERS)
    a = static_value(axis)
    if a is not None and x.shape.rank is not None:
        if np.ndim(a) != 0:
            raise InvalidArgumentError(None, None, f"ScanOp: axis must be a scalar, not "
                                                   f"[{','.join(map(str, np.shape(a)))}]")
        if not R.graph_shape_check(inputs):  # a graph's shape function leaves the axis to the kernel
            _one_axis(a, x.shape.rank, "scan")
    return [Spec(x.shape, x.dtype)]


Cumsum = defop("Cumsum", inputs=("x", "axis"), kernel=_cumsum_kernel, infer=_cumsum_infer, grad=_cumsum_grad)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """`tf.math.cumsum`: running sum along `axis`; `exclusive` leaves out the element itself,
    `reverse` runs from the end."""
    x = as_tensor(x)
    axis = as_tensor(axis, _dt.int32)
    attrs = {"exclusive": bool(exclusive), "reverse": bool(reverse)} if (exclusive or reverse) else _NO_ATTRS
    return bind(Cumsum, (x, axis), attrs)


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---

ArgMax.jax = lambda x, dimension, output_type=_dt.int64: jnp.argmax(  # NaN as the kernel treats it
    _nan_never_extreme(x, -np.inf, jnp.where, jnp.isnan),
    axis=_one_axis(dimension, x.ndim)).astype(output_type.np_dtype)
ArgMin.jax = lambda x, dimension, output_type=_dt.int64: jnp.argmin(
    _nan_never_extreme(x, np.inf, jnp.where, jnp.isnan),
    axis=_one_axis(dimension, x.ndim)).astype(output_type.np_dtype)


def _jax_cumsum(x, axis, exclusive=False, reverse=False):
    return running_scan(x, _one_axis(axis, x.ndim, "scan"), jnp.cumsum, 0, exclusive, reverse, xp=jnp)


Cumsum.jax = _jax_cumsum
