"""keras.Input and InputLayer: the symbolic starting point of a functional model.

A KerasTensor is a placeholder description (shape with None batch, dtype) that remembers which
layer call produced it (`_keras_history`), so `keras.Model(inputs, outputs)` can walk back from
the outputs to the inputs and replay the calls on real tensors.
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from .base import Layer


class Node:
    """One recorded layer call: the layer, its (nested) KerasTensor arguments and its outputs."""

    __slots__ = ("layer", "args", "kwargs", "outputs")

    def __init__(self, layer, args, kwargs, outputs):
        self.layer, self.args, self.kwargs, self.outputs = layer, args, kwargs, outputs


class KerasTensor:
    _counter = [0]

    def __init__(self, shape, dtype="float32", name=None):
        self.shape = tuple(shape)
        self.dtype = _dt.as_dtype(getattr(dtype, "name", dtype))
        if name is None:
            name = "keras_tensor" if not KerasTensor._counter[0] else f"keras_tensor_{KerasTensor._counter[0]}"
            KerasTensor._counter[0] += 1
        self.name = name
        self._keras_history = None  # the Node that produced this tensor

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype.name}, sparse=False, ragged=False, "
                f"name={self.name}>")


class InputLayer(Layer):
    def __init__(self, shape=None, batch_size=None, dtype=None, name=None, batch_shape=None, **kwargs):
        super().__init__(name=name, dtype=dtype, **kwargs)
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size,) + tuple(shape)
        self.batch_shape = tuple(batch_shape)
        self.output = KerasTensor(self.batch_shape, dtype=self._dtype, name=self.name)
        self.output._keras_history = Node(self, (), {}, [self.output])
        self.built = True
        self._last_output_shape = self.batch_shape

    def call(self, inputs):
        return inputs


def Input(shape=None, batch_size=None, dtype=None, name=None, batch_shape=None, sparse=None, tensor=None,
          optional=False):
    """`keras.Input(shape=(784,))`: a symbolic batch (None, 784) to build a functional model from."""
    return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, name=name, batch_shape=batch_shape).output
