"""Keras 3's other update rules: Adagrad, Adadelta, Adamax, Nadam, Ftrl, Lion.

Adagrad:  acc += g^2;  var -= lr * g / sqrt(acc + eps)  (acc starts at initial_accumulator_value).
Adadelta: ag = rho ag + (1 - rho) g^2;  d = -sqrt(adv + eps) / sqrt(ag + eps) * g;
          adv = rho adv + (1 - rho) d^2;  var += lr * d.
Adamax:   m += (g - m)(1 - b1);  u = max(b2 u, |g|);  var -= lr * m / ((1 - b1^t)(u + eps)).
Nadam:    Adam's moments with the momentum schedule u_t = b1 (1 - 0.5 * 0.96^t), whose running product
          (one scalar variable, updated once per step before the variables) bias-corrects m.
Ftrl:     "follow the regularized leader" with accumulator and linear slots (l1 / l2 / l2-shrinkage / beta).
Lion:     var -= lr * sign(b1 m + (1 - b1) g);  m = b2 m + (1 - b2) g.
"""
from __future__ import annotations

import numpy as np

from ..._src.ops import math as _math
from ..naming import unique_name
from ..variables import KerasVariable
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


class TwoMomentOptimizer(Optimizer):
    """The constructor and config keys Keras gives its Adam-like rules (Adamax, Nadam, Lamb): two
    moment decay rates and an epsilon."""
    _config_keys = ("beta_1", "beta_2", "epsilon")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon


class Adamax(TwoMomentOptimizer):
    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "momentum"),
                self.add_variable_from_reference(variable, "norm"))

    def update_step(self, g, v, lr, step):
        m, u = self._slots_for(v)
        m.assign_add((g - m) * (1.0 - self.beta_1))
        u.assign(_math.maximum(u * self.beta_2, _math.abs(g)))
        v.assign_sub(lr * m / ((1.0 - _math.pow(self.beta_1, step)) * (u + self.epsilon)))


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
