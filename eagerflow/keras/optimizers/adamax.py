"""Adamax (Keras 3's formula):
    m += (g - m)(1 - b1);  u = max(b2 u, |g|);  var -= lr * m / ((1 - b1^t)(u + eps)).
"""
from __future__ import annotations

from ..._src.ops.math import elementwise as _math
from .two_moment import TwoMomentOptimizer


class Adamax(TwoMomentOptimizer):
    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "momentum"),
                self.add_variable_from_reference(variable, "norm"))

    def update_step(self, g, v, lr, step):
        m, u = self._slots_for(v)
        m.assign_add((g - m) * (1.0 - self.beta_1))
        u.assign(_math.maximum(u * self.beta_2, _math.abs(g)))
        v.assign_sub(lr * m / ((1.0 - _math.pow(self.beta_1, step)) * (u + self.epsilon)))
