"""The rest of Keras 3's losses: regression (Huber, LogCosh, MAPE, MSLE, Poisson, CosineSimilarity),
distribution (KL divergence), margin (Hinge, SquaredHinge, CategoricalHinge), focal and overlap
(Dice, Tversky) losses.

Each is a per-sample function reducing the last axis (the function forms `keras.losses.huber`, ...)
and a `LossFunctionWrapper` class around it. Keras 3's details kept on purpose:
- hinge losses turn labels that are all 0 or 1 into -1/+1 first (the check covers the whole batch);
- KL divergence clips both sides to [1e-7, 1], Poisson adds 1e-7 inside the log, MAPE divides by
  max(|y_true|, 1e-7) (so zero targets give huge values, as in Keras), MSLE floors both at 1e-7;
- cosine similarity normalises with the inverse norm capped at 1 / 1e-7 and returns the negative;
- Huber's get_config holds only name and reduction (Keras 3.15 writes no `delta`).
"""
from __future__ import annotations

import math

from .._src.core.convert import convert_to_tensor
from .._src.ops import array as _array
from .._src.ops import math as _math
from .._src.ops import nn as _nn
from .._src.ops import reduce as _reduce
from .losses import EPSILON, LossFunctionWrapper, _float_pred, _tensor


def _pair(y_true, y_pred):
    y_pred = _float_pred(y_pred)
    return _tensor(y_true, y_pred.dtype), y_pred


def _mean_last(x):
    return _reduce.reduce_mean(x, axis=-1)


# --- regression ---
def huber(y_true, y_pred, delta=1.0):
    y_true, y_pred = _pair(y_true, y_pred)
    error = y_pred - y_true
    abs_error = _math.abs(error)
    quadratic = _math.square(error) * 0.5
    linear = abs_error * float(delta) - 0.5 * float(delta) ** 2
    return _mean_last(_array.where(_math.less_equal(abs_error, float(delta)), quadratic, linear))


def log_cosh(y_true, y_pred):
    """log(cosh(x)) written as x + softplus(-2x) - log 2, which stays finite for large |x|."""
    y_true, y_pred = _pair(y_true, y_pred)
    x = y_pred - y_true
    return _mean_last(x + _nn.softplus(x * -2.0) - math.log(2.0))


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    diff = _math.abs((y_true - y_pred) / _math.maximum(_math.abs(y_true), EPSILON))
    return _mean_last(diff) * 100.0


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    first = _math.log(_math.maximum(y_pred, EPSILON) + 1.0)
    second = _math.log(_math.maximum(y_true, EPSILON) + 1.0)
    return _mean_last(_math.square(first - second))


def poisson(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return _mean_last(y_pred - y_true * _math.log(y_pred + EPSILON))


def _l2_normalize(x, axis):
    inv_norm = _math.minimum(_math.rsqrt(_reduce.reduce_sum(_math.square(x), axis=axis, keepdims=True)),
                             1.0 / EPSILON)
    return x * inv_norm


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    return _math.negative(_reduce.reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis))


def kl_divergence(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _math.clip_by_value(y_true, EPSILON, 1.0)
    y_pred = _math.clip_by_value(y_pred, EPSILON, 1.0)
    return _reduce.reduce_sum(y_true * _math.log(y_true / y_pred), axis=-1)


# --- margin ---
def _hinge_labels(y_true):
    """0/1 labels become -1/+1 when every label is 0 or 1; other labels are used as given."""
    is_binary = _reduce.reduce_all(_math.logical_or(_math.equal(y_true, 0.0), _math.equal(y_true, 1.0)))
    return _array.where(is_binary, y_true * 2.0 - 1.0, y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return _mean_last(_math.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0))


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return _mean_last(_math.square(_math.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)))


def categorical_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    pos = _reduce.reduce_sum(y_true * y_pred, axis=-1)
    neg = _reduce.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return _math.maximum(neg - pos + 1.0, 0.0)


# --- focal ---
def _elementwise_bce(y_true, probs):
    p = _math.clip_by_value(probs, EPSILON, 1.0 - EPSILON)
    return _math.negative(y_true * _math.log(p) + (1.0 - y_true) * _math.log(1.0 - p))


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy scaled by (1 - p_t)^gamma, p_t the probability given to the true label
    (and by alpha / 1 - alpha per label with class balancing)."""
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = _math.sigmoid(y_pred)
    bce = _elementwise_bce(y_true, y_pred)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = _math.pow(1.0 - p_t, float(gamma)) * bce
    if apply_class_balancing:
        focal = (y_true * float(alpha) + (1.0 - y_true) * (1.0 - float(alpha))) * focal
    return _reduce.reduce_mean(focal, axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                                   axis=-1):
    """Categorical cross-entropy with each class term scaled by alpha * (1 - p)^gamma."""
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        n = _math.cast(_array.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / n
    if from_logits:
        y_pred = _nn.softmax(y_pred, axis=axis)
    probs = y_pred / _reduce.reduce_sum(y_pred, axis=axis, keepdims=True)
    probs = _math.clip_by_value(probs, EPSILON, 1.0 - EPSILON)
    cce = _math.negative(y_true * _math.log(probs))
    weight = _math.pow(1.0 - probs, float(gamma)) * float(alpha)
    return _reduce.reduce_sum(weight * cce, axis=axis)


# --- overlap (segmentation) ---
def dice(y_true, y_pred, axis=None):
    """1 - 2 |y_true * y_pred| / (|y_true| + |y_pred|), summed over `axis` (everything by default)."""
    y_true, y_pred = _pair(y_true, y_pred)
    intersection = _reduce.reduce_sum(y_true * y_pred, axis=axis)
    total = _reduce.reduce_sum(y_true, axis=axis) + _reduce.reduce_sum(y_pred, axis=axis)
    return 1.0 - intersection * 2.0 / (total + EPSILON)


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """1 - tp / (tp + alpha fp + beta fn) with soft counts: alpha weighs the false positives
    (labels 1 scored low) and beta the false negatives, as Keras names them."""
    y_true, y_pred = _pair(y_true, y_pred)
    intersection = _reduce.reduce_sum(y_true * y_pred, axis=axis)
    fp = _reduce.reduce_sum((1.0 - y_pred) * y_true, axis=axis)
    fn = _reduce.reduce_sum(y_pred * (1.0 - y_true), axis=axis)
    return 1.0 - intersection / (intersection + fp * float(alpha) + fn * float(beta) + EPSILON)


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


class Poisson(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(poisson, name=name, reduction=reduction)


class CosineSimilarity(LossFunctionWrapper):
    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity", dtype=None):
        super().__init__(cosine_similarity, name=name, reduction=reduction, axis=axis)


class KLDivergence(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, reduction=reduction)


class Hinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="hinge", dtype=None):
        super().__init__(hinge, name=name, reduction=reduction)


class SquaredHinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name=name, reduction=reduction)


class CategoricalHinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, name=name, reduction=reduction)


class _ConfiguredLoss(LossFunctionWrapper):
    """A loss whose get_config lists its function's settings after name and reduction (Keras 3)."""
    _config_keys = ()

    def get_config(self):
        return {**super().get_config(), **{k: self.kwargs[k] for k in self._config_keys}}


class BinaryFocalCrossentropy(_ConfiguredLoss):
    _config_keys = ("from_logits", "label_smoothing", "axis", "apply_class_balancing", "alpha", "gamma")

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                 axis=-1, reduction="sum_over_batch_size", name="binary_focal_crossentropy", dtype=None):
        super().__init__(binary_focal_crossentropy, name=name, reduction=reduction,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class CategoricalFocalCrossentropy(_ConfiguredLoss):
    _config_keys = ("from_logits", "label_smoothing", "axis", "alpha", "gamma")

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_focal_crossentropy", dtype=None):
        super().__init__(categorical_focal_crossentropy, name=name, reduction=reduction, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class Dice(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, name=name, reduction=reduction, axis=axis)
        self.axis = axis

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Tversky(LossFunctionWrapper):
    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size", name="tversky", axis=None, dtype=None):
        super().__init__(tversky, name=name, reduction=reduction, alpha=alpha, beta=beta, axis=axis)
        self.alpha, self.beta, self.axis = alpha, beta, axis

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha, "beta": self.beta, "axis": self.axis}


CLASSES = (Huber, LogCosh, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, Poisson, CosineSimilarity,
           KLDivergence, Hinge, SquaredHinge, CategoricalHinge, BinaryFocalCrossentropy, CategoricalFocalCrossentropy,
           Dice, Tversky)
FUNCTIONS = (huber, log_cosh, mean_absolute_percentage_error, mean_squared_logarithmic_error, poisson,
             cosine_similarity, kl_divergence, hinge, squared_hinge, categorical_hinge, binary_focal_crossentropy,
             categorical_focal_crossentropy, dice, tversky)
