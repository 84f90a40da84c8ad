"""Adafactor: each step scaled by the variable's root mean square, with a factored second moment for
matrices (Keras 3's formula; t = step, rho = min(lr, 1/sqrt(t)); with relative_step, lr itself is capped the same way):
    alpha = max(epsilon_2, rms(var)) * rho;  g2 = g^2 + epsilon_1;  b = 1 - t^beta_2_decay
    rank >= 2: r = b r + (1 - b) mean(g2, -1);  c = b c + (1 - b) mean(g2, -2)
               v = (r / mean(r, -1))[..., None] * c[..., None, :]   (factored second moment)
    rank < 2:  v = b v + (1 - b) g2
    u = g / sqrt(v);  var -= alpha * u / max(1, rms(u) / clip_threshold)
"""
from __future__ import annotations

import numpy as np

from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..variables import KerasVariable
from .base import Optimizer


def _rms(x):
    return _math.sqrt(_reduce.reduce_mean(_math.square(x)))


class Adafactor(Optimizer):
    _config_keys = ("beta_2_decay", "epsilon_1", "epsilon_2", "clip_threshold", "relative_step")

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3, clip_threshold=1.0,
                 relative_step=True, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_2_decay, self.epsilon_1, self.epsilon_2 = beta_2_decay, epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, relative_step

    def _state(self, shape, base, dtype):
        return KerasVariable(np.zeros(shape, dtype.np_dtype), trainable=False, name=base, path=f"{self.name}/{base}")

    def _make_slots(self, variable):
        """(r, c, velocity): row and column statistics of the factored second moment (scalars, unused,
        for a variable of rank < 2, as Keras keeps them), and the full second moment."""
        shape = variable.shape.as_list()
        path = getattr(variable, "path", None)
        base = path.replace("/", "_") if path else variable.name.replace("/", "_").replace(":", "_")
        if len(shape) < 2:
            r, c = self._state((), base, variable.dtype), self._state((), base, variable.dtype)
        else:
            r = self._state(shape[:-1], base, variable.dtype)
            c = self._state(shape[:-2] + shape[-1:], base, variable.dtype)
        return r, c, self.add_variable_from_reference(variable, "velocity")

    def update_step(self, g, v, lr, step):
        r, c, vel = self._slots_for(v)
        if self._schedule is None and self.relative_step:
            lr = _math.minimum(lr, 1.0 / _math.sqrt(step))
        rho = _math.minimum(lr, 1.0 / _math.sqrt(step))
        alpha = _math.maximum(self.epsilon_2, _rms(v)) * rho
        g2 = _math.square(g) + self.epsilon_1
        b = 1.0 - _math.pow(step, self.beta_2_decay)
        if v.shape.rank >= 2:
            r.assign(b * r + (1.0 - b) * _reduce.reduce_mean(g2, axis=-1))
            c.assign(b * c + (1.0 - b) * _reduce.reduce_mean(g2, axis=-2))
            vel.assign(_array.expand_dims(r / _reduce.reduce_mean(r, axis=-1, keepdims=True), -1)
                       * _array.expand_dims(c, -2))
        else:
            vel.assign(b * vel + (1.0 - b) * g2)
        u = g / _math.sqrt(vel)
        v.assign_sub(alpha * (u / _math.maximum(1.0, _rms(u) / self.clip_threshold)))


