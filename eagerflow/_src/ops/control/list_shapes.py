"""Element shapes of TensorLists as plain tuples: decoded from TensorFlow's int32 encoding, printed,
merged and compared. Shared by the NumPy kernels (lists.py) and the JAX lowerings (lists_jax.py).
"""
from __future__ import annotations

import numpy as np


def decode_shape(value):
    """An int32 element-shape value -> tuple with None dims, or None for an unknown rank."""
    value = np.asarray(value)
    if value.ndim == 0:
        return None  # -1: unknown rank
    return tuple(None if d < 0 else int(d) for d in value)


def format_shape(shape):
    return "<unknown>" if shape is None else "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def merge_shapes(a, b):
    """Merges two partial shapes; None when they conflict."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        return None
    out = []
    for x, y in zip(a, b):
        if x is not None and y is not None and x != y:
            return None
        out.append(x if x is not None else y)
    return tuple(out)


def compatible_shapes(a, b):
    return a is None or b is None or (len(a) == len(b) and all(x is None or y is None or x == y
                                                                for x, y in zip(a, b)))
