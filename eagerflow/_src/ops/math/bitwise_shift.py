"""`tf.bitwise.left_shift` / `right_shift` (LeftShift, RightShift): integer shifts with TensorFlow's
rule for shift amounts outside [0, bits - 1], which C++ leaves undefined: the amount is clamped
into that range (so `2 << 40` in int32 is 0 and `-8 >> 33` is -1). Left shifts wrap as unsigned
arithmetic does; right shifts of signed values are arithmetic (the sign is kept). No gradient
(integers only)."""
from __future__ import annotations

import numpy as np

from .. import shape_rules as R
from ..lazy_jax import jnp
from .op_wrappers import binary_fn
from ..registry import NO_GRADIENT, defop


def _clamped(x, y):
    return np.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(x.dtype, copy=False)


def _left_shift(x, y):
    return np.left_shift(x, _clamped(x, y))


def _right_shift(x, y):
    return np.right_shift(x, _clamped(x, y))


LeftShift = defop("LeftShift", inputs=("x", "y"), kernel=_left_shift, infer=R.binary(R.INTEGERS), grad=NO_GRADIENT,
                  doc="x << y elementwise, y clamped to [0, bits - 1].")
RightShift = defop("RightShift", inputs=("x", "y"), kernel=_right_shift, infer=R.binary(R.INTEGERS),
                   grad=NO_GRADIENT, doc="x >> y elementwise (arithmetic for signed x), y clamped to [0, bits - 1].")
LeftShift.jax = lambda x, y: jnp.left_shift(x, jnp.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(x.dtype))
RightShift.jax = lambda x, y: jnp.right_shift(x, jnp.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(x.dtype))

left_shift = binary_fn(LeftShift)
right_shift = binary_fn(RightShift)
