"""Regression losses: Huber, LogCosh, MeanAbsolutePercentageError, MeanSquaredLogarithmicError and
CosineSimilarity, each a per-sample function reducing the last axis (the function forms
`keras.losses.huber`, ...) and a `LossFunctionWrapper` class around it. Keras 3's details kept on purpose:
- MAPE divides by max(|y_true|, 1e-7) (so zero targets give huge values, as in Keras), MSLE floors
  both at 1e-7;
- cosine similarity normalises with the inverse norm capped at 1 / 1e-7 and returns the negative;
- Huber's get_config holds only name and reduction (Keras 3.15 writes no `delta`).
"""
from __future__ import annotations

import math

from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.nn import basic as _nn
from ..._src.ops.math import reduce as _reduce
from .loss import EPSILON, LossFunctionWrapper, float_pair, mean_over_last_axis


def huber(y_true, y_pred, delta=1.0):
    y_true, y_pred = float_pair(y_true, y_pred)
    error = y_pred - y_true
    abs_error = _math.abs(error)
    quadratic = _math.square(error) * 0.5
    linear = abs_error * float(delta) - 0.5 * float(delta) ** 2
    return mean_over_last_axis(_array.where(_math.less_equal(abs_error, float(delta)), quadratic, linear))


def log_cosh(y_true, y_pred):
    """log(cosh(x)) written as x + softplus(-2x) - log 2, which stays finite for large |x|."""
    y_true, y_pred = float_pair(y_true, y_pred)
    x = y_pred - y_true
    return mean_over_last_axis(x + _nn.softplus(x * -2.0) - math.log(2.0))


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = float_pair(y_true, y_pred)
    diff = _math.abs((y_true - y_pred) / _math.maximum(_math.abs(y_true), EPSILON))
    return mean_over_last_axis(diff) * 100.0


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = float_pair(y_true, y_pred)
    first = _math.log(_math.maximum(y_pred, EPSILON) + 1.0)
    second = _math.log(_math.maximum(y_true, EPSILON) + 1.0)
    return mean_over_last_axis(_math.square(first - second))


def l2_normalize(x, axis):
    inv_norm = _math.minimum(_math.rsqrt(_reduce.reduce_sum(_math.square(x), axis=axis, keepdims=True)),
                             1.0 / EPSILON)
    return x * inv_norm


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true, y_pred = float_pair(y_true, y_pred)
    return _math.negative(_reduce.reduce_sum(l2_normalize(y_true, axis) * l2_normalize(y_pred, axis), axis=axis))


# --- classes ---
class Huber(LossFunctionWrapper):
    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        super().__init__(huber, name=name, reduction=reduction, delta=delta)


class LogCosh(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="log_cosh", dtype=None):
        super().__init__(log_cosh, name=name, reduction=reduction)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, name=name, reduction=reduction)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, name=name, reduction=reduction)


class CosineSimilarity(LossFunctionWrapper):
    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity", dtype=None):
        super().__init__(cosine_similarity, name=name, reduction=reduction, axis=axis)


