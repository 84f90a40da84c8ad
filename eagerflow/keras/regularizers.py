"""`keras.regularizers`: penalties on a weight (or a layer's output) that training adds to the loss.

A weight made by `add_weight(regularizer=...)` keeps its regularizer; `layer.losses` evaluates it on
every read (so the value follows the weight), and fit/evaluate/train_on_batch add the sum of
`model.losses` to the compiled loss, as Keras 3 does. Numbers follow Keras 3: L1 = l1 * sum|w|,
L2 = l2 * sum(w^2); string names are the class names and their snake_case forms ('l1', 'l2';
'l1_l2' is not one, Keras 3 spells that class's snake_case 'l1l2').
"""
from __future__ import annotations

import math

from .._src.core import dtypes as _dt
from .._src.core.convert import convert_to_tensor
from .._src.ops.array import basic as _array
from .._src.ops.math import elementwise as _math
from .._src.ops.math import reduce as _reduce
from .._src.ops.linalg.matmul import matmul
from .._src.ops.linalg.matrix_parts import eye
from .saving.serialization import deserialize_keras_object, get_keras_object, serialize_keras_object

_MODULE = "keras.regularizers"


def _check_non_negative(value, name):
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    if not ok:
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative float.Received: {name}={value}")


def _as_float(x):
    x = convert_to_tensor(x)
    return x if x.dtype.is_floating else _math.cast(x, _dt.float32)


def _f32(value):
    """Keras 3 keeps L1's and OrthogonalRegularizer's factor as a float32 tensor: configs read it back so."""
    import numpy as np
    return float(np.float32(value))


class Regularizer:
    def __call__(self, x):
        return 0.0

    def get_config(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement get_config()")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1(Regularizer):
    def __init__(self, l1=0.01):
        l1 = 0.01 if l1 is None else l1
        _check_non_negative(l1, "l1")
        self.l1 = _f32(l1)

    def __call__(self, x):
        x = _as_float(x)
        return _math.cast(self.l1, x.dtype) * _reduce.reduce_sum(_math.abs(x))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    def __init__(self, l2=0.01):
        l2 = 0.01 if l2 is None else l2
        _check_non_negative(l2, "l2")
        self.l2 = l2

    def __call__(self, x):
        x = _as_float(x)
        return _math.cast(self.l2, x.dtype) * _reduce.reduce_sum(_math.square(x))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        l1 = 0.0 if l1 is None else l1
        l2 = 0.0 if l2 is None else l2
        _check_non_negative(l1, "l1")
        _check_non_negative(l2, "l2")
        self.l1, self.l2 = l1, l2

    def __call__(self, x):
        x = _as_float(x)
        total = _array.zeros([], x.dtype)
        if self.l1:
            total = total + _math.cast(self.l1, x.dtype) * _reduce.reduce_sum(_math.abs(x))
        if self.l2:
            total = total + _math.cast(self.l2, x.dtype) * _reduce.reduce_sum(_math.square(x))
        return total

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class OrthogonalRegularizer(Regularizer):
    """factor * mean |cos| between distinct rows (mode='rows') or columns of a rank-2 weight."""

    def __init__(self, factor=0.01, mode="rows"):
        _check_non_negative(factor, "factor")
        if mode not in ("rows", "columns"):
            raise ValueError(f'Invalid value for argument `mode`. Expected one of {{"rows", "columns"}}. '
                             f"Received: mode={mode}")
        self.factor, self.mode = _f32(factor), mode

    def __call__(self, x):
        x = _as_float(x)
        if x.shape.rank != 2:
            raise ValueError(f"Inputs to OrthogonalRegularizer must have rank 2. Received: "
                             f"inputs.shape={tuple(x.shape.as_list())}")
        axis = 1 if self.mode == "rows" else 0
        unit = x / _math.sqrt(_reduce.reduce_sum(_math.square(x), axis=axis, keepdims=True))
        if self.mode == "rows":
            product, size = matmul(unit, unit, transpose_b=True), int(x.shape[0])
        else:
            product, size = matmul(unit, unit, transpose_a=True), int(x.shape[1])
        off_diagonal = product * (1.0 - eye(size, dtype=x.dtype))
        pairs = size * (size - 1.0) / 2.0
        return _math.cast(self.factor * 0.5 / pairs, x.dtype) * _reduce.reduce_sum(_math.abs(off_diagonal))

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


l1, l2, l1l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer
l1_l2 = L1L2  # the module attribute exists in Keras 3; the string 'l1_l2' does not resolve (see module doc)

_ALL = {c.__name__: c for c in (Regularizer, L1, L2, L1L2, OrthogonalRegularizer)}
_ALL.update({"regularizer": Regularizer, "l1": L1, "l2": L2, "l1l2": L1L2,
             "orthogonal_regularizer": OrthogonalRegularizer})


def serialize(regularizer):
    return serialize_keras_object(regularizer, _MODULE)


def deserialize(config, custom_objects=None):
    return deserialize_keras_object(config, _ALL, custom_objects, "regularizer")


def get(identifier):
    return get_keras_object(identifier, _ALL, "regularizer")
