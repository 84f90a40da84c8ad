"""Losses between distributions: Poisson (1e-7 added inside the log) and KL divergence (both sides
clipped to [1e-7, 1]), as Keras 3 computes them."""
from __future__ import annotations

from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .loss import EPSILON, LossFunctionWrapper, mean_over_last_axis, float_pair


def poisson(y_true, y_pred):
    y_true, y_pred = float_pair(y_true, y_pred)
    return mean_over_last_axis(y_pred - y_true * _math.log(y_pred + EPSILON))


def kl_divergence(y_true, y_pred):
    y_true, y_pred = float_pair(y_true, y_pred)
    y_true = _math.clip_by_value(y_true, EPSILON, 1.0)
    y_pred = _math.clip_by_value(y_pred, EPSILON, 1.0)
    return _reduce.reduce_sum(y_true * _math.log(y_true / y_pred), axis=-1)


class Poisson(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(poisson, name=name, reduction=reduction)


class KLDivergence(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, reduction=reduction)
