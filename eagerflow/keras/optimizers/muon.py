"""Muon (Keras 3.15's `keras.optimizers.Muon`): an orthogonalised momentum step for matrices, Adam for
everything else.

Which rule a weight gets: a weight that is not 2-D, one whose path names an embedding (while
`exclude_embeddings`), or one whose path matches a regular expression of `exclude_layers` is
updated by AdamW (at `learning_rate * adam_lr_ratio`, decayed by `adam_weight_decay`); every other
weight by Muon (decayed by `weight_decay`):

    m = momentum * m + g                       (written as m += g + (momentum - 1) m, as Keras does)
    d = g + momentum * m  (nesterov)  or  m
    O = newton_schulz(d)                       (~ U V^T of d's SVD, `ns_steps` quintic iterations)
    var -= lr * O * sqrt(max(rows, cols)) * rms_rate   (the last factors only when rms_rate is set)

The Newton-Schulz iteration works on the wide orientation of the matrix (rows <= cols): with X
normalised by its Frobenius norm, each step is A = X X^T, X = a X + (b A + c A A) X. A tall matrix
is iterated in the same orientation through transposed products (X^T X, and X B on the right, B
being symmetric), so no transposed copy is made.
"""
from __future__ import annotations

import re

import numpy as np

from ..._src.ops.linalg.matmul import matmul
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .base import Optimizer


class Muon(Optimizer):
    _config_keys = ("adam_beta_1", "adam_beta_2", "epsilon", "exclude_layers", "muon_a", "muon_b", "muon_c",
                    "adam_lr_ratio", "momentum", "ns_steps", "nesterov", "exclude_embeddings", "adam_weight_decay",
                    "rms_rate")

    def __init__(self, learning_rate=0.001, adam_beta_1=0.9, adam_beta_2=0.999, adam_weight_decay=0.004,
                 epsilon=1e-7, weight_decay=0.004, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, exclude_layers=None, exclude_embeddings=True,
                 muon_a=3.4445, muon_b=-4.7750, muon_c=2.0315, adam_lr_ratio=1, momentum=0.95, ns_steps=5,
                 nesterov=True, rms_rate=0.2, **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, name=name, **kwargs)
        self.adam_beta_1, self.adam_beta_2, self.epsilon = adam_beta_1, adam_beta_2, epsilon
        self.muon_a, self.muon_b, self.muon_c = muon_a, muon_b, muon_c
        self.adam_lr_ratio, self.momentum, self.ns_steps, self.nesterov = adam_lr_ratio, momentum, ns_steps, nesterov
        self.exclude_embeddings = exclude_embeddings
        self.exclude_layers = exclude_layers or []
        self.adam_weight_decay, self.rms_rate = adam_weight_decay, rms_rate

    def _uses_adamw(self, variable):
        if len(variable.shape) != 2:
            return True
        path = getattr(variable, "path", None) or variable.name
        if self.exclude_embeddings and "embedding" in path.lower():
            return True
        return any(re.search(pattern, path) for pattern in self.exclude_layers)

    def _make_slots(self, variable):
        # a momentum for either rule (Keras' slot order); a velocity only for the AdamW ones
        momentum = self.add_variable_from_reference(variable, "momentum")
        if self._uses_adamw(variable):
            return momentum, self.add_variable_from_reference(variable, "velocity")
        return (momentum,)

    def _apply_weight_decay(self, variables, lr):
        for v in variables:
            rate = self.adam_weight_decay if self._uses_adamw(v) else self.weight_decay
            if rate is None:
                continue
            v.assign(v - v * np.float32(rate) * _math.cast(lr, v.dtype))

    def update_step(self, g, v, lr, step):
        slots = self._slots_for(v)
        if len(slots) == 2:
            self._adamw_step(g, v, lr * self.adam_lr_ratio, step, *slots)
        else:
            self._muon_step(g, v, lr, slots[0])

    def _adamw_step(self, g, v, lr, step, m, vel):
        b1_power = _math.pow(np.float32(self.adam_beta_1), step)
        b2_power = _math.pow(np.float32(self.adam_beta_2), step)
        alpha = lr * _math.sqrt(1.0 - b2_power) / (1.0 - b1_power)
        m.assign_add((g - m) * (1.0 - self.adam_beta_1))
        vel.assign_add((_math.square(g) - vel) * (1.0 - self.adam_beta_2))
        v.assign_sub((m * alpha) / (_math.sqrt(vel) + self.epsilon))

    def _muon_step(self, g, v, lr, m):
        m.assign_add(g + m * (self.momentum - 1))
        direction = g + self.momentum * m if self.nesterov else m
        update = lr * self._orthogonalize(direction)
        if self.rms_rate is not None:
            rows, cols = v.shape.as_list()
            update = update * np.sqrt(np.float32(max(rows, cols))) * self.rms_rate
        v.assign_sub(update)

    def _orthogonalize(self, x):
        """The quintic Newton-Schulz iteration of the module docstring, `ns_steps` times."""
        a, b, c = self.muon_a, self.muon_b, self.muon_c
        rows, cols = x.shape.as_list()
        tall = rows > cols
        x = x / (_math.sqrt(_reduce.reduce_sum(_math.square(x))) + 1e-7)
        for _ in range(self.ns_steps):
            gram = matmul(x, x, transpose_a=True) if tall else matmul(x, x, transpose_b=True)
            poly = b * gram + c * matmul(gram, gram)
            x = a * x + (matmul(x, poly) if tall else matmul(poly, x))
        return x
