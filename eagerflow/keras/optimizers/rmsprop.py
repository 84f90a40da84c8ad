"""RMSprop (Keras 3's formula): v = rho v + (1 - rho) g^2; var -= lr * g / sqrt(v + eps)
(eps inside the square root)."""
from __future__ import annotations

from ..._src.ops.math import elementwise as _math
from .base import Optimizer, dense_and_squares


class RMSprop(Optimizer):
    _config_keys = ("rho", "momentum", "epsilon", "centered")

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, name=None,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def _make_slots(self, variable):
        slots = [self.add_variable_from_reference(variable, "velocity"), None, None]
        if self.momentum > 0:
            slots[1] = self.add_variable_from_reference(variable, "momentum")
        if self.centered:
            slots[2] = self.add_variable_from_reference(variable, "average_gradient")
        return tuple(slots)

    @property
    def variables(self):
        return [v for v in super().variables if v is not None]

    _updates_rows = True  # squares an IndexedSlices gradient's rows as Keras 3 does (base.dense_and_squares)

    def update_step(self, g, v, lr, step):
        vel, mom, avg = self._slots_for(v)
        g, squares = dense_and_squares(g)
        vel.assign(vel * self.rho + squares * (1.0 - self.rho))
        if self.centered:
            avg.assign(avg * self.rho + g * (1.0 - self.rho))
            denominator = vel - _math.square(avg) + self.epsilon
        else:
            denominator = vel + self.epsilon
        increment = lr * g * _math.rsqrt(denominator)
        if mom is not None:
            mom.assign(mom * self.momentum + increment)
            v.assign_sub(mom)
        else:
            v.assign_sub(increment)
