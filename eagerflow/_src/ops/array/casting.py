"""Cast (`tf.cast`): changes a tensor's element type, truncating float to int toward zero and
keeping a complex number's real part, as TensorFlow does.

At the bottom of the op families with Shape and sum_to: gradient rules of mixed-precision ops cast
their gradients back, so this module imports no other op module.
"""
from __future__ import annotations

from ...core import dtypes as _dt
from ...core.errors import UnimplementedError
from .. import shape_rules as R
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..operands import as_tensor
from ..registry import Spec, bind, defop


def _cast_grad(op, g):
    src = op.inputs[0].dtype
    if (src.is_floating or src.is_complex) and (g.dtype.is_floating or g.dtype.is_complex):
        return cast(g, src)
    return None


def _cast_kernel(x, DstT):
    if DstT is _dt.string or x.dtype == object:  # TensorFlow registers no such kernel (it has tf.strings)
        source = "string" if x.dtype == object else R.tf_type_word(_dt.as_dtype(x.dtype))
        raise UnimplementedError(None, None, f"Cast {source} to {R.tf_type_word(DstT)} is not supported")
    if x.dtype.kind == "c" and not DstT.is_complex:  # TensorFlow keeps the real part, silently
        x = x.real
    return _dt.cast_array(x, DstT)  # bfloat16 either way as TensorFlow rounds it, not as ml_dtypes does


Cast = defop("Cast", kernel=_cast_kernel, grad=_cast_grad,
             infer=lambda inputs, attrs: [Spec(inputs[0].shape, attrs["DstT"])])


def cast(x, dtype, name=None):
    """`tf.cast`: changes the element type; float -> int truncates toward zero, as in TensorFlow."""
    dtype = _dt.as_dtype(dtype)
    x = as_tensor(x)
    if x.dtype is dtype:
        return x
    return bind(Cast, (x,), {"DstT": dtype}, name=name)


Cast.jax = lambda x, DstT: (jnp.real(x) if x.dtype.kind == "c" and not DstT.is_complex else x).astype(DstT.np_dtype)
