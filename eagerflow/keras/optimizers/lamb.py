"""Lamb (Keras 3's formula): Adam's bias-corrected step  u = m_hat / (sqrt(v_hat) + eps),
scaled by the trust ratio ||var|| / ||u|| (1 when either norm is 0):  var -= ratio * lr * u."""
from __future__ import annotations

from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .two_moment import TwoMomentOptimizer


class Lamb(TwoMomentOptimizer):
    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "momentum"),
                self.add_variable_from_reference(variable, "velocity"))

    def update_step(self, g, v, lr, step):
        m, vel = self._slots_for(v)
        m.assign_add((g - m) * (1.0 - self.beta_1))
        vel.assign_add((_math.square(g) - vel) * (1.0 - self.beta_2))
        m_hat = m / (1.0 - _math.pow(self.beta_1, step))
        update = m_hat / (_math.sqrt(vel / (1.0 - _math.pow(self.beta_2, step))) + self.epsilon)
        w_norm = _math.sqrt(_reduce.reduce_sum(_math.square(v)))
        u_norm = _math.sqrt(_reduce.reduce_sum(_math.square(update)))
        one = _array.ones_like(w_norm)
        ratio = _array.where(_math.greater(w_norm, 0.0),
                             _array.where(_math.greater(u_norm, 0.0), w_norm / u_norm, one), one)
        v.assign_sub(ratio * lr * update)
