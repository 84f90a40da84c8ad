"""Merging layers: Concatenate and Add, called on a list of tensors."""
from __future__ import annotations

from ..._src.ops import array as _array
from ..._src.ops import math as _math
from ..._src.ops import reduce as _reduce
from ..._src.ops.joining import concat
from ..._src.ops.math import add_n
from .base import Layer


def _check_masks(inputs, mask):
    if not isinstance(mask, (tuple, list)):
        raise ValueError(f"`mask` should be a list. Received: mask={mask}")
    if not isinstance(inputs, (tuple, list)):
        raise ValueError(f"`inputs` should be a list. Received: inputs={inputs}")
    if len(mask) != len(inputs):
        raise ValueError(f"The lists `inputs` and `mask` should have the same length. Received: inputs={inputs} of "
                         f"length {len(inputs)}, and mask={mask} of length {len(mask)}")


def _check_list(layer, inputs):
    if not isinstance(inputs, (list, tuple)) or len(inputs) < 1:
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} "
                         f"(not a list of tensors)")


class Concatenate(Layer):
    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        """Keras 3: each input's mask (all-true where it has none) broadcast over its features, joined
        along the axis, then any() over the last axis."""
        if mask is None:
            return None
        _check_masks(inputs, mask)
        if all(m is None for m in mask):
            return None
        parts = []
        for x, m in zip(inputs, mask):
            if m is None:
                parts.append(_math.not_equal(_array.ones_like(x), _array.zeros_like(x)))
            elif m.shape.rank < x.shape.rank:
                parts.append(_array.broadcast_to(_array.expand_dims(m, -1), _array.shape(x)))
            else:
                parts.append(m)
        return _reduce.reduce_any(concat(parts, self.axis), axis=-1)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        _check_list(self, inputs)
        return concat(list(inputs), self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Add(Layer):
    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        """Keras 3's merge rule: the OR of the inputs' masks; none if any input has none."""
        if mask is None:
            return None
        _check_masks(inputs, mask)
        if any(m is None for m in mask):
            return None
        out = mask[0]
        for m in mask[1:]:
            out = _math.logical_or(out, m)
        return out

    def call(self, inputs):
        _check_list(self, inputs)
        return add_n(list(inputs)) if len(inputs) > 1 else inputs[0]
