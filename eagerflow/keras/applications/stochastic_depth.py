"""StochasticDepth (Huang et al. 2016, ConvNeXt's drop path): while training, drops a residual branch
for whole samples with probability `drop_path_rate`, scaling the kept ones by 1 / (1 - rate);
the identity at inference."""
from __future__ import annotations

from ..._src.ops.nn import basic as _nn
from ..layers.base import Layer
from ..layers.regularization.dropout import resolve_noise_shape


class StochasticDepth(Layer):
    def __init__(self, drop_path_rate, **kwargs):
        super().__init__(**kwargs)
        self.drop_path_rate = drop_path_rate

    def call(self, x, training=None):
        if training and self.drop_path_rate > 0:
            # one keep-or-drop draw per sample, shared across its positions and channels
            noise_shape = resolve_noise_shape(x, (None,) + (1,) * (len(x.shape) - 1))
            return _nn.dropout(x, self.drop_path_rate, noise_shape=noise_shape)
        return x

    def get_config(self):
        return {**super().get_config(), "drop_path_rate": self.drop_path_rate}
