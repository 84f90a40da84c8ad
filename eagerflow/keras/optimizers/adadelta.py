"""Adadelta (Keras 3's formula):
    ag = rho ag + (1 - rho) g^2;  d = -sqrt(adv + eps) / sqrt(ag + eps) * g;
    adv = rho adv + (1 - rho) d^2;  var += lr * d.
"""
from __future__ import annotations

from ..._src.ops.math import elementwise as _math
from .base import Optimizer


class Adadelta(Optimizer):
    _config_keys = ("rho", "epsilon")

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "accumulated_grad"),
                self.add_variable_from_reference(variable, "accumulated_delta_var"))

    def update_step(self, g, v, lr, step):
        grad_acc, delta_acc = self._slots_for(v)
        grad_acc.assign(grad_acc * self.rho + _math.square(g) * (1.0 - self.rho))
        delta = _math.negative(_math.sqrt(delta_acc + self.epsilon) * g / _math.sqrt(grad_acc + self.epsilon))
        delta_acc.assign(delta_acc * self.rho + _math.square(delta) * (1.0 - self.rho))
        v.assign_add(lr * delta)
