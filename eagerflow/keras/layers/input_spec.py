"""Keras 3's InputSpec rank check, with its message: the layers that accept only one rank say so
before they compute anything."""
from __future__ import annotations


def check_ndim(layer, inputs, ndim=None, min_ndim=None):
    shape = inputs.shape.as_list() if hasattr(inputs.shape, "as_list") else list(inputs.shape)
    rank = len(shape)
    if ndim is not None and rank != ndim:
        expected = f"ndim={ndim}"
    elif min_ndim is not None and rank < min_ndim:
        expected = f"min_ndim={min_ndim}"
    else:
        return
    raise ValueError(f"Input 0 with name 'None' of layer '{layer.name}' is incompatible with the layer: expected "
                     f"{expected}, found ndim={rank}. Full shape received: {tuple(shape)}")
