"""Complex numbers: Real, Imag and Complex (TensorFlow's op types), `tf.math.real`, `imag` and
`tf.complex`. Conj and ComplexAbs (tf.math.conj, and tf.abs / tf.sign of complex input) are in
elementwise.py: every gradient rule there conjugates, so they sit below this module.

Why a family of its own: these are the ops whose meaning exists only for complex inputs, and
whose gradients follow TensorFlow's convention for complex tensors (the gradient passed back for
y = f(z) is g * conj(f'(z)); see ops/math/elementwise.py's gradient helpers). On real tensors the functions
build no op at all (conj and real return the tensor, as in TensorFlow).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .. import shape_rules as R
from ..operands import as_tensor
from ..array.basic import cast, sum_to, zeros_like
from ..lazy_jax import jnp, lax
from ..registry import Spec, bind, defop
from .elementwise import COMPLEX_DTYPES, REAL_NUMBER_DTYPES, complex_part_rule


def _as_complex(g, like):
    """A real gradient as a complex tensor of `like`'s dtype (TensorFlow: complex(g, 0))."""
    return cast(g, like.dtype)


# .copy(): NumPy's .real/.imag are views into the input, a tensor owns its buffer
Real = defop("Real", inputs=("input",), kernel=lambda x: x.real.copy(), infer=complex_part_rule("Real"),
             grad=lambda op, g: _as_complex(g, op.inputs[0]))
Imag = defop("Imag", inputs=("input",), kernel=lambda x: x.imag.copy(), infer=complex_part_rule("Imag"),
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
    return sum_to(real(g), op.inputs[0]), sum_to(imag(g), op.inputs[1])


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


def _numeric(x, what):
    x = as_tensor(x)
    if x.dtype not in REAL_NUMBER_DTYPES and x.dtype not in COMPLEX_DTYPES:
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype <dtype: '{x.dtype.name}'>")
    return x


def real(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """`tf.math.real`: the real part (float32 for complex64); a real tensor is returned as is."""
    x = _numeric(input, "real")
    return bind(Real, (x,), name=name) if x.dtype in COMPLEX_DTYPES else x


def imag(input, name=None):  # noqa: A002
    """`tf.math.imag`: the imaginary part; zeros for a real tensor."""
    x = _numeric(input, "imag")
    return bind(Imag, (x,), name=name) if x.dtype in COMPLEX_DTYPES else zeros_like(x)


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---

Real.jax = lambda x: jnp.real(x)
Imag.jax = lambda x: jnp.imag(x)
