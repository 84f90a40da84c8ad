"""Const, the op of `tf.constant`: a tensor whose value is an attribute (in a graph, a `Const` node).

Its own module because `tf.constant`'s argument checks (a tensor of another dtype, a symbolic
tensor, a `shape` that fills or reshapes the value) are TensorFlow's in two wordings, eager and
graph, and read apart from the ops that compute.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.convert import to_array
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value

Const = defop("Const", inputs=(), grad=NO_GRADIENT, kernel=lambda value, dtype: value,
              infer=lambda inputs, attrs: [Spec(TensorShape(attrs["value"].shape), attrs["dtype"])],
              doc="A constant; its value is an attribute (in a graph: a `Const` node).")


def _value_text(t) -> str:
    value = static_value(t)
    return str(value) if value is not None else repr(t)


def constant(value, dtype=None, shape=None, name="Const"):
    """`tf.constant`: a tensor from a Python or NumPy value (always a copy), optionally cast to
    `dtype` and filled or reshaped to `shape`."""
    dtype = None if dtype is None else _dt.as_dtype(dtype)
    if isinstance(value, Tensor) or hasattr(type(value), "_as_tensor"):
        t = as_tensor(value)
        if isinstance(value, Tensor) and dtype is not None and t.dtype is not dtype:
            # TensorFlow refuses to reinterpret a tensor here (a Variable, read, is cast: as TF does)
            raise TypeError(f"Expected tensor {_value_text(t)} with dtype {dtype!r}, but got dtype {t.dtype!r}.")
        arr = static_value(t)
        if arr is None:
            raise TypeError("tf.constant needs a concrete value; got a symbolic tensor (use tf.identity)")
        arr = np.array(arr)
        if dtype is not None:
            arr = arr.astype(dtype.np_dtype)
    else:
        arr = to_array(value, dtype, strict=True) if dtype is not None else to_array(value)
    if shape is not None:
        target = tuple(int(d) for d in shape)
        negative = [d for d in target if d < 0]
        if negative:
            raise ValueError(f"Dimension {negative[0]} must be >= 0")
        if arr.size == 1:
            arr = np.full(target, arr.reshape(()), dtype=arr.dtype)
        elif arr.size == int(np.prod(target)):
            arr = arr.reshape(target)
        elif state.graph is not None:
            raise TypeError(f"Expected Tensor's shape: {target}, but got {arr.shape}.")
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {arr} (converted "
                            f"from {value!r}) has {arr.size} elements, but got `shape` {tuple(target)} with "
                            f"{int(np.prod(target))} elements).")
    # traced, a name of the caller's names the node as in TensorFlow ("five:0"); the default keeps auto-naming
    return bind(Const, (), {"value": arr, "dtype": _dt.from_numpy(arr.dtype)},
                name if name and name != "Const" and state.graph is not None else None)
