"""Unary elementwise math (Neg, real Abs and Sign, Exp ... Erf, rounding, IsNan/IsInf/IsFinite) and Conj,
the complex conjugate every gradient rule here and in arithmetic.py applies to its derivative factor.

Each op is one `defop` block: TF op type, NumPy kernel, shape/dtype rule, gradient written with
ops (so it traces and nests).
"""
from __future__ import annotations

import math as _pymath

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import NotFoundError
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..array import basic as _array
from ..lazy_jax import jnp, jsp, lax  # callables that import JAX on first use only
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .comparison import equal
from .op_wrappers import unary_fn

# Element types each op accepts (TensorFlow's op definitions, minus bfloat16 and quantized types).
_SIGNED_INTS = (_dt.int8, _dt.int16, _dt.int32, _dt.int64)
_REAL_SIGNED = R.FLOATS + _SIGNED_INTS
_BOOL = _dt.bool_

# ----------------------------------------------------------------------------------------------
# Gradient helpers
# ----------------------------------------------------------------------------------------------
# Complex inputs: gradients follow TensorFlow's convention, g * conj(f'(z)) (the conjugate
# Wirtinger derivative, what gradient descent on a real loss needs), so each rule conjugates its
# derivative factor. conj of a real tensor is the tensor itself: real gradients build no extra op.


def _zero_where_gradient_is_zero(g, product):
    """`product` (the incoming gradient times a derivative that may be infinite or NaN at an edge point,
    as 1/sqrt(x) at 0) with 0 wherever `g` is 0, as TensorFlow's Sqrt, Rsqrt and Reciprocal gradient
    kernels give it: a branch cut off by `tf.where`, or multiplied by 0, then passes no NaN back."""
    zeros = _array.zeros_like(product)
    return _array.where(equal(g, zeros), zeros, product)


def _sigmoid_kernel(x):
    one = x.dtype.type(1)  # NOTE: a typed 1, not the literal: NumPy 1.x promotes `1 / 0-d float32` to float64
    if x.dtype.kind == "c":  # 1 / (1 + e^-x) holds for complex x; |x| and `x >= 0` have no meaning there
        return one / (one + np.exp(-x))
    if x.ndim == 0:
        return _sigmoid_kernel(x.reshape(1)).reshape(())
    # e^min(x, 0) / (1 + e^-|x|): for x >= 0 that is 1 / (1 + e^-x), for x < 0 it is e^x / (1 + e^x),
    # the two overflow-free branches, value for value, with no select: np.where over a random sign
    # pattern cost three times the arithmetic (4M float32: 33 ms -> 9 ms, in tiles 3 ms).
    num = np.minimum(x, x.dtype.type(0))
    np.exp(num, out=num)
    den = np.abs(x)
    np.negative(den, out=den)
    np.exp(den, out=den)
    den += one
    num /= den
    return num


def _load_erf():
    """SciPy's erf (exact and vectorised) when SciPy is installed, else math.erf per element.
    Looked up on the first Erf, never at `import eagerflow`: SciPy takes longer to import than
    all of eagerflow."""
    try:
        from scipy.special import erf
        return erf
    except ImportError:
        vectorised = np.vectorize(_pymath.erf, otypes=[np.float64])
        return lambda x: vectorised(x).astype(x.dtype) if x.size else x.copy()


_erf_kernel = None


def _erf(x):
    global _erf_kernel
    if x.dtype == np.float32 or x.dtype == np.float16:  # as accurate as TensorFlow's, 50x math.erf's speed
        from .erf_float32 import erf_float32  # (not at import: most programs never call erf)
        return erf_float32(x)
    if _erf_kernel is None:
        _erf_kernel = _load_erf()
    return np.asarray(_erf_kernel(x)).astype(x.dtype, copy=False)


def _const(value, like):
    return as_tensor(value, like.dtype)


Neg = defop("Neg", kernel=np.negative, infer=R.unary(R.SIGNED_NUMBERS), grad=lambda op, g: negative(g))
Abs = defop("Abs", kernel=np.abs, infer=R.unary(_REAL_SIGNED), grad=lambda op, g: g * real_sign(op.inputs[0]))
def _sign_kernel(x):
    if x.dtype.kind != "c":
        return np.sign(x)
    # TensorFlow: x / |x| (0 at 0). NumPy 1.x's sign of a complex is the sign of its real part.
    r = np.abs(x)
    return np.where(r == 0, x.dtype.type(0), x / np.where(r == 0, r.dtype.type(1), r)).astype(x.dtype)


def _round_infer(inputs, attrs):
    """Round's op definition lists complex types, but TensorFlow has no complex kernel for it: the
    call fails looking for one (NotFoundError), rather than rounding each part."""
    x = inputs[0]
    if x.dtype.is_complex:
        raise NotFoundError(None, None, f"Could not find device for node: {{{{node Round}}}} = "
                                        f"Round[T=DT_{x.dtype.name.upper()}]")
    return _round_rule(inputs, attrs)


_round_rule = R.unary(R.SIGNED_NUMBERS)
_round_rule.op_name = "Round"

Sign = defop("Sign", kernel=_sign_kernel, infer=R.unary(R.SIGNED_NUMBERS),
             grad=lambda op, g: _array.zeros_like(op.inputs[0]))
Exp = defop("Exp", kernel=np.exp, infer=R.unary(R.FLOAT_COMPLEX), grad=lambda op, g: g * conj(op.outputs[0]))
Expm1 = defop("Expm1", kernel=np.expm1, infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: g * conj(exp(op.inputs[0])))
Log = defop("Log", kernel=np.log, infer=R.unary(R.FLOAT_COMPLEX), grad=lambda op, g: g / conj(op.inputs[0]))
Log1p = defop("Log1p", kernel=np.log1p, infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: g / conj(_const(1, g) + op.inputs[0]))
Sqrt = defop("Sqrt", kernel=np.sqrt, infer=R.unary(R.FLOAT_COMPLEX),
             grad=lambda op, g: _zero_where_gradient_is_zero(g, _const(0.5, g) * g / conj(op.outputs[0])))
# NOTE: np.reciprocal, not `1 / x`: under NumPy 1.x a Python 1 over a 0-d float32 array gives float64.
Rsqrt = defop("Rsqrt", kernel=lambda x: np.reciprocal(np.sqrt(x)), infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: _zero_where_gradient_is_zero(
                  g, _const(-0.5, g) * (g * conj(op.outputs[0])) * conj(op.outputs[0] * op.outputs[0])))
Square = defop("Square", kernel=np.square, infer=R.unary(R.NUMBERS),
               grad=lambda op, g: g * _const(2, g) * conj(op.inputs[0]))
Reciprocal = defop("Reciprocal", kernel=np.reciprocal, infer=R.unary(R.FLOAT_COMPLEX),
                   grad=lambda op, g: _zero_where_gradient_is_zero(
                       g, negative(g) * conj(op.outputs[0] * op.outputs[0])))
Sin = defop("Sin", kernel=np.sin, infer=R.unary(R.FLOAT_COMPLEX), grad=lambda op, g: g * conj(cos(op.inputs[0])))
Cos = defop("Cos", kernel=np.cos, infer=R.unary(R.FLOAT_COMPLEX),
            grad=lambda op, g: negative(g) * conj(sin(op.inputs[0])))
Tan = defop("Tan", kernel=np.tan, infer=R.unary(R.FLOAT_COMPLEX),
            grad=lambda op, g: g / conj(square(cos(op.inputs[0]))))
Tanh = defop("Tanh", kernel=np.tanh, infer=R.unary(R.FLOAT_COMPLEX),
             grad=lambda op, g: g * conj(_const(1, g) - op.outputs[0] * op.outputs[0]))
Sigmoid = defop("Sigmoid", kernel=_sigmoid_kernel, infer=R.unary(R.FLOAT_COMPLEX),
                grad=lambda op, g: g * conj(op.outputs[0] * (_const(1, g) - op.outputs[0])))
Erf = defop("Erf", kernel=_erf, infer=R.unary(R.FLOATS),
            grad=lambda op, g: g * _const(2 / _pymath.sqrt(_pymath.pi), g) * exp(negative(square(op.inputs[0]))))
# Kernels that may run tile by tile (codegen/tiling.py): the NumPy passes each makes.
Sigmoid.elementwise, Erf.elementwise, Rsqrt.elementwise = 7, 27, 2
# TensorFlow gives no gradient through rounding (the tape answers None): NO_GRADIENT does the same.
Round = defop("Round", kernel=np.round, infer=_round_infer, grad=NO_GRADIENT)
Floor = defop("Floor", kernel=np.floor, infer=R.unary(R.FLOATS), grad=NO_GRADIENT)
Ceil = defop("Ceil", kernel=np.ceil, infer=R.unary(R.FLOATS), grad=NO_GRADIENT)
IsNan = defop("IsNan", kernel=np.isnan, infer=R.unary(R.FLOATS, _BOOL), grad=NO_GRADIENT)
IsInf = defop("IsInf", kernel=np.isinf, infer=R.unary(R.FLOATS, _BOOL), grad=NO_GRADIENT)
IsFinite = defop("IsFinite", kernel=np.isfinite, infer=R.unary(R.FLOATS, _BOOL), grad=NO_GRADIENT)

negative = unary_fn(Neg)
real_abs = unary_fn(Abs)
real_sign = unary_fn(Sign)


# --- Conj: what gradient rules conjugate with (ComplexAbs is in magnitude.py; Real, Imag and Complex
# in complex.py, above this module) -------------------------------------------------------------

_COMPLEX_TYPES = (_dt.complex64, _dt.complex128)
COMPLEX_DTYPES = frozenset(_COMPLEX_TYPES)
REAL_NUMBER_DTYPES = frozenset(R.REAL_NUMBERS)
_PART_DTYPE = {_dt.complex64: _dt.float32, _dt.complex128: _dt.float64}


def complex_part_rule(op_name):
    """The rule of an op from a complex tensor to a real one of its part dtype (ComplexAbs, Real, Imag)."""
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, _COMPLEX_TYPES)
        return [Spec(x.shape, _PART_DTYPE[x.dtype])]
    return infer


# Conj is its own adjoint: the gradient of conj(z) is conj(g) (TensorFlow's rule).
Conj = defop("Conj", kernel=np.conj, infer=R.unary(R.NUMBERS), grad=lambda op, g: conj(g),
             doc="Complex conjugate; built only for complex tensors (conj of a real tensor is the tensor).")


def conj(x, name=None):
    """`tf.math.conj`: the complex conjugate; a real number tensor comes back unchanged (no op),
    as in TensorFlow."""
    if not isinstance(x, Tensor):
        x = as_tensor(x)
    dtype = x.dtype
    if dtype in REAL_NUMBER_DTYPES or dtype.is_floating:  # NOTE: first and cheap: every real gradient rule passes here
        return x
    if dtype in COMPLEX_DTYPES:
        return bind(Conj, (x,), name=name)
    raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")


exp = unary_fn(Exp)
expm1 = unary_fn(Expm1)
log = unary_fn(Log)
log1p = unary_fn(Log1p)
sqrt = unary_fn(Sqrt)
rsqrt = unary_fn(Rsqrt)
square = unary_fn(Square)
reciprocal = unary_fn(Reciprocal)
sin = unary_fn(Sin)
cos = unary_fn(Cos)
tan = unary_fn(Tan)
tanh = unary_fn(Tanh)
sigmoid = unary_fn(Sigmoid)
erf = unary_fn(Erf)
round = unary_fn(Round)  # noqa: A001
floor = unary_fn(Floor)
ceil = unary_fn(Ceil)
is_nan = unary_fn(IsNan)
is_inf = unary_fn(IsInf)
is_finite = unary_fn(IsFinite)


# JAX lowerings (jit_compile=True, codegen/xla.py): each op's kernel as jax.numpy, same arguments
for _op, _fn in ((Neg, "negative"), (Abs, "abs"), (Exp, "exp"), (Expm1, "expm1"),
                 (Log, "log"), (Log1p, "log1p"), (Sqrt, "sqrt"), (Square, "square"), (Sin, "sin"), (Cos, "cos"),
                 (Tan, "tan"), (Tanh, "tanh"), (Round, "round"), (Floor, "floor"), (Ceil, "ceil"),
                 (IsNan, "isnan"), (IsInf, "isinf"), (IsFinite, "isfinite")):
    _op.jax = getattr(jnp, _fn)  # the same NumPy function, in jax.numpy
# (kind "V": ml_dtypes' bfloat16, a float that NumPy does not know as one)
Reciprocal.jax = lambda x: jnp.reciprocal(x) if x.dtype.kind in "fcV" else jnp.floor_divide(1, x)
Sign.jax = lambda x: jnp.sign(x)
Rsqrt.jax = lambda x: lax.rsqrt(x)
Sigmoid.jax = lambda x: jsp.expit(x)
Erf.jax = lambda x: jsp.erf(x)
Conj.jax = lambda x: jnp.conj(x)
