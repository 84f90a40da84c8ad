"""AdditiveAttention (Bahdanau-style): Attention with the score tanh(query + key) summed over features."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math.reduce import reduce_sum
from .attention import Attention


class AdditiveAttention(Attention):
    """scores = sum(scale * tanh(query + key)) over the features, with a learned per-feature `scale`."""

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        if self.use_scale:
            self.scale = self.add_weight((input_shape[0][-1],), "glorot_uniform", name="scale")
        self.built = True

    def _scores(self, query, key):
        inner = _math.tanh(_array.expand_dims(query, -2) + _array.expand_dims(key, -3))
        return reduce_sum(inner * self.scale if self.scale is not None else inner, -1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config
