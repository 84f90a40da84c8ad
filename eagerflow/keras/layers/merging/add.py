"""Add: the elementwise sum of a list of tensors (and its functional form)."""
from __future__ import annotations

from ...._src.ops.math.elementwise import add_n
from ..base import Layer
from .base_merge import check_list, or_masks


class Add(Layer):
    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return or_masks(inputs, mask)

    def call(self, inputs):
        check_list(self, inputs)
        return add_n(list(inputs)) if len(inputs) > 1 else inputs[0]


# Keras' functional forms: `keras.layers.add([a, b])` is `Add()([a, b])` (a fresh layer per call)
def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)
