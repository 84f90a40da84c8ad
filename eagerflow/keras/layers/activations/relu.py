"""ReLU: max(x, threshold) with an optional negative slope and maximum value, as Keras 3 computes it."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.nn import basic as _nn
from ..base import Layer


class ReLU(Layer):
    supports_masking = True

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        if self.negative_slope == 0 and self.threshold == 0:
            y = _nn.relu(inputs)
        else:
            below = (inputs - self.threshold) * self.negative_slope
            y = _array.where(_math.greater_equal(inputs, self.threshold), inputs, below)
        if self.max_value is not None:
            y = _math.minimum(y, _math.cast(self.max_value, y.dtype))
        return y

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value, "negative_slope": self.negative_slope,
                "threshold": self.threshold}
