"""UnitNormalization: each sample scaled to unit L2 norm over `axis`, as Keras 3.15 computes it."""
from __future__ import annotations

from ...._src.ops.linalg.norms import l2_normalize
from ..base import Layer


class UnitNormalization(Layer):
    """x / sqrt(max(sum(x**2 over axis), 1e-12)): every sample's vector gets unit L2 norm."""
    supports_masking = True

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            axis = list(axis)
        elif not isinstance(axis, int):
            raise TypeError(f"Invalid value for `axis` argument: expected an int or a list/tuple of ints. "
                            f"Received: axis={axis}")
        self.axis = axis

    def call(self, inputs):
        return l2_normalize(inputs, axis=self.axis, epsilon=1e-12)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
