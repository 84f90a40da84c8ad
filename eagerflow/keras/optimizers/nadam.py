"""Nadam (Keras 3's formula): Adam's moments with the momentum schedule
u_t = b1 (1 - 0.5 * 0.96^t), whose running product (one scalar variable, updated once per step
before the variables) bias-corrects m.
"""
from __future__ import annotations

import numpy as np

from ..._src.ops.math import elementwise as _math
from ..naming import unique_name
from ..variables import KerasVariable
from .two_moment import TwoMomentOptimizer


class Nadam(TwoMomentOptimizer):
    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "momentum"),
                self.add_variable_from_reference(variable, "velocity"))

    def build(self, var_list):
        super().build(var_list)
        name = unique_name("variable")
        self._u_product = KerasVariable(np.array(1.0, np.float32), trainable=False, name=name,
                                        path=f"{self.name}/{name}")
        self._extra_variables = [self._u_product]

    def _momentum_decay(self, t):
        return (1.0 - _math.pow(0.96, t) * 0.5) * self.beta_1

    def _before_updates(self, step):
        self._u_product.assign(self._u_product * self._momentum_decay(step))

    def update_step(self, g, v, lr, step):
        m, vel = self._slots_for(v)
        u_t, u_next = self._momentum_decay(step), self._momentum_decay(step + 1.0)
        u_product = self._u_product * 1.0
        u_product_next = u_product * u_next
        m.assign_add((g - m) * (1.0 - self.beta_1))
        vel.assign_add((_math.square(g) - vel) * (1.0 - self.beta_2))
        m_hat = m * u_next / (1.0 - u_product_next) + g * (1.0 - u_t) / (1.0 - u_product)
        v_hat = vel / (1.0 - _math.pow(self.beta_2, step))
        v.assign_sub(m_hat * lr / (_math.sqrt(v_hat) + self.epsilon))
