"""Regression metrics: the running mean of Keras' regression errors, CosineSimilarity (the similarity
itself; the loss is its negative) and RootMeanSquaredError (the square root of the running mean)."""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..losses import (log_cosh, mean_absolute_error, mean_absolute_percentage_error, mean_squared_error,
                      mean_squared_logarithmic_error)
from ..losses.regression import l2_normalize
from .metric import NamedMetric
from .reduction_metrics import PairedMeanMetricWrapper, mean_metric_class



def cosine_similarity(y_true, y_pred, axis=-1):
    y_pred = convert_to_tensor(y_pred)
    y_pred = y_pred if y_pred.dtype.is_floating else _math.cast(y_pred, _dt.float32)
    y_true = _math.cast(convert_to_tensor(y_true), y_pred.dtype)
    return _reduce.reduce_sum(l2_normalize(y_true, axis) * l2_normalize(y_pred, axis), axis=axis)


MeanSquaredError = mean_metric_class("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = mean_metric_class("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = mean_metric_class("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = mean_metric_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")
LogCoshError = mean_metric_class("LogCoshError", log_cosh, "logcosh")


class CosineSimilarity(NamedMetric, PairedMeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)


class RootMeanSquaredError(NamedMetric, PairedMeanMetricWrapper):
    """sqrt of the running mean of each sample's mean squared error."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, dtype=dtype)

    def result(self):
        return _math.sqrt(super().result())


