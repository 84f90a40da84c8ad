"""Overlap losses for segmentation masks: Dice and Tversky, over soft counts of the true and
predicted positives."""
from __future__ import annotations

from ..._src.ops.math import reduce as _reduce
from .loss import EPSILON, LossFunctionWrapper, float_pair


def dice(y_true, y_pred, axis=None):
    """1 - 2 |y_true * y_pred| / (|y_true| + |y_pred|), summed over `axis` (everything by default)."""
    y_true, y_pred = float_pair(y_true, y_pred)
    intersection = _reduce.reduce_sum(y_true * y_pred, axis=axis)
    total = _reduce.reduce_sum(y_true, axis=axis) + _reduce.reduce_sum(y_pred, axis=axis)
    return 1.0 - intersection * 2.0 / (total + EPSILON)


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """1 - tp / (tp + alpha fp + beta fn) with soft counts: alpha weighs the false positives
    (labels 1 scored low) and beta the false negatives, as Keras names them."""
    y_true, y_pred = float_pair(y_true, y_pred)
    intersection = _reduce.reduce_sum(y_true * y_pred, axis=axis)
    fp = _reduce.reduce_sum((1.0 - y_pred) * y_true, axis=axis)
    fn = _reduce.reduce_sum(y_pred * (1.0 - y_true), axis=axis)
    return 1.0 - intersection / (intersection + fp * float(alpha) + fn * float(beta) + EPSILON)


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
