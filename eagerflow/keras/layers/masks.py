"""Keras masks: which time steps of a sequence are real, carried from layer to layer.

Keras 3 attaches a mask to the output tensor of a masking layer (Embedding(mask_zero=True),
Masking) and every later layer call that takes a `mask` argument receives it; layers that
`supports_masking` pass it on (through `compute_mask`), others drop it.

Where a mask lives:
- a symbolic tensor carries its mask in its `_keras_mask` slot, as Keras tensors do. The mask is
  symbolic too and references the tensor's graph, so a table outside the tensor would keep its own
  key alive; on the tensor, mask and tensor go together;
- an eager tensor's mask sits in this module's weak side table (eager tensors stay lean: no slot),
  reached through a weak reference to the tensor: the entry disappears when the tensor does (the
  callback runs before the id can be reused), a lookup checks the reference still points at the very
  tensor asked about, and an eager mask references nothing.
"""
from __future__ import annotations

import weakref

from ..._src.core import nest
from ..._src.core.tensor import Tensor
from ..._src.graph.graph import SymbolicTensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math

_masks = {}  # id(eager tensor) -> (weakref to it, mask)
_any_mask_set = False  # until the first mask is attached, layer calls skip all mask work


def _forget(key):
    def callback(_ref):
        _masks.pop(key, None)
    return callback


def set_keras_mask(tensor, mask):
    global _any_mask_set
    if not isinstance(tensor, Tensor):
        return
    if mask is not None:
        _any_mask_set = True
    if isinstance(tensor, SymbolicTensor):
        tensor._keras_mask = mask
        return
    if mask is None:
        entry = _masks.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            del _masks[id(tensor)]
        return
    _masks[id(tensor)] = (weakref.ref(tensor, _forget(id(tensor))), mask)


def get_keras_mask(tensor):
    if isinstance(tensor, SymbolicTensor):
        return getattr(tensor, "_keras_mask", None)
    entry = _masks.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        return None
    return entry[1]


def previous_mask(first_input):
    """The mask of a layer's first input; for a list of tensors (merge layers), the list of their masks
    (None when none has one)."""
    if isinstance(first_input, Tensor):
        return get_keras_mask(first_input)
    if isinstance(first_input, (list, tuple)):
        masks = [get_keras_mask(t) if isinstance(t, Tensor) else None for t in first_input]
        return masks if any(m is not None for m in masks) else None
    return None


def any_masks():
    """False until some tensor got a mask: the layer call's fast path skips all mask work."""
    return _any_mask_set


def propagate(layer, first_input, outputs, previous_mask):
    """After a call: the outputs carry compute_mask(inputs, previous mask) when the layer supports masking."""
    if not layer.supports_masking:
        return
    out_mask = layer.compute_mask(first_input, previous_mask)
    flat_out = nest.flatten(outputs, expand_composites=True)
    if isinstance(out_mask, (list, tuple)):
        flat_mask = nest.flatten(out_mask, expand_composites=True)
    else:
        flat_mask = [out_mask] * len(flat_out)
    for tensor, mask in zip(flat_out, flat_mask):
        set_keras_mask(tensor, mask)


def embedding_mask(inputs, mask_zero):
    """Embedding(mask_zero=True)'s mask: the ids that are not 0."""
    if not mask_zero:
        return None
    return _math.not_equal(inputs, _array.zeros_like(inputs))
