"""Focal crossentropies (binary and categorical): crossentropy scaled down where the prediction is
already confident, so training concentrates on the hard examples."""
from __future__ import annotations

from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.nn import basic as _nn
from ..._src.ops.math import reduce as _reduce
from .loss import EPSILON, LossFunctionWrapper, float_pair


def _elementwise_bce(y_true, probs):
    p = _math.clip_by_value(probs, EPSILON, 1.0 - EPSILON)
    return _math.negative(y_true * _math.log(p) + (1.0 - y_true) * _math.log(1.0 - p))


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy scaled by (1 - p_t)^gamma, p_t the probability given to the true label
    (and by alpha / 1 - alpha per label with class balancing)."""
    y_true, y_pred = float_pair(y_true, y_pred)
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
    y_true, y_pred = float_pair(y_true, y_pred)
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
