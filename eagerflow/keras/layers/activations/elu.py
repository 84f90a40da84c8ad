"""ELU: x for x > 0, alpha * (exp(x) - 1) otherwise."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.nn import basic as _nn
from ..base import Layer


class ELU(Layer):
    """x for x > 0, alpha * (exp(x) - 1) below."""
    supports_masking = True

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        y = _nn.elu(inputs)
        if self.alpha == 1.0:
            return y
        return _math.maximum(inputs, _math.cast(0, inputs.dtype)) + _math.minimum(y, _math.cast(0, y.dtype)) * \
            _math.cast(self.alpha, y.dtype)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}
