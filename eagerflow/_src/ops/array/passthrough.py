"""Identity and StopGradient: ops that give their input back unchanged (`tf.identity`,
`tf.stop_gradient`). They differ only in their gradient: Identity passes it through, StopGradient
records none, so a tape sees nothing flow back through it.
"""
from __future__ import annotations

from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, bind, defop

Identity = defop("Identity", inputs=("input",), kernel=lambda x: x, infer=R.unary(), grad=lambda op, g: g)
StopGradient = defop("StopGradient", inputs=("input",), kernel=lambda x: x, infer=R.unary(),
                     grad=NO_GRADIENT)


def identity(input, name=None):
    return bind(Identity, (as_tensor(input),), name=name)


def stop_gradient(input, name=None):
    """Passes the value through; tapes see no gradient flowing back through it."""
    return bind(StopGradient, (as_tensor(input),))


Identity.jax = lambda x: x
StopGradient.jax = lambda x: x
