"""Keras masks: which time steps of a sequence are real, carried from layer to layer.

Keras 3 attaches a mask to the output tensor of a masking layer (Embedding(mask_zero=True),
Masking) and every later layer call that takes a `mask` argument receives it; layers that
`supports_masking` pass it on (through `compute_mask`), others drop it.

Why a side table: our tensors have fixed slots. The table maps a tensor to its mask through a weak
reference to the tensor: the entry disappears when the tensor does (the callback runs before the
id can be reused), and a lookup checks the reference still points at the very tensor asked about.
The mask never references the tensor it is keyed by (it is computed from the layer's inputs).
"""
from __future__ import annotations

import weakref

from ...core import nest
from ...core.tensor import Tensor
from ...ops import array as _array
from ...ops import math as _math
from ...ops import reduce as _reduce
from .base import Layer

_masks = {}


def _forget(key):
    def callback(_ref):
        _masks.pop(key, None)
    return callback


def set_keras_mask(tensor, mask):
    if not isinstance(tensor, Tensor):
        return
    if mask is None:
        entry = _masks.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            del _masks[id(tensor)]
        return
    _masks[id(tensor)] = (weakref.ref(tensor, _forget(id(tensor))), mask)


def get_keras_mask(tensor):
    entry = _masks.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        return None
    return entry[1]


def any_masks():
    """False while no tensor carries a mask: the layer call's fast path skips all mask work."""
    return bool(_masks)


def propagate(layer, first_input, outputs, previous_mask):
    """After a call: the outputs carry compute_mask(inputs, previous mask) when the layer supports masking."""
    if not layer.supports_masking:
        return
    out_mask = layer.compute_mask(first_input, previous_mask)
    flat_out = nest.flatten(outputs)
    flat_mask = nest.flatten(out_mask) if isinstance(out_mask, (list, tuple)) else [out_mask] * len(flat_out)
    for tensor, mask in zip(flat_out, flat_mask):
        set_keras_mask(tensor, mask)


class Masking(Layer):
    """Marks time steps whose features all equal `mask_value` as skipped, and zeroes them."""
    supports_masking = True

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        return _reduce.reduce_any(_math.not_equal(inputs, _math.cast(self.mask_value, inputs.dtype)), axis=-1)

    def call(self, inputs):
        keep = _reduce.reduce_any(_math.not_equal(inputs, _math.cast(self.mask_value, inputs.dtype)), axis=-1,
                                  keepdims=True)
        return inputs * _math.cast(keep, inputs.dtype)

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}


def embedding_mask(inputs, mask_zero):
    if not mask_zero:
        return None
    return _math.not_equal(inputs, _array.zeros_like(inputs))
