"""CustomScaleLayer (InceptionResNetV2's residual join): inputs[0] + inputs[1] * scale, the residual
branch damped before it is added."""
from __future__ import annotations

from ..layers.base import Layer


class CustomScaleLayer(Layer):
    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, inputs):
        return inputs[0] + inputs[1] * self.scale

    def get_config(self):
        return {**super().get_config(), "scale": self.scale}
