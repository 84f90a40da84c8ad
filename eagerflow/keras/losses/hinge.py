"""Margin losses: Hinge, SquaredHinge, CategoricalHinge. Labels that are all 0 or 1 become -1/+1
first, as Keras 3 does (the check covers the whole batch)."""
from __future__ import annotations

from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .loss import LossFunctionWrapper, mean_over_last_axis, float_pair


def _hinge_labels(y_true):
    """0/1 labels become -1/+1 when every label is 0 or 1; other labels are used as given."""
    is_binary = _reduce.reduce_all(_math.logical_or(_math.equal(y_true, 0.0), _math.equal(y_true, 1.0)))
    return _array.where(is_binary, y_true * 2.0 - 1.0, y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = float_pair(y_true, y_pred)
    return mean_over_last_axis(_math.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0))


def squared_hinge(y_true, y_pred):
    y_true, y_pred = float_pair(y_true, y_pred)
    return mean_over_last_axis(_math.square(_math.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)))


def categorical_hinge(y_true, y_pred):
    y_true, y_pred = float_pair(y_true, y_pred)
    pos = _reduce.reduce_sum(y_true * y_pred, axis=-1)
    neg = _reduce.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return _math.maximum(neg - pos + 1.0, 0.0)


class Hinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="hinge", dtype=None):
        super().__init__(hinge, name=name, reduction=reduction)


class SquaredHinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name=name, reduction=reduction)


class CategoricalHinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, name=name, reduction=reduction)
