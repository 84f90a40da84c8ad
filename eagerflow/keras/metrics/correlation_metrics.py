"""Keras 3.15's correlation metrics: `pearson_correlation` / PearsonCorrelation and
`concordance_correlation` / ConcordanceCorrelation, per sample along `axis`, averaged over samples.

Pearson: mean of the product of the two standardised signals. Concordance (Lin's CCC):
2 cov / (var_true + var_pred + (mean_true - mean_pred)^2 + 1e-7), where Keras forms the covariance
term from (y_true - mean_pred) * (y_pred - mean_pred); that is what Keras computes, so it is what
this computes.
"""
from __future__ import annotations

from ..._src.core.convert import convert_to_tensor
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..losses.loss import EPSILON, squeeze_or_expand_to_same_rank
from .reduction_metrics import MeanMetricWrapper


def _paired(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.dtype is not y_pred.dtype:
        y_true = _math.cast(y_true, y_pred.dtype)
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


def pearson_correlation(y_true, y_pred, axis=-1):
    y_true, y_pred = _paired(y_true, y_pred)
    t = y_true - _reduce.reduce_mean(y_true, axis=axis, keepdims=True)
    p = y_pred - _reduce.reduce_mean(y_pred, axis=axis, keepdims=True)
    t = t / _reduce.reduce_std(t, axis=axis, keepdims=True)
    p = p / _reduce.reduce_std(p, axis=axis, keepdims=True)
    return _reduce.reduce_mean(t * p, axis=axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    y_true, y_pred = _paired(y_true, y_pred)
    true_mean = _reduce.reduce_mean(y_true, axis=axis, keepdims=True)
    pred_mean = _reduce.reduce_mean(y_pred, axis=axis, keepdims=True)
    true_var = _reduce.reduce_variance(y_true - true_mean, axis=axis, keepdims=True)
    pred_var = _reduce.reduce_variance(y_pred - pred_mean, axis=axis, keepdims=True)
    covar = (y_true - pred_mean) * (y_pred - pred_mean)
    norm = true_var + pred_var + _math.square(true_mean - pred_mean)
    return _reduce.reduce_mean(2.0 * covar / (norm + EPSILON), axis=axis)


class _CorrelationMetric(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, fn, name, dtype=None, axis=-1):
        super().__init__(fn, name=name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "axis": self.axis}


class PearsonCorrelation(_CorrelationMetric):
    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name, dtype=dtype, axis=axis)


class ConcordanceCorrelation(_CorrelationMetric):
    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name, dtype=dtype, axis=axis)


CLASSES = (PearsonCorrelation, ConcordanceCorrelation)
