"""Binary arithmetic (AddV2, Sub, Mul, RealDiv, DivNoNan, FloorDiv, FloorMod, Pow, Maximum, Minimum,
SquaredDifference), AddN and ClipByValue, with their public functions (`tf.add`, `x / y`, `tf.add_n`,
`tf.clip_by_value`, ...). Cast and sum_to are in ops/array/ (casting.py, broadcasting.py), matrix
products in ops/linalg/matmul.py.

Each op is one `defop` block: TF op type, NumPy kernel, shape/dtype rule, gradient written with
ops (so it traces and nests). The public functions convert arguments and call `bind`.
"""
from __future__ import annotations

import functools

import numpy as np

from ...core import dtypes as _dt
from ...core.convert import convert_to_tensor
from ...core.errors import InvalidArgumentError, NotFoundError
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..array import basic as _array
from ..array.basic import cast, sum_to
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..operands import as_tensor, binary_operands, convert_beside, same_dtype_operands
from ..registry import NO_GRADIENT, Spec, bind, defop
from .comparison import greater, greater_equal, less, less_equal, logical_not, logical_or, not_equal
from .op_wrappers import binary_fn
from .unary import conj, floor, log, negative

# Element types each op accepts (TensorFlow's op definitions, minus bfloat16 and quantized types).
_SIGNED_INTS = (_dt.int8, _dt.int16, _dt.int32, _dt.int64)
_POW_TYPES = R.FLOAT_COMPLEX + _SIGNED_INTS
_SQDIFF_TYPES = R.FLOAT_COMPLEX + (_dt.int32, _dt.int64)
# Complex inputs: gradients follow TensorFlow's convention, g * conj(f'(z)) (see unary.py).

def _broadcastable(x, y):
    """TensorFlow checks the shapes before the values: an incompatible pair fails here (NumPy's
    ValueError, which `bind` reports with the rule's "Incompatible shapes") before a value check."""
    if np.shape(x) != np.shape(y):
        np.broadcast_shapes(np.shape(x), np.shape(y))


def _nonzero_divisor(x, y):
    _broadcastable(x, y)
    if y.dtype.kind in "iu" and not np.all(y):
        raise InvalidArgumentError(None, None, "Integer division by zero")


def _floordiv_kernel(x, y):
    if x.dtype.kind in "iu":
        _nonzero_divisor(x, y)
        return np.floor_divide(x, y)
    return np.floor(np.true_divide(x, y))


def _floormod_kernel(x, y):
    if x.dtype.kind in "iu":
        _nonzero_divisor(x, y)
        return np.mod(x, y)
    # TensorFlow's float floormod is fmod moved into the divisor's sign: a zero keeps x's sign
    # (-2.0 mod 2.0 is -0.0), where NumPy's np.mod gives the divisor's (0.0).
    r = np.fmod(x, y)
    return np.where((r != 0) & ((r < 0) != (y < 0)), r + y, r)


def _pow_kernel(x, y):
    if x.dtype.kind in "iu":
        _broadcastable(x, y)
    if x.dtype.kind in "iu" and np.any(y < 0):
        raise InvalidArgumentError(None, None, "Integers to negative integer powers are not allowed")
    return np.power(x, y)


def _squared_difference_kernel(x, y):
    d = x - y
    return d * np.conj(d) if d.dtype.kind == "c" else np.square(d)  # TensorFlow: |x - y|^2 for complex


def _pow_grad(op, g):
    x, y = op.inputs
    z = op.outputs[0]
    gx = g * conj(y * pow(x, y - as_tensor(1, y.dtype)))
    # log(x) where it is defined: x > 0 for reals, x != 0 for complex numbers
    defined = (not_equal if x.dtype.is_complex else greater)(x, as_tensor(0, x.dtype))
    log_x = _array.where(defined, log(_array.where(defined, x, _array.ones_like(x))), _array.zeros_like(x))
    gy = g * conj(z * log_x)
    return sum_to(gx, x), sum_to(gy, y)


def _minmax_grad(mask_fn):
    def grad(op, g):
        x, y = op.inputs
        mask = mask_fn(x, y)
        zeros = _array.zeros_like(g)
        return sum_to(_array.where(mask, g, zeros), x), sum_to(_array.where(mask, zeros, g), y)
    return grad


AddV2 = defop("AddV2", inputs=("x", "y"), kernel=np.add, infer=R.binary(R.NUMBERS + (_dt.string,)),
              grad=lambda op, g: (sum_to(g, op.inputs[0]), sum_to(g, op.inputs[1])))
Sub = defop("Sub", inputs=("x", "y"), kernel=np.subtract, infer=R.binary(R.NUMBERS),
            grad=lambda op, g: (sum_to(g, op.inputs[0]), sum_to(negative(g), op.inputs[1])))
Mul = defop("Mul", inputs=("x", "y"), kernel=np.multiply, infer=R.binary(R.NUMBERS),
            grad=lambda op, g: (sum_to(g * conj(op.inputs[1]), op.inputs[0]),
                                sum_to(conj(op.inputs[0]) * g, op.inputs[1])))
RealDiv = defop(
    "RealDiv", inputs=("x", "y"), kernel=np.true_divide, infer=R.binary(R.FLOAT_COMPLEX),
    grad=lambda op, g: (sum_to(g / conj(op.inputs[1]), op.inputs[0]),
                        sum_to(negative(g) * conj(op.inputs[0] / (op.inputs[1] * op.inputs[1])), op.inputs[1])))


def _div_no_nan_kernel(x, y):
    """x / y, and 0 wherever y == 0 (whatever x is there). Most calls (a metric's total / count)
    divide by no zero: one division then, not the five array ops of the general case."""
    zero = np.equal(y, 0)
    if not zero.any():
        return np.asarray(np.true_divide(x, y)).astype(x.dtype, copy=False)
    return np.where(zero, np.zeros_like(x * y), np.true_divide(x, np.where(zero, 1, y))).astype(x.dtype)


DivNoNan = defop(
    "DivNoNan", inputs=("x", "y"), infer=R.binary(R.FLOAT_COMPLEX), kernel=_div_no_nan_kernel,
    grad=lambda op, g: (sum_to(div_no_nan(g, conj(op.inputs[1])), op.inputs[0]),
                        sum_to(g * conj(div_no_nan(div_no_nan(negative(op.inputs[0]), op.inputs[1]), op.inputs[1])),
                               op.inputs[1])))
# Integer-valued steps: TensorFlow gives no gradient (None), which NO_GRADIENT reproduces.
_floordiv_rule = R.binary(R.REAL_NUMBERS)
_floordiv_rule.op_name = "FloorDiv"


def _floordiv_infer(inputs, attrs):
    """FloorDiv's op definition lists the complex types, but TensorFlow registers no complex kernel
    for it: the call fails looking for one (NotFoundError, in eager and graph mode alike here)."""
    dtype = inputs[0].dtype
    if dtype.is_complex and inputs[1].dtype is dtype:
        raise NotFoundError(None, None, f"Could not find device for node: {{{{node FloorDiv}}}} = "
                                        f"FloorDiv[T=DT_{dtype.name.upper()}]")
    return _floordiv_rule(inputs, attrs)


FloorDiv = defop("FloorDiv", inputs=("x", "y"), kernel=_floordiv_kernel, infer=_floordiv_infer, grad=NO_GRADIENT)
FloorMod = defop(
    "FloorMod", inputs=("x", "y"), kernel=_floormod_kernel, infer=R.binary(R.REAL_NUMBERS),
    grad=lambda op, g: (sum_to(g, op.inputs[0]),
                        sum_to(negative(g) * floor(op.inputs[0] / op.inputs[1]), op.inputs[1])))
Pow = defop("Pow", inputs=("x", "y"), kernel=_pow_kernel, infer=R.binary(_POW_TYPES), grad=_pow_grad)
Maximum = defop("Maximum", inputs=("x", "y"), kernel=np.maximum, infer=R.binary(R.REAL_NUMBERS),
                grad=_minmax_grad(lambda x, y: greater_equal(x, y)))
Minimum = defop("Minimum", inputs=("x", "y"), kernel=np.minimum, infer=R.binary(R.REAL_NUMBERS),
                grad=_minmax_grad(lambda x, y: less_equal(x, y)))
SquaredDifference = defop(
    "SquaredDifference", inputs=("x", "y"), infer=R.binary(_SQDIFF_TYPES),
    kernel=_squared_difference_kernel,
    grad=lambda op, g: (sum_to(g * as_tensor(2.0, g.dtype) * (op.inputs[0] - op.inputs[1]), op.inputs[0]),
                        sum_to(g * as_tensor(-2.0, g.dtype) * (op.inputs[0] - op.inputs[1]), op.inputs[1])))

def _add_n_infer(inputs, attrs):
    dtype = R.check_same_dtype("AddN", inputs)
    R.check_dtype_in("AddN", dtype, R.NUMBERS + (_dt.variant,), "inputs")  # variant: gradients of lists
    shape = inputs[0].shape
    for i, t in enumerate(inputs[1:], start=1):
        if not shape.is_compatible_with(t.shape):
            raise InvalidArgumentError(None, None,
                                       f"Inputs to operation AddN must have the same size and shape.  "
                                       f"Input 0: {R.fmt_dims(shape)} != input {i}: {R.fmt_dims(t.shape)}")
        shape = shape.merge_with(t.shape)
    return [Spec(shape, dtype)]


def _add_n_kernel(*xs):
    shape = xs[0].shape
    if any(x.shape != shape for x in xs):
        raise ValueError("shapes differ")
    out = xs[0].copy() if isinstance(xs[0], np.ndarray) else xs[0]
    for x in xs[1:]:
        out = out + x
    if xs[0].dtype == _dt.VARIANT_KEY:  # variants (TensorLists) add through their payload's `+`
        return out
    return np.asarray(out, dtype=xs[0].dtype)


AddN = defop("AddN", inputs=("inputs",), kernel=_add_n_kernel, infer=_add_n_infer,
             grad=lambda op, g: tuple(g for _ in op.inputs))


def _clip_grad(op, g):
    t, lo, hi = op.inputs
    zeros = _array.zeros_like(g)
    below, above = less(t, lo), greater(t, hi)
    inside = logical_not(logical_or(below, above))
    return (sum_to(_array.where(inside, g, zeros), t), sum_to(_array.where(below, g, zeros), lo),
            sum_to(_array.where(above, g, zeros), hi))


def _clip_infer(inputs, attrs):
    dtype = R.check_same_dtype("ClipByValue", inputs)
    R.check_dtype_in("Minimum", dtype, R.REAL_NUMBERS)  # TensorFlow clips with Minimum, then Maximum
    shape = R.broadcast_shape(R.broadcast_shape(inputs[0].shape, inputs[1].shape), inputs[2].shape)
    return [Spec(shape, dtype)]


ClipByValue = defop("ClipByValue", inputs=("t", "clip_value_min", "clip_value_max"),
                    kernel=lambda t, lo, hi: np.maximum(np.minimum(t, hi), lo).astype(t.dtype, copy=False),
                    infer=_clip_infer, grad=_clip_grad)


def add(x, y, name=None):
    """`tf.add` / `x + y`. A Python float beside an int tensor on the right raises AddV2's
    InvalidArgumentError; on the left (`1.5 + t`) it raises TypeError, as in TensorFlow."""
    if type(x) is type(y) and isinstance(x, Tensor) and x._dtype is y._dtype:
        return bind(AddV2, (x, y), name=name or "Add")  # the common fast path
    x, y = binary_operands(x, y, "AddV2", loose_right=True)
    return bind(AddV2, (x, y), name=name or "Add")


subtract = binary_fn(Sub)
multiply = binary_fn(Mul)
maximum = binary_fn(Maximum)
minimum = binary_fn(Minimum)
squared_difference = binary_fn(SquaredDifference)
floormod = binary_fn(FloorMod)
mod = floormod
_DIV_NO_NAN_ACCEPTS = ("tf.uint8, tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, "
                       "tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128")


def div_no_nan(x, y, name=None):
    """`tf.math.divide_no_nan`: x / y, 0 where y == 0. The DivNoNan op takes float and complex
    types only; integers are first cast as `x / y` casts them (int8/16 -> float32, else float64),
    as TensorFlow's wrapper does. A Python value beside a tensor converts as TensorFlow's wrapper
    converts it (a tensor y fixes x's dtype; otherwise x's dtype is only a hint for y)."""
    if not isinstance(x, Tensor):
        x = convert_beside(x, y, True) if isinstance(y, Tensor) else convert_to_tensor(x)
    if not isinstance(y, Tensor):
        y = convert_beside(y, x, False)
    dtype = x.dtype
    if dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {dtype!r} != {y.dtype!r}.")
    if dtype.is_integer:
        target = _dt.float32 if dtype.size <= 2 else _dt.float64
        x, y = cast(x, target), cast(y, target)
    elif not (dtype.is_floating or dtype.is_complex):
        raise TypeError(f"Invalid dtype {dtype!r} in tf.math.divide_no_nan. Expected one of {{{_DIV_NO_NAN_ACCEPTS}}}.")
    return bind(DivNoNan, (x, y), name=name)


floordiv = binary_fn(FloorDiv)
pow = binary_fn(Pow)  # noqa: A001


def truediv(x, y, name=None):
    """`x / y`: integers are first cast to a float type (int8/16 -> float32, else float64).
    Mixed dtypes are a TypeError here, not the kernel's InvalidArgumentError (TensorFlow's wording)."""
    if not isinstance(x, Tensor):
        x = convert_beside(x, y, True)
    if not isinstance(y, Tensor):
        y = convert_beside(y, x, False)
    if x.dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}.")
    if x.dtype.is_integer:
        target = _dt.float32 if x.dtype.size <= 2 else _dt.float64
        x, y = cast(x, target), cast(y, target)
    elif not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"Invalid dtype {x.dtype!r} in __truediv__. Expected one of {{tf.uint8, tf.int8, tf.uint16, "
                        f"tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, tf.float16, tf.float32, "
                        f"tf.float64, tf.complex64, tf.complex128}}.")
    return bind(RealDiv, (x, y), name=name or "truediv")


def divide(x, y, name=None):
    return truediv(x, y)


def add_n(inputs, name=None):
    """`tf.add_n`: sums same-shape, same-dtype tensors (no broadcasting)."""
    inputs = same_dtype_operands(list(inputs), "AddN")
    if not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the same "
                         "dtype and shape.")
    if len(inputs) == 1:
        return inputs[0]
    return bind(AddN, tuple(inputs))


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """`tf.clip_by_value`: bounds are converted to `t`'s dtype (TypeError when they cannot be)."""
    t = as_tensor(t)
    lo = clip_value_min if isinstance(clip_value_min, Tensor) else convert_beside(clip_value_min, t, True)
    hi = clip_value_max if isinstance(clip_value_max, Tensor) else convert_beside(clip_value_max, t, True)
    R.check_same_dtype("ClipByValue", (t, lo, hi))
    return bind(ClipByValue, (t, lo, hi))


def scalar_mul(scalar, x, name=None):
    return multiply(scalar, x)


# JAX lowerings (jit_compile=True, codegen/xla.py): each op's kernel as jax.numpy, same arguments
for _op, _fn in ((AddV2, "add"), (Sub, "subtract"), (Mul, "multiply"), (Maximum, "maximum"), (Minimum, "minimum")):
    _op.jax = getattr(jnp, _fn)  # the same NumPy function, in jax.numpy
# (kind "V": ml_dtypes' bfloat16, a float that NumPy does not know as one)
RealDiv.jax = lambda x, y: jnp.true_divide(x, y) if x.dtype.kind in "fcV" else jnp.floor_divide(x, y)
DivNoNan.jax = lambda x, y: jnp.where(y == 0, jnp.zeros_like(x), x / jnp.where(y == 0, jnp.ones_like(y), y))
FloorDiv.jax = lambda x, y: jnp.floor_divide(x, y) if x.dtype.kind in "iu" else jnp.floor(x / y)
FloorMod.jax = lambda x, y: jnp.mod(x, y) if x.dtype.kind in "iu" else (  # zeros keep x's sign, as the kernel's
    lambda r: jnp.where((r != 0) & ((r < 0) != (y < 0)), r + y, r))(jnp.fmod(x, y))
Pow.jax = lambda x, y: jnp.power(x, y)
SquaredDifference.jax = lambda x, y: jnp.square(x - y) if x.dtype.kind != "c" else (x - y) * jnp.conj(x - y)
AddN.jax = lambda *xs: functools.reduce(jnp.add, xs)
ClipByValue.jax = lambda t, lo, hi: jnp.maximum(jnp.minimum(t, hi), lo).astype(t.dtype)
