"""The weights a Keras layer owns: a tf.Variable that also knows Keras 3's short name and path.

Why a subclass: Keras 3 reports `kernel.name == "kernel"` and `kernel.path == "dense/kernel"`,
while a tf.Variable's name carries ":0". Everything else (ops, tapes, tf.function capture) treats
it as the tf.Variable it is.
"""
from __future__ import annotations

from .._src.state.variables import Variable


class KerasVariable(Variable):
    def __init__(self, initial_value, trainable=True, name="variable", path=None, dtype=None):
        super().__init__(initial_value, trainable=trainable, name=name, dtype=dtype)
        self._keras_name = name
        self._path = path or name

    @property
    def name(self) -> str:
        return self._keras_name

    @property
    def path(self) -> str:
        return self._path

    @property
    def value_shape(self):
        return self._array.shape

    def __repr__(self):
        return (f"<KerasVariable shape={tuple(self.shape.as_list())}, dtype={self.dtype.name}, "
                f"path={self._path}>")
