"""RMSNormalization: each sample divided by its root mean square over `axis`, then scaled (no centring,
no shift: the normalization of T5- and Llama-style transformers)."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ..base import Layer


class RMSNormalization(Layer):
    """x * rsqrt(mean(x ** 2 over axis) + epsilon) * scale; `scale` (ones at first) has the shape of the
    normalised axes."""

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon

    def _axes(self, rank):
        axes = self.axis if isinstance(self.axis, (list, tuple)) else [self.axis]
        return sorted(a % rank for a in axes)

    def build(self, input_shape):
        axes = self._axes(len(input_shape))
        self.scale = self.add_weight(tuple(input_shape[a] for a in axes), "ones", name="scale")
        self.built = True

    def call(self, inputs):
        x = _math.cast(inputs, self.scale.dtype) if inputs.dtype != self.scale.dtype else inputs
        rank = x.shape.rank
        axes = self._axes(rank)
        mean_square = _reduce.reduce_mean(_math.square(x), axis=axes, keepdims=True)
        scale = self.scale
        if axes != list(range(rank - len(axes), rank)):  # broadcast the scale over the other axes
            from ...._src.ops.array import basic as _array
            scale = _array.reshape(scale, [x.shape.as_list()[a] if a in axes else 1 for a in range(rank)])
        return x * _math.rsqrt(mean_square + self.epsilon) * scale

    def get_config(self):
        axes = self.axis if isinstance(self.axis, (list, tuple)) else [self.axis]
        return {**super().get_config(), "axis": list(axes), "epsilon": self.epsilon}
