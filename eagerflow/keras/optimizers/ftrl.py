"""Ftrl: "follow the regularized leader" with accumulator and linear slots (l1 / l2 /
l2-shrinkage / beta), as Keras 3 computes it."""
from __future__ import annotations

from ..._src.ops.math import elementwise as _math
from .base import Optimizer


class Ftrl(Optimizer):
    _config_keys = ("learning_rate_power", "initial_accumulator_value", "l1_regularization_strength",
                    "l2_regularization_strength", "l2_shrinkage_regularization_strength", "beta")

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        checks = (("initial_accumulator_value", initial_accumulator_value, "positive or zero"),
                  ("learning_rate_power", -learning_rate_power, "negative or zero"),
                  ("l1_regularization_strength", l1_regularization_strength, "positive or zero"),
                  ("l2_regularization_strength", l2_regularization_strength, "positive or zero"),
                  ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength, "positive or zero"))
        for arg, value, wanted in checks:
            if value < 0.0:
                shown = -value if arg == "learning_rate_power" else value
                raise ValueError(f"`{arg}` needs to be {wanted}. Received: {arg}={shown}.")
        self.learning_rate_power, self.initial_accumulator_value = learning_rate_power, initial_accumulator_value
        self.l1_regularization_strength, self.l2_regularization_strength = (l1_regularization_strength,
                                                                            l2_regularization_strength)
        self.l2_shrinkage_regularization_strength, self.beta = l2_shrinkage_regularization_strength, beta

    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "accumulator", self.initial_accumulator_value),
                self.add_variable_from_reference(variable, "linear"))

    def update_step(self, g, v, lr, step):
        acc, linear = self._slots_for(v)
        power = -float(self.learning_rate_power)
        l1 = float(self.l1_regularization_strength)
        l2 = float(self.beta) / (lr * 2.0) + float(self.l2_regularization_strength)
        shrunk_grad = g + v * (2.0 * float(self.l2_shrinkage_regularization_strength))
        new_acc = acc + _math.square(g)
        linear.assign_add(shrunk_grad - (_math.pow(new_acc, power) - _math.pow(acc, power)) / lr * v)
        quadratic = _math.pow(new_acc, power) / lr + l2 * 2.0
        clipped = _math.clip_by_value(linear, -l1, l1)
        v.assign((clipped - linear) / quadratic)
        acc.assign(new_acc)
