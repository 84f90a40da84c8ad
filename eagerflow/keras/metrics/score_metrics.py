"""Per-class score metrics: R2Score (coefficient of determination) and F1Score / FBetaScore.

Both size their variables from the first batch (one entry per class: the last axis), as Keras 3
does, so the variables are made by the first `update_state`. Keras 3.15's quirks kept on purpose:
R2Score's `num_samples` counts every element of y_true (not rows) for the adjusted score (left
unadjusted, without Keras' warning, when there are too few), and an
infinite per-class score (a constant target) counts as 0; F1 without a threshold marks each row's
largest prediction (when it is not zero) as the predicted class.
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..losses.loss import EPSILON, squeeze_or_expand_to_same_rank
from .metric import Metric


def _float(x):
    t = convert_to_tensor(x)
    return t if t.dtype is _dt.float32 else _math.cast(t, _dt.float32)


class R2Score(Metric):
    _direction = "up"

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        options = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in options:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of {options}. "
                             f"Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError(f"Invalid value for argument `num_regressors`. Expected a value >= 0. "
                             f"Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable(shape=(), initializer="zeros", name="num_samples")
        self._built = False

    def _build(self, y_pred_shape):
        if y_pred_shape.rank not in (1, 2) or y_pred_shape[-1] is None and y_pred_shape.rank == 2:
            raise ValueError(f"R2Score expects 2D inputs with shape (batch_size, output_dim). Received input "
                             f"shapes: y_pred.shape={y_pred_shape}.")
        n = 1 if y_pred_shape.rank == 1 else y_pred_shape[-1]
        self.squared_sum = self.add_variable(shape=(n,), initializer="zeros", name="squared_sum")
        self.sum = self.add_variable(shape=(n,), initializer="zeros", name="sum")
        self.total_mse = self.add_variable(shape=(n,), initializer="zeros", name="residual")
        self.count = self.add_variable(shape=(n,), initializer="zeros", name="count")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = squeeze_or_expand_to_same_rank(_float(y_true), _float(y_pred))
        if not self._built:
            self._build(y_pred.shape)
        weight = _float(1.0 if sample_weight is None else sample_weight)
        if weight.shape.rank == 1:
            weight = _array.expand_dims(weight, 1)
        weight = _array.broadcast_to(weight, _array.shape(y_true))
        weighted = y_true * weight
        self.sum.assign_add(_reduce.reduce_sum(weighted, axis=0))
        self.squared_sum.assign_add(_reduce.reduce_sum(y_true * weighted, axis=0))
        self.total_mse.assign_add(_reduce.reduce_sum(_math.square(y_true - y_pred) * weight, axis=0))
        self.count.assign_add(_reduce.reduce_sum(weight, axis=0))
        self.num_samples.assign_add(_math.cast(_array.size(y_true), _dt.float32))

    def result(self):
        if not self._built:
            return convert_to_tensor(0.0)
        total_sum, count = convert_to_tensor(self.sum), convert_to_tensor(self.count)
        mean = total_sum / count
        total = convert_to_tensor(self.squared_sum) - total_sum * mean
        raw = 1.0 - convert_to_tensor(self.total_mse) / total
        raw = _array.where(_math.is_inf(raw), _array.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            r2 = _reduce.reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            r2 = _reduce.reduce_sum(total * raw) / _reduce.reduce_sum(total)
        else:
            r2 = raw
        if self.num_regressors:  # adjusted R2, only when there are more data points than regressors + 1
            n = convert_to_tensor(self.num_samples)
            p = float(self.num_regressors)
            adjusted = 1.0 - (1.0 - r2) * ((n - 1.0) / (n - p - 1.0))
            r2 = _array.where(_math.greater(n - 1.0, p), adjusted, r2)
        return r2

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}


class FBetaScore(Metric):
    """(1 + beta^2) * precision * recall / (beta^2 * precision + recall), per class or averaged
    ('micro' pools the counts of every class, 'macro' averages the class scores, 'weighted' weighs
    them by each class's number of true labels)."""
    _direction = "up"

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError(f"Invalid `average` argument value. Expected one of: {{None, 'micro', 'macro', "
                             f"'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. Received: beta={beta} "
                             f"of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(f"Invalid `threshold` argument value. It should be a Python float. Received: "
                                 f"threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError(f"Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                                 f"Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, y_pred_shape):
        if y_pred_shape.rank != 2 or y_pred_shape[-1] is None:
            raise ValueError(f"FBetaScore expects 2D inputs with shape (batch_size, output_dim), with output_dim "
                             f"fully defined (not None). Received input shapes: y_pred.shape={y_pred_shape}.")
        shape = () if self.average == "micro" else (y_pred_shape[-1],)
        self.true_positives = self.add_variable(shape=shape, initializer="zeros", name="true_positives")
        self.false_positives = self.add_variable(shape=shape, initializer="zeros", name="false_positives")
        self.false_negatives = self.add_variable(shape=shape, initializer="zeros", name="false_negatives")
        self.intermediate_weights = self.add_variable(shape=shape, initializer="zeros", name="intermediate_weights")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _float(y_true), _float(y_pred)
        if not self._built:
            self._build(y_pred.shape)
        if self.threshold is None:
            top = _reduce.reduce_max(y_pred, axis=-1, keepdims=True)
            predicted = _math.logical_and(_math.greater_equal(y_pred, top), _math.greater(_math.abs(y_pred), 1e-9))
        else:
            predicted = _math.greater(y_pred, self.threshold)
        predicted = _math.cast(predicted, _dt.float32)
        weight = None if sample_weight is None else _array.expand_dims(_float(sample_weight), 1)

        def weighted_sum(values):
            if weight is not None:
                values = values * weight
            return _reduce.reduce_sum(values, axis=self.axis)

        self.true_positives.assign_add(weighted_sum(predicted * y_true))
        self.false_positives.assign_add(weighted_sum(predicted * (1.0 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1.0 - predicted) * y_true))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        if not self._built:
            return convert_to_tensor(0.0)
        tp = convert_to_tensor(self.true_positives)
        precision = tp / (tp + convert_to_tensor(self.false_positives) + EPSILON)
        recall = tp / (tp + convert_to_tensor(self.false_negatives) + EPSILON)
        b2 = self.beta ** 2
        score = precision * recall / (precision * b2 + recall + EPSILON) * (1.0 + b2)
        if self.average == "weighted":
            weights = convert_to_tensor(self.intermediate_weights)
            return _reduce.reduce_sum(score * (weights / (_reduce.reduce_sum(weights) + EPSILON)))
        if self.average is not None:
            return _reduce.reduce_mean(score)
        return score

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
