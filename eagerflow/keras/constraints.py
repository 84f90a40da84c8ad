"""`keras.constraints`: projections applied to a weight after each optimizer update.

A weight made by `add_weight(constraint=...)` (or any tf.Variable created with `constraint=`) is
projected by the optimizer right after its update, as Keras 3's optimizer does. Formulas follow
Keras 3, with its epsilon 1e-7 in the norm divisions: MaxNorm scales columns (axis=0) whose L2 norm
exceeds max_value down to it, MinMaxNorm moves norms towards [min_value, max_value] at `rate`,
UnitNorm divides by the norm, NonNeg zeroes negative entries.
"""
from __future__ import annotations

from .._src.core.convert import convert_to_tensor
from .._src.ops.array import basic as _array
from .._src.ops.math import elementwise as _math
from .._src.ops.math import reduce as _reduce
from .saving.serialization import deserialize_keras_object, get_keras_object, serialize_keras_object

_MODULE = "keras.constraints"
_EPSILON = 1e-7


def _norms(w, axis):
    return _math.sqrt(_reduce.reduce_sum(_math.square(w), axis=axis, keepdims=True))


class Constraint:
    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = _math.clip_by_value(norms, _math.cast(0, w.dtype), _math.cast(self.max_value, w.dtype))
        return w * (desired / (_math.cast(_EPSILON, w.dtype) + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    def __call__(self, w):
        w = convert_to_tensor(w)
        return _array.where(_math.greater_equal(w, _math.cast(0, w.dtype)), w, _array.zeros_like(w))


class UnitNorm(Constraint):
    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = convert_to_tensor(w)
        return w / (_math.cast(_EPSILON, w.dtype) + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        w = convert_to_tensor(w)
        norms = _norms(w, self.axis)
        clipped = _math.clip_by_value(norms, _math.cast(self.min_value, w.dtype), _math.cast(self.max_value, w.dtype))
        desired = _math.cast(self.rate, w.dtype) * clipped + _math.cast(1 - self.rate, w.dtype) * norms
        return w * (desired / (_math.cast(_EPSILON, w.dtype) + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


max_norm, non_neg, unit_norm, min_max_norm = MaxNorm, NonNeg, UnitNorm, MinMaxNorm

_ALL = {c.__name__: c for c in (Constraint, MaxNorm, NonNeg, UnitNorm, MinMaxNorm)}
_ALL.update({"constraint": Constraint, "max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
             "min_max_norm": MinMaxNorm})


def serialize(constraint):
    return serialize_keras_object(constraint, _MODULE)


def deserialize(config, custom_objects=None):
    return deserialize_keras_object(config, _ALL, custom_objects, "constraint")


def get(identifier):
    return get_keras_object(identifier, _ALL, "constraint")
