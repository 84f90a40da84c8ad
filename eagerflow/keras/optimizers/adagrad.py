"""Adagrad (Keras 3's formula): acc += g^2;  var -= lr * g / sqrt(acc + eps)  (acc starts at
initial_accumulator_value)."""
from __future__ import annotations

from ..._src.ops.math import elementwise as _math
from .base import Optimizer


class Adagrad(Optimizer):
    _config_keys = ("initial_accumulator_value", "epsilon")

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon

    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "accumulator", self.initial_accumulator_value),)

    def update_step(self, g, v, lr, step):
        (acc,) = self._slots_for(v)
        acc.assign_add(_math.square(g))
        v.assign_sub(lr * g / _math.sqrt(acc + self.epsilon))


