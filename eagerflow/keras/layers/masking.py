"""Keras masks: which time steps of a sequence are real, carried from layer to layer.

Keras 3 attaches a mask to the output tensor of a masking layer (Embedding(mask_zero=True),
Masking) and every later layer call that takes a `mask` argument receives it; layers that
`supports_masking` pass it on (through `compute_mask`), others drop it.

Why side tables: our tensors have fixed slots. An eager tensor's mask sits in a module table
reached through a weak reference to the tensor: the entry disappears when the tensor does (the
callback runs before the id can be reused), a lookup checks the reference still points at the very
tensor asked about, and an eager mask references nothing. A symbolic tensor's mask is symbolic too:
it references its graph, which holds the tensor, so it lives in a table owned by that graph (it goes
when the graph goes) instead of the module table, where it would keep its own key alive.
"""
from __future__ import annotations

import weakref

from ..._src.core import nest
from ..._src.core.tensor import Tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .base import Layer

_masks = {}  # id(eager tensor) -> (weakref to it, mask)
_used = [False]  # set by the first mask ever attached: until then layer calls skip mask work


def _graph_table(tensor):
    graph = getattr(tensor, "graph", None) if not hasattr(tensor, "_value") else None
    if graph is None:
        return None
    table = graph.__dict__.get("_keras_masks")
    if table is None:
        table = graph.__dict__["_keras_masks"] = {}
    return table


def _forget(key):
    def callback(_ref):
        _masks.pop(key, None)
    return callback


def set_keras_mask(tensor, mask):
    if not isinstance(tensor, Tensor):
        return
    graph_table = _graph_table(tensor)
    if graph_table is not None:
        if mask is None:
            graph_table.pop(id(tensor), None)
        else:
            graph_table[id(tensor)] = (tensor, mask)  # the graph holds the tensor anyway: no id reuse
            _used[0] = True
        return
    if mask is None:
        entry = _masks.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            del _masks[id(tensor)]
        return
    _masks[id(tensor)] = (weakref.ref(tensor, _forget(id(tensor))), mask)
    _used[0] = True


def get_keras_mask(tensor):
    graph_table = _graph_table(tensor)
    if graph_table is not None:
        entry = graph_table.get(id(tensor))
        return None if entry is None or entry[0] is not tensor else entry[1]
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
    return _used[0]


def propagate(layer, first_input, outputs, previous_mask):
    """After a call: the outputs carry compute_mask(inputs, previous mask) when the layer supports masking."""
    if not layer.supports_masking:
        return
    out_mask = layer.compute_mask(first_input, previous_mask)
    flat_out = nest.flatten(outputs, expand_composites=True)
    flat_mask = nest.flatten(out_mask, expand_composites=True) if isinstance(out_mask, (list,
                                                                                        tuple)) else [out_mask] * len(flat_out)
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
