"""Threshold metrics: AUC (ROC/PR curves by Riemann sums), Precision and Recall.

Each keeps per-threshold confusion counts (true/false positives/negatives) in non-trainable
variables, so update_state runs eagerly and inside fit's compiled step. A prediction counts as
positive at threshold t when it is strictly above t; labels count as positive when non-zero.
AUC's thresholds are Keras 3's: num_thresholds evenly spaced points with the ends nudged to
-1e-7 and 1 + 1e-7 so predictions of exactly 0 and 1 land inside. The PR curve with
'interpolation' uses the Davis & Goadrich (2006) interpolation, as Keras does.
"""
from __future__ import annotations

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .metric import Metric
from ..naming import to_snake_case, unique_name

_EPSILON = 1e-7


def confusion_updates(y_true, y_pred, thresholds, sample_weight, from_logits=False):
    """(tp, fp, tn, fn) increments, one per threshold, for flattened labels and predictions."""
    y_pred = convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = _math.cast(y_pred, _dt.float32)
    if from_logits:
        y_pred = _math.sigmoid(y_pred)
    preds = _array.reshape(_math.cast(y_pred, _dt.float32), [-1, 1])
    labels = _array.reshape(_math.not_equal(convert_to_tensor(y_true), _math.cast(0, convert_to_tensor(y_true).dtype)),
                            [-1, 1])
    above = _math.greater(preds, _array.constant(np.asarray(thresholds, np.float32).reshape(1, -1)))
    pos = _math.cast(labels, _dt.float32)
    neg = 1.0 - pos
    pred_pos = _math.cast(above, _dt.float32)
    pred_neg = 1.0 - pred_pos
    if sample_weight is not None:
        w = _math.cast(convert_to_tensor(sample_weight), _dt.float32)
        w = _array.reshape(_array.broadcast_to(w, _array.shape(y_pred)), [-1, 1])
        pos, neg = pos * w, neg * w
    return (_reduce.reduce_sum(pos * pred_pos, axis=0), _reduce.reduce_sum(neg * pred_pos, axis=0),
            _reduce.reduce_sum(neg * pred_neg, axis=0), _reduce.reduce_sum(pos * pred_neg, axis=0))


class AUC(Metric):
    _direction = "up"

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        if multi_label or label_weights is not None:
            raise NotImplementedError("AUC(multi_label=True / label_weights) is not supported yet.")
        if curve not in ("ROC", "PR", "PRGAIN") or curve == "PRGAIN":
            if curve != "PRGAIN":
                raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["PR", "ROC", "PRGAIN"]')
            raise NotImplementedError("AUC(curve='PRGAIN') is not supported yet.")
        if summation_method not in ("interpolation", "majoring", "minoring"):
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". Expected values are '
                             f'["interpolation", "majoring", "minoring"]')
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
            num_thresholds = len(inner) + 2
        else:
            if not isinstance(num_thresholds, int) or num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        super().__init__(name=name or unique_name("auc"), dtype=dtype)
        self.num_thresholds, self.curve, self.summation_method = num_thresholds, curve, summation_method
        self.multi_label, self.num_labels, self.label_weights, self._from_logits = multi_label, num_labels, None, \
            from_logits
        self._thresholds = [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]
        shape = (num_thresholds,)
        self.true_positives = self.add_variable(shape=shape, initializer="zeros", name="true_positives")
        self.false_positives = self.add_variable(shape=shape, initializer="zeros", name="false_positives")
        self.true_negatives = self.add_variable(shape=shape, initializer="zeros", name="true_negatives")
        self.false_negatives = self.add_variable(shape=shape, initializer="zeros", name="false_negatives")

    @property
    def thresholds(self):
        return list(self._thresholds)

    def update_state(self, y_true, y_pred, sample_weight=None):
        tp, fp, tn, fn = confusion_updates(y_true, y_pred, self._thresholds, sample_weight, self._from_logits)
        self.true_positives.assign_add(tp)
        self.false_positives.assign_add(fp)
        self.true_negatives.assign_add(tn)
        self.false_negatives.assign_add(fn)

    def _interpolate_pr_auc(self):
        n = self.num_thresholds
        tp, fp, fn = (convert_to_tensor(v) for v in (self.true_positives, self.false_positives, self.false_negatives))
        dtp = tp[:n - 1] - tp[1:]
        p = tp + fp
        dp = p[:n - 1] - p[1:]
        slope = _math.div_no_nan(dtp, _math.maximum(dp, 0.0))
        intercept = tp[1:] - slope * p[1:]
        both = _math.logical_and(_math.greater(p[:n - 1], 0.0), _math.greater(p[1:], 0.0))
        ratio = _array.where(both, _math.div_no_nan(p[:n - 1], _math.maximum(p[1:], 0.0)), _array.ones_like(p[1:]))
        increments = _math.div_no_nan(slope * (dtp + intercept * _math.log(ratio)),
                                      _math.maximum(tp[1:] + fn[1:], 0.0))
        return _reduce.reduce_sum(increments)

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc()
        n = self.num_thresholds
        tp, fp, tn, fn = (convert_to_tensor(v) for v in (self.true_positives, self.false_positives,
                                                         self.true_negatives, self.false_negatives))
        recall = _math.div_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _math.div_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, _math.div_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = _math.minimum(y[:n - 1], y[1:])
        else:
            heights = _math.maximum(y[:n - 1], y[1:])
        return _reduce.reduce_sum((x[:n - 1] - x[1:]) * heights)

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "num_thresholds": self.num_thresholds, "curve": self.curve,
                "summation_method": self.summation_method, "multi_label": self.multi_label,
                "num_labels": self.num_labels, "label_weights": self.label_weights, "from_logits": self._from_logits}


class _ThresholdRatio(Metric):
    """tp / (tp + other) at each threshold (0.5 by default); a scalar for one threshold."""
    _direction = "up"
    _other = None

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        if top_k is not None or class_id is not None:
            raise NotImplementedError(f"{type(self).__name__}(top_k=..., class_id=...) is not supported yet.")
        super().__init__(name=name or unique_name(type(self).__name__.lower()), dtype=dtype)
        self.init_thresholds = thresholds
        self._single = thresholds is None or np.ndim(thresholds) == 0
        self._thresholds = [0.5 if thresholds is None else float(thresholds)] if self._single else \
            [float(t) for t in thresholds]
        self.true_positives = self.add_variable(shape=(len(self._thresholds),), initializer="zeros",
                                                name="true_positives")
        self._other_counts = self.add_variable(shape=(len(self._thresholds),), initializer="zeros",
                                                name=self._other)

    def update_state(self, y_true, y_pred, sample_weight=None):
        tp, fp, _, fn = confusion_updates(y_true, y_pred, self._thresholds, sample_weight)
        self.true_positives.assign_add(tp)
        self._other_counts.assign_add(fp if self._other == "false_positives" else fn)

    def result(self):
        tp = convert_to_tensor(self.true_positives)
        value = _math.div_no_nan(tp, tp + convert_to_tensor(self._other_counts))
        return value[0] if self._single else value

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "thresholds": self.init_thresholds, "top_k": None,
                "class_id": None}


class Precision(_ThresholdRatio):
    _other = "false_positives"


class Recall(_ThresholdRatio):
    _other = "false_negatives"


class _ConfusionCount(Metric):
    """One confusion count (weighted) at each threshold, 0.5 by default; a scalar for one threshold."""
    _position = None  # index into confusion_updates' (tp, fp, tn, fn)

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name or unique_name(to_snake_case(type(self).__name__)), dtype=dtype)
        self.init_thresholds = thresholds
        self._single = thresholds is None or np.ndim(thresholds) == 0
        self._thresholds = [0.5 if thresholds is None else float(thresholds)] if self._single else \
            [float(t) for t in thresholds]
        self.accumulator = self.add_variable(shape=(len(self._thresholds),), initializer="zeros",
                                             name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.accumulator.assign_add(confusion_updates(y_true, y_pred, self._thresholds, sample_weight)[self._position])

    def result(self):
        value = convert_to_tensor(self.accumulator)
        return value[0] if self._single else value

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "thresholds": self.init_thresholds}


class TruePositives(_ConfusionCount):
    _position = 0


class FalsePositives(_ConfusionCount):
    _position = 1


class TrueNegatives(_ConfusionCount):
    _position = 2


class FalseNegatives(_ConfusionCount):
    _position = 3
