"""LeakyReLU: x for x >= 0, negative_slope * x otherwise."""
from __future__ import annotations

from ...._src.ops.nn import basic as _nn
from ..base import Layer


class LeakyReLU(Layer):
    """x for x >= 0, negative_slope * x below (Keras 3 still takes the old name `alpha`)."""
    supports_masking = True

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"The negative_slope value of a Leaky ReLU layer cannot be None or negative value. "
                             f"Expected a float. Received: negative_slope={negative_slope}")
        self.negative_slope = negative_slope

    def call(self, inputs):
        return _nn.leaky_relu(inputs, alpha=self.negative_slope)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


