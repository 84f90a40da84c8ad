"""The layer behind a FeatureSpace cross: the crossed features' hashed ids, as keras.layers.HashedCrossing
computes them (tf.sparse.cross_hashed's hash), one int64 id per sample."""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.strings.hashed_cross import hashed_cross
from ...layers.base import Layer


class CrossHasher(Layer):
    """Same-shaped string or integer features -> int64 ids in [0, num_bins)."""

    def __init__(self, num_bins, **kwargs):
        super().__init__(**kwargs)
        self.num_bins = num_bins

    def call(self, inputs):
        features = [convert_to_tensor(x) for x in inputs]
        if any(not (f.dtype.is_integer or f.dtype.name == "string") for f in features):
            raise ValueError(f"Crossed features must be integers or strings. Received dtypes: "
                             f"{[f.dtype.name for f in features]}")
        return hashed_cross(features, self.num_bins)

    def get_config(self):
        return {**super().get_config(), "num_bins": self.num_bins}
