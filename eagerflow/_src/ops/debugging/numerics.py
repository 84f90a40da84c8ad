"""CheckNumerics (`tf.debugging.check_numerics`, `assert_all_finite`): an identity that refuses
NaN and Inf. Unlike the Assert checks it passes its tensor on and has a gradient (the gradient
passes through, checked in turn), so it is an op of its own and not an assertion.
"""
from __future__ import annotations

import numpy as np

from ...core.convert import convert_to_tensor
from ...core.errors import InvalidArgumentError
from .. import shape_rules as R
from ..registry import bind, defop


def _check_numerics_kernel(x, message):
    nan = bool(np.isnan(x).any())
    inf = bool(np.isinf(x).any())
    if nan or inf:
        found = "Inf and NaN" if nan and inf else ("NaN" if nan else "Inf")
        raise InvalidArgumentError(None, None, f"{message} : Tensor had {found} values")
    return x


def _check_numerics_grad(op, g):
    # As TensorFlow: the gradient passes through, checked in turn (a NaN born in backprop is named).
    return check_numerics(g, "Not a number (NaN) or infinity (Inf) values detected in gradient. "
                          + op.attrs["message"])


CheckNumerics = defop("CheckNumerics", inputs=("tensor",), kernel=_check_numerics_kernel,
                      infer=R.unary(R.FLOATS), grad=_check_numerics_grad, stateful=True,
                      doc="Passes a float tensor through; InvalidArgumentError if it has NaN or Inf.")


def check_numerics(tensor, message, name=None):
    """`tf.debugging.check_numerics`: the tensor, unchanged, or InvalidArgumentError naming NaN/Inf."""
    x = convert_to_tensor(tensor)
    return bind(CheckNumerics, (x,), {"message": str(message)}, name)


def assert_all_finite(t, msg, name=None):
    """`tf.debugging.assert_all_finite`: `check_numerics` under its other name."""
    return check_numerics(t, msg, name=name)


# Under jit_compile=True (codegen/xla.py): TF 2.21's XLA compiles CheckNumerics to its input, unchecked
# (check_numerics of log(0) under jit_compile=True returns -inf without raising), so a compiled step keeps
# XLA's speed.
CheckNumerics.jax = lambda tensor, message: tensor
