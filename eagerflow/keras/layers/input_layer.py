"""keras.Input and InputLayer: the symbolic starting point of a functional model.

A KerasTensor is a placeholder description (shape with None batch, dtype) that remembers which
layer call produced it (`_keras_history`), so `keras.Model(inputs, outputs)` can walk back from
the outputs to the inputs and replay the calls on real tensors.
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..naming import unique_name
from .base import Layer


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


class InputLayer(Layer):
    def __init__(self, shape=None, batch_size=None, dtype=None, name=None, batch_shape=None, **kwargs):
        for k in ("sparse", "ragged", "optional"):
            if kwargs.pop(k, False):
                raise NotImplementedError(f"InputLayer({k}=True) is not supported yet.")
        super().__init__(name=name, dtype=dtype, **kwargs)
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size,) + tuple(shape)
        self.batch_shape = tuple(batch_shape)
        self.output = KerasTensor(self.batch_shape, dtype=self._dtype, name=name)  # unnamed: keras_tensor_N, as Keras 3
        self.output._keras_history = Node(self, (), {}, [self.output])
        self.built = True
        self._last_output_shape = self.batch_shape

    def call(self, inputs):
        return inputs

    def get_config(self):
        return {"batch_shape": list(self.batch_shape), "dtype": self.dtype, "sparse": False, "ragged": False,
                "name": self.name, "optional": False}


def Input(shape=None, batch_size=None, dtype=None, name=None, batch_shape=None, sparse=None, tensor=None,
          optional=False):
    """`keras.Input(shape=(784,))`: a symbolic batch (None, 784) to build a functional model from."""
    return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, name=name, batch_shape=batch_shape).output
