"""KerasTensor: a placeholder description (shape with None batch, dtype) that remembers which
layer call produced it (`_keras_history`, a Node), so `keras.Model(inputs, outputs)` can walk back from
the outputs to the inputs and replay the calls on real tensors."""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..naming import unique_name


class Node:
    """One recorded layer call: the layer, its (nested) KerasTensor arguments and its outputs."""

    __slots__ = ("layer", "args", "kwargs", "outputs")

    def __init__(self, layer, args, kwargs, outputs):
        self.layer, self.args, self.kwargs, self.outputs = layer, args, kwargs, outputs


class KerasTensor:
    def __init__(self, shape, dtype="float32", name=None):
        self.shape = tuple(shape)
        self.dtype = _dt.as_dtype(getattr(dtype, "name", dtype))
        # Unnamed: keras_tensor, keras_tensor_1, ... counted with the layers' names, so that
        # keras.backend.clear_session() starts them over (Keras 3).
        self.name = unique_name("keras_tensor") if name is None else name
        self._keras_history = None  # the Node that produced this tensor

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype.name}, sparse=False, ragged=False, "
                f"name={self.name}>")
