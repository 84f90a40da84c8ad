"""LayerScale (Touvron et al. 2021, used by ConvNeXt): multiplies each channel by a learned scale
that starts at `init_values`, so a fresh residual branch starts nearly silent."""
from __future__ import annotations

from .. import initializers
from ..layers.base import Layer


class LayerScale(Layer):
    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values, self.projection_dim = init_values, projection_dim

    def build(self, input_shape):
        self.gamma = self.add_weight((self.projection_dim,), initializers.Constant(self.init_values), name="gamma")
        self.built = True

    def call(self, x):
        return x * self.gamma

    def get_config(self):
        return {**super().get_config(), "init_values": self.init_values, "projection_dim": self.projection_dim}
