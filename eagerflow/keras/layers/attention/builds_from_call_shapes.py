"""What MultiHeadAttention and GroupQueryAttention share: building in `call` from three input shapes.

Why: both take query, value and key, and their weights depend on all three shapes, so neither can
build from the one input that `Layer.__call__` sees; each builds on its first call instead (once,
under BUILD_LOCK, when threads call a fresh model together) and records the three shapes as its
build config, which Keras 3 saves as "shapes_dict". Both also read, then clear, the Keras masks of
the three tensors, as Keras does (the layer has used them).
"""
from __future__ import annotations

from ..base import BUILD_LOCK, shape_tuple
from ..masks import get_keras_mask, set_keras_mask


class BuildsFromCallShapes:
    """Mixed into an attention layer before Layer; the layer's `build(query_shape, value_shape, key_shape)`
    sets `self._shapes` (None until built)."""

    def _maybe_build(self, inputs):
        """Built in `call`, where query, value and key shapes are all known (the base builds from one input)."""

    def get_build_config(self):
        return None if self._shapes is None else {"shapes_dict": dict(self._shapes)}

    def build_from_config(self, config):
        shapes = (config or {}).get("shapes_dict")
        if shapes and self._shapes is None:
            self.build(shapes["query_shape"], shapes.get("value_shape"), shapes.get("key_shape"))

    @staticmethod
    def _take_value_and_key_masks(query, value, key, value_mask, key_mask):
        """value_mask and key_mask, each from its tensor's Keras mask when not given; the three tensors'
        masks are then removed (read the query's mask first)."""
        value_mask = get_keras_mask(value) if value_mask is None else value_mask
        key_mask = get_keras_mask(key) if key_mask is None and key is not None else key_mask
        for tensor in (query, value, key):
            set_keras_mask(tensor, None)
        return value_mask, key_mask

    def _build_on_first_call(self, query, value, key):
        if self._shapes is None:
            with BUILD_LOCK:
                if self._shapes is None:
                    self.build(shape_tuple(query), shape_tuple(value), shape_tuple(key))
