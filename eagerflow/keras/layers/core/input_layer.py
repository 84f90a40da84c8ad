"""keras.Input and InputLayer: the symbolic starting point of a functional model (its KerasTensor
is in keras_tensor.py)."""
from __future__ import annotations

import warnings

from ..base import Layer
from ..keras_tensor import KerasTensor, Node


class InputLayer(Layer):
    def __init__(self, shape=None, batch_size=None, dtype=None, name=None, batch_shape=None, **kwargs):
        for k in ("sparse", "ragged", "optional"):
            if kwargs.pop(k, False):
                raise NotImplementedError(f"InputLayer({k}=True) is not supported yet.")
        if "input_shape" in kwargs:  # Keras 3 still takes its Keras 2 names, with a warning for this one
            warnings.warn("Argument `input_shape` is deprecated. Use `shape` instead.", stacklevel=2)
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs:
            batch_shape = kwargs.pop("batch_input_shape")
        super().__init__(name=name, dtype=dtype, **kwargs)
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size,) + tuple(shape)
        self.batch_shape = tuple(batch_shape)
        # unnamed or named "": keras_tensor_N, as Keras 3
        output = KerasTensor(self.batch_shape, dtype=self._dtype, name=name or None)
        output._keras_history = Node(self, (), {}, [output])  # `self.output` reads it (Layer.output)
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
