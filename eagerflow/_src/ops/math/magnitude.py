"""`tf.abs` and `tf.sign` for every number type: real input through the Abs and Sign ops (unary.py),
complex input through ComplexAbs (|z|, a real tensor) and z / |z| built from ops, so each has
TensorFlow's gradient."""
from __future__ import annotations

import numpy as np

from ...core.convert import convert_to_tensor
from ...core.tensor import Tensor
from ..array.basic import cast
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..registry import bind, defop
from .arithmetic import div_no_nan
from .unary import complex_part_rule, real_abs, real_sign


def _complex_abs_grad(op, g):
    # TensorFlow: g * z / |z|, 0 where z = 0
    x = op.inputs[0]
    return div_no_nan(cast(g, x.dtype) * x, cast(op.outputs[0], x.dtype))


ComplexAbs = defop("ComplexAbs", kernel=np.abs, infer=complex_part_rule("ComplexAbs"), grad=_complex_abs_grad,
                   doc="|z| of a complex tensor, as a real tensor (tf.abs of complex input).")


def complex_abs(x, name=None):
    """|z| for a complex tensor (what `tf.abs` builds for complex input)."""
    return bind(ComplexAbs, (x,), name=name)


def complex_sign(x):
    """TensorFlow's sign of a complex tensor: z / |z| (0 at 0), composed so it has a gradient."""
    return div_no_nan(x, cast(complex_abs(x), x.dtype))


def abs(x, name=None):  # noqa: A001 - TensorFlow's name
    """`tf.abs`: |x|; for complex input the magnitude, a real tensor (ComplexAbs), as in TensorFlow."""
    x = x if isinstance(x, Tensor) else convert_to_tensor(x)
    return complex_abs(x, name) if x.dtype.is_complex else real_abs(x, name)


def sign(x, name=None):
    """`tf.sign`; for complex input z / |z| (0 at 0), built from ops so it has TensorFlow's gradient."""
    x = x if isinstance(x, Tensor) else convert_to_tensor(x)
    return complex_sign(x) if x.dtype.is_complex else real_sign(x, name)


ComplexAbs.jax = lambda x: jnp.abs(x)
