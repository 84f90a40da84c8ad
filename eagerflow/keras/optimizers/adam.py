"""Adam (Keras 3's formula): m += (g - m)(1 - b1); v += (g^2 - v)(1 - b2);
      var -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)  (eps outside the bias correction).
"""
from __future__ import annotations

import numpy as np

from ..._src.composite.indexed_slices import IndexedSlices
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.math import elementwise as _math
from ..._src.ops.registry import bind
from ..._src.ops.variables.training_ops import AdamUpdate
from .base import Optimizer, dense_and_squares


class Adam(Optimizer):
    _config_keys = ("beta_1", "beta_2", "epsilon", "amsgrad")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, name=None,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad

    def _make_slots(self, variable):
        slots = (self.add_variable_from_reference(variable, "momentum"),
                 self.add_variable_from_reference(variable, "velocity"))
        if self.amsgrad:
            slots += (self.add_variable_from_reference(variable, "velocity_hat"),)
        return slots

    # A gather's gradient comes as rows: Keras 3 squares them before rows at one index are summed, so
    # the second moment of a repeated row is the sum of its squares (not the square of its sum).
    _updates_rows = True

    def update_step(self, g, v, lr, step):
        slots = self._slots_for(v)
        m, vel = slots[0], slots[1]
        squares = None
        if isinstance(g, IndexedSlices):
            g, squares = dense_and_squares(g)
        if not self.amsgrad and squares is None:  # one fused op (ops/variables/training_ops.py): the same formula, far fewer large temporaries
            dtype = g.dtype
            scalar = [_math.cast(x, dtype) if x.dtype is not dtype else x for x in (
                _math.pow(convert_to_tensor(float(self.beta_1)), step),
                _math.pow(convert_to_tensor(float(self.beta_2)), step), convert_to_tensor(lr))]
            consts = [convert_to_tensor(np.asarray(c, dtype.np_dtype)) for c in (1.0 - self.beta_1, 1.0 - self.beta_2,
                                                                                 self.epsilon)]
            bind(AdamUpdate, (v.handle, m.handle, vel.handle, *scalar, *consts, g))
            return
        b1_power = _math.pow(self.beta_1, step)
        b2_power = _math.pow(self.beta_2, step)
        alpha = lr * _math.sqrt(1.0 - b2_power) / (1.0 - b1_power)
        m.assign_add((g - m) * (1.0 - self.beta_1))
        vel.assign_add(((_math.square(g) if squares is None else squares) - vel) * (1.0 - self.beta_2))
        denom_v = vel
        if self.amsgrad:
            vhat = slots[2]
            vhat.assign(_math.maximum(vhat, vel))
            denom_v = vhat
        v.assign_sub((m * alpha) / (_math.sqrt(denom_v) + self.epsilon))


