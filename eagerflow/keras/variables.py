"""The weights a Keras layer owns: a tf.Variable that also knows Keras 3's short name and path.

Why a subclass: Keras 3 reports `kernel.name == "kernel"` and `kernel.path == "dense/kernel"`,
while a tf.Variable's name carries ":0". Everything else (ops, tapes, tf.function capture) treats
it as the tf.Variable it is.
"""
from __future__ import annotations

from .._src.ops.math.elementwise import cast
from .._src.state.variables import Variable
from .mixed_precision import autocast_dtype


class KerasVariable(Variable):
    def __init__(self, initial_value, trainable=True, name="variable", path=None, dtype=None, constraint=None,
                 regularizer=None):
        super().__init__(initial_value, trainable=trainable, name=name, dtype=dtype, constraint=constraint)
        self._keras_name = name
        self._path = path or name
        self.regularizer = regularizer  # evaluated by the owning layer's `losses` (Keras 3 keeps it on the weight)

    @property
    def name(self) -> str:
        return self._keras_name

    @property
    def constraint(self):
        return self._constraint

    @constraint.setter
    def constraint(self, value):
        self._constraint = value

    @property
    def path(self) -> str:
        return self._path

    @property
    def value_shape(self):
        return self._array.shape

    def _as_tensor(self):
        """The value; inside a mixed-precision layer's call, a float weight reads as the layer's compute
        dtype (keras/mixed_precision.py), so its gradient comes back through the Cast as float32."""
        value = Variable._as_tensor(self)
        target = autocast_dtype()
        if target is not None and target is not self._dtype and self._dtype.is_floating:
            return cast(value, target)
        return value

    def __repr__(self):
        return (f"<KerasVariable shape={tuple(self.shape.as_list())}, dtype={self.dtype.name}, "
                f"path={self._path}>")
