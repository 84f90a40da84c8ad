"""Complex numbers: Conj, ComplexAbs, Real, Imag (TensorFlow's op types) and `tf.math.conj`,
`real`, `imag`, plus the complex branches of `tf.abs` and `tf.sign`.

Why a family of its own: these are the ops whose meaning exists only for complex inputs, and
whose gradients follow TensorFlow's convention for complex tensors (the gradient passed back for
y = f(z) is g * conj(f'(z)); see ops/math/elementwise.py's gradient helpers). On real tensors the functions
build no op at all (conj and real return the tensor, as in TensorFlow).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_tensor
from ..lazy_jax import jnp, lax
from ..registry import Spec, bind, defop

_COMPLEX_TYPES = (_dt.complex64, _dt.complex128)
_COMPLEX = frozenset(_COMPLEX_TYPES)
_REAL_NUMBERS = frozenset(R.REAL_NUMBERS)
_PART_DTYPE = {_dt.complex64: _dt.float32, _dt.complex128: _dt.float64}


def _complex_rule(op_name):
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, _COMPLEX_TYPES)
        return [Spec(x.shape, _PART_DTYPE[x.dtype])]
    return infer


def _as_complex(g, like):
    """A real gradient as a complex tensor of `like`'s dtype (TensorFlow: complex(g, 0))."""
    return _math.cast(g, like.dtype)


def _complex_abs_grad(op, g):
    # TensorFlow: g * z / |z|, 0 where z = 0
    x = op.inputs[0]
    return _math.div_no_nan(_as_complex(g, x) * x, _as_complex(op.outputs[0], x))


# Conj is its own adjoint: the gradient of conj(z) is conj(g) (TensorFlow's rule).
Conj = defop("Conj", kernel=np.conj, infer=R.unary(R.NUMBERS), grad=lambda op, g: conj(g),
             doc="Complex conjugate; built only for complex tensors (conj of a real tensor is the tensor).")
ComplexAbs = defop("ComplexAbs", kernel=np.abs, infer=_complex_rule("ComplexAbs"), grad=_complex_abs_grad,
                   doc="|z| of a complex tensor, as a real tensor (tf.abs of complex input).")
# .copy(): NumPy's .real/.imag are views into the input, a tensor owns its buffer
Real = defop("Real", inputs=("input",), kernel=lambda x: x.real.copy(), infer=_complex_rule("Real"),
             grad=lambda op, g: _as_complex(g, op.inputs[0]))
Imag = defop("Imag", inputs=("input",), kernel=lambda x: x.imag.copy(), infer=_complex_rule("Imag"),
             grad=lambda op, g: _as_complex(g, op.inputs[0]) * as_tensor(1j, op.inputs[0].dtype))


_COMPLEX_OF = {_dt.float32: _dt.complex64, _dt.float64: _dt.complex128}


def _complex_infer(inputs, attrs):
    real_part, imag_part = inputs
    spec = R.binary()(inputs, attrs)[0]
    return [Spec(spec.shape, _COMPLEX_OF[real_part.dtype])]


def _complex_kernel(real_part, imag_part):
    out = np.empty(np.broadcast_shapes(real_part.shape, imag_part.shape),
                   np.complex64 if real_part.dtype == np.float32 else np.complex128)
    out.real, out.imag = real_part, imag_part
    return out


def _complex_grad(op, g):
    """TensorFlow's rule: the real part of the gradient to `real`, its imaginary part to `imag`,
    each summed back over the dimensions its input was broadcast along."""
    return _math.sum_to(real(g), op.inputs[0]), _math.sum_to(imag(g), op.inputs[1])


Complex = defop("Complex", inputs=("real", "imag"), kernel=_complex_kernel, infer=_complex_infer,
                grad=_complex_grad, doc="real + imag * 1j with broadcasting (tf.complex).")
Complex.jax = lambda re, im: lax.complex(*jnp.broadcast_arrays(re, im))


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's name
    """`tf.complex(real, imag)`: both float32 (complex64) or both float64 (complex128)."""
    re, im = as_tensor(real), as_tensor(imag)
    if re.dtype is not im.dtype or re.dtype not in _COMPLEX_OF:
        raise TypeError(f"The `real` and `imag` components have incorrect types: {re.dtype.name} {im.dtype.name}. "
                        f"They must be consistent, and one of [tf.float32, tf.float64]")
    return bind(Complex, (re, im), name=name)


def conj(x, name=None):
    """`tf.math.conj`: the complex conjugate; a real number tensor comes back unchanged (no op),
    as in TensorFlow."""
    if not isinstance(x, Tensor):
        x = as_tensor(x)
    dtype = x.dtype
    if dtype in _REAL_NUMBERS or dtype.is_floating:  # NOTE: first and cheap: every real gradient rule passes here
        return x
    if dtype in _COMPLEX:
        return bind(Conj, (x,), name=name)
    raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")


def _numeric(x, what):
    x = as_tensor(x)
    if x.dtype not in _REAL_NUMBERS and x.dtype not in _COMPLEX:
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype <dtype: '{x.dtype.name}'>")
    return x


def real(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """`tf.math.real`: the real part (float32 for complex64); a real tensor is returned as is."""
    x = _numeric(input, "real")
    return bind(Real, (x,), name=name) if x.dtype in _COMPLEX else x


def imag(input, name=None):  # noqa: A002
    """`tf.math.imag`: the imaginary part; zeros for a real tensor."""
    x = _numeric(input, "imag")
    return bind(Imag, (x,), name=name) if x.dtype in _COMPLEX else _array.zeros_like(x)


def complex_abs(x, name=None):
    """|z| for a complex tensor (what `tf.abs` builds for complex input)."""
    return bind(ComplexAbs, (x,), name=name)


def complex_sign(x):
    """TensorFlow's sign of a complex tensor: z / |z| (0 at 0), composed so it has a gradient."""
    return _math.div_no_nan(x, _math.cast(complex_abs(x), x.dtype))


from ..array import basic as _array  # noqa: E402  (math uses conj; complex grads use math)
from . import elementwise as _math  # noqa: E402

# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---
from ..lazy_jax import jnp  # noqa: E402 - callables that import JAX on first use only

Conj.jax = lambda x: jnp.conj(x)
ComplexAbs.jax = lambda x: jnp.abs(x)
Real.jax = lambda x: jnp.real(x)
Imag.jax = lambda x: jnp.imag(x)
