"""Lion (Keras 3's formula): var -= lr * sign(b1 m + (1 - b1) g);  m = b2 m + (1 - b2) g."""
from __future__ import annotations

from ..._src.ops.math import elementwise as _math
from .base import Optimizer


class Lion(Optimizer):
    _config_keys = ("beta_1", "beta_2")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError(f"Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer degenerates "
                             f"to SignSGD. Received: beta_1={beta_1}.")
        self.beta_1, self.beta_2 = beta_1, beta_2

    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "momentum"),)

    def update_step(self, g, v, lr, step):
        (m,) = self._slots_for(v)
        v.assign_sub(lr * _math.sign(m * self.beta_1 + g * (1.0 - self.beta_1)))
        m.assign(m * self.beta_2 + g * (1.0 - self.beta_2))
