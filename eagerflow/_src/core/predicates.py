"""`tf.is_tensor`: True for tensors and tensor-like objects (Variables), False for NumPy arrays and
Python values, as in TensorFlow."""
from __future__ import annotations

from .tensor import Tensor


def is_tensor(x) -> bool:
    return isinstance(x, Tensor) or hasattr(type(x), "_as_tensor")
