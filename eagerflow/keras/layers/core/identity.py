"""Identity: returns its input (a placeholder layer)."""
from __future__ import annotations

from ..base import Layer


class Identity(Layer):
    """Returns its input unchanged (a placeholder in a model graph)."""
    supports_masking = True

    def call(self, inputs):
        return inputs
