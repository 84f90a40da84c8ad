"""`keras.metrics`: running statistics kept in non-trainable variables, so `update_state` works
eagerly and inside the tf.function that fit compiles (the variables are created with the metric,
outside any trace)."""
from __future__ import annotations

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.convert import convert_to_tensor
from .._src.ops import array as _array
from .._src.ops import math as _math
from .._src.ops import reduce as _reduce
from .losses import mean_absolute_error, mean_squared_error, squeeze_or_expand_to_same_rank
from .naming import to_snake_case
from .variables import KerasVariable


class Metric:
    _direction = None  # 'up' or 'down': which way is better (monitoring callbacks in mode='auto' read it)

    def __init__(self, name=None, dtype=None):
        self.name = name or to_snake_case(type(self).__name__)
        self._dtype = _dt.float32
        self._metric_variables = []

    def add_variable(self, name, shape=(), initializer="zeros", dtype=None):  # noqa: ARG002
        """A zero-filled state variable named as Keras 3 names it: `name` is "total", `path` is
        "<metric name>/total" (the metric's name when the variable is made)."""
        dtype = _dt.as_dtype(dtype or "float32")
        v = KerasVariable(np.zeros(shape, dtype.np_dtype), trainable=False, name=name, path=f"{self.name}/{name}",
                          dtype=dtype)
        self._metric_variables.append(v)
        return v

    @property
    def variables(self):
        return list(self._metric_variables)

    def reset_state(self):
        for v in self._metric_variables:
            v.assign(np.zeros(v.shape.as_list(), v.dtype.np_dtype))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Mean(Metric):
    """The weighted mean of every value passed to `update_state`, by sample: as in Keras 3, values of
    rank > 1 are first averaged over their trailing axes (one value per row of the batch), so
    `count` grows by the number of rows (or the sum of their weights), not of elements."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable("total")
        self.count = self.add_variable("count")

    def update_state(self, values, sample_weight=None):
        values = convert_to_tensor(values)
        if values.dtype is not _dt.float32:
            values = _math.cast(values, _dt.float32)
        if sample_weight is None:
            if values.shape.rank is not None and values.shape.rank > 1:
                values = _reduce.reduce_mean(values, axis=list(range(1, values.shape.rank)))
            self.total.assign_add(_reduce.reduce_sum(values))
            self.count.assign_add(_math.cast(_array.size(values), _dt.float32))
            return
        sw = _math.cast(convert_to_tensor(sample_weight), _dt.float32)
        if values.shape.rank == 0 and sw.shape.rank == 0:  # fit's loss tracker: one op per variable, no sums
            self.total.assign_add(values * sw)
            self.count.assign_add(sw)
            return
        values, sw = _samplewise(values, sw)
        self.total.assign_add(_reduce.reduce_sum(values))
        self.count.assign_add(_reduce.reduce_sum(sw))

    def result(self):
        return _math.div_no_nan(self.total, self.count)


def _samplewise(values, sw):
    """(weighted values, weights), one per row: weights paired with the values by rank, values
    averaged down to the weights' rank, weights broadcast over them, then both averaged over the
    trailing axes (Keras 3's reduction of a batch to per-sample values)."""
    values, sw = squeeze_or_expand_to_same_rank(values, sw)
    v_rank, w_rank = values.shape.rank, sw.shape.rank
    if v_rank is not None and w_rank is not None and v_rank > w_rank:
        values = _reduce.reduce_mean(values, axis=list(range(w_rank, v_rank)))
    sw = _array.broadcast_to(sw, _array.shape(values))
    values = values * sw
    if w_rank is not None and w_rank > 1:
        sw = _reduce.reduce_mean(sw, axis=list(range(1, w_rank)))
    if values.shape.rank is not None and values.shape.rank > 1:
        values = _reduce.reduce_mean(values, axis=list(range(1, values.shape.rank)))
    return values, sw


class Sum(Metric):
    """The (weighted) sum of every value passed to `update_state`."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable("total")

    def update_state(self, values, sample_weight=None):
        values = _math.cast(convert_to_tensor(values), _dt.float32)
        if sample_weight is not None:
            sw = _math.cast(convert_to_tensor(sample_weight), _dt.float32)
            values, sw = squeeze_or_expand_to_same_rank(values, sw)
            if values.shape.rank is not None and sw.shape.rank is not None and values.shape.rank > sw.shape.rank:
                values = _reduce.reduce_sum(values, axis=list(range(sw.shape.rank, values.shape.rank)))
            values = values * sw
        self.total.assign_add(_reduce.reduce_sum(values))

    def result(self):
        return convert_to_tensor(self.total)

    def get_config(self):
        return {"name": self.name, "dtype": "float32"}


class MeanMetricWrapper(Mean):
    """The mean of `fn(y_true, y_pred)` over every sample seen."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or fn.__name__, dtype=dtype)
        self._fn, self._fn_kwargs = fn, kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)


def _labels_like(y_true, y_pred):
    y_true = convert_to_tensor(y_true)
    if y_true.shape.rank is not None and y_pred.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank \
            and y_true.shape.rank > 1 and y_true.shape[-1] == 1:
        y_true = _array.squeeze(y_true, axis=[-1])
    return y_true


def sparse_categorical_accuracy(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = _labels_like(y_true, y_pred)
    predicted = _reduce.argmax(y_pred, axis=-1)
    return _math.cast(_math.equal(_math.cast(y_true, predicted.dtype), predicted), _dt.float32)


def categorical_accuracy(y_true, y_pred):
    return _math.cast(_math.equal(_reduce.argmax(convert_to_tensor(y_true), axis=-1),
                                  _reduce.argmax(convert_to_tensor(y_pred), axis=-1)), _dt.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = convert_to_tensor(y_pred)
    y_true = _math.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)  # labels (batch,) vs a Dense(1) output
    predicted = _math.cast(_math.greater(y_pred, _math.cast(threshold, y_pred.dtype)), y_pred.dtype)
    return _reduce.reduce_mean(_math.cast(_math.equal(y_true, predicted), _dt.float32), axis=-1)


def accuracy(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    if y_true.dtype is not y_pred.dtype:
        y_true = _math.cast(y_true, y_pred.dtype)
    return _math.cast(_math.equal(y_true, y_pred), _dt.float32)


class _NamedMetric:
    """get_config of a metric whose only settings are its name and dtype (Keras 3's layout), so a
    compiled model's metric objects survive `.keras` saving."""

    def get_config(self):
        return {"name": self.name, "dtype": "float32"}


class SparseCategoricalAccuracy(_NamedMetric, MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


class CategoricalAccuracy(_NamedMetric, MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "threshold": self._fn_kwargs["threshold"]}


class Accuracy(_NamedMetric, MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


from .confusion_metrics import (  # noqa: E402,F401 - they subclass Metric
    AUC, FalseNegatives, FalsePositives, Precision, Recall, TrueNegatives, TruePositives)
from .more_metrics import (  # noqa: E402,F401
    CLASSES as _MORE_CLASSES, BinaryCrossentropy, CategoricalCrossentropy, CategoricalHinge, CosineSimilarity, Hinge,
    KLDivergence, LogCoshError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredError,
    MeanSquaredLogarithmicError, Poisson, RootMeanSquaredError, SparseCategoricalCrossentropy,
    SparseTopKCategoricalAccuracy, SquaredHinge, TopKCategoricalAccuracy, sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy)
from .score_metrics import F1Score, FBetaScore, R2Score  # noqa: E402,F401
from .iou_metrics import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU  # noqa: E402,F401
from .correlation_metrics import (  # noqa: E402,F401
    ConcordanceCorrelation, PearsonCorrelation, concordance_correlation, pearson_correlation)
from .operating_point_metrics import (  # noqa: E402,F401
    PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity)
from .losses import (  # noqa: E402,F401 - Keras 3 exports the loss functions from keras.metrics too
    KLD, MAE, MAPE, MSE, MSLE, binary_crossentropy, binary_focal_crossentropy, categorical_crossentropy,
    categorical_focal_crossentropy, categorical_hinge, hinge, huber, kld, kullback_leibler_divergence, logcosh, mae,
    mape, mse, msle, poisson, sparse_categorical_crossentropy, squared_hinge)

_CLASSES = {c.__name__: c for c in (SparseCategoricalAccuracy, CategoricalAccuracy, BinaryAccuracy, Accuracy, Mean,
                                    AUC, Precision, Recall, TruePositives, FalsePositives, TrueNegatives,
                                    FalseNegatives, R2Score, F1Score, FBetaScore, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU, Sum,
                                    PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity,
                                    SpecificityAtSensitivity, BinaryIoU, PearsonCorrelation, ConcordanceCorrelation,
                                    *_MORE_CLASSES)}
# Keras 3's table of metric names (keras.metrics.ALL_OBJECTS_DICT): each class by its name and its
# snake_case name, plus the short aliases, all of them classes ('mse' makes a MeanSquaredError);
# 'acc', 'kld' and 'logcosh' are not among them: Keras' `get` refuses them.
_ALL_CLASSES = {**_CLASSES, "Metric": Metric, "MeanMetricWrapper": MeanMetricWrapper}
ALL_OBJECTS_DICT = {**_ALL_CLASSES, **{to_snake_case(n): c for n, c in _ALL_CLASSES.items()},
                    "bce": BinaryCrossentropy, "BCE": BinaryCrossentropy,
                    "mse": MeanSquaredError, "MSE": MeanSquaredError, "mae": MeanAbsoluteError,
                    "MAE": MeanAbsoluteError, "mape": MeanAbsolutePercentageError,
                    "MAPE": MeanAbsolutePercentageError, "msle": MeanSquaredLogarithmicError,
                    "MSLE": MeanSquaredLogarithmicError}


def get(identifier):
    """A metric as Keras 3's `keras.metrics.get` gives it: a default instance for a name
    ('mse', 'MeanSquaredError', 'accuracy' -> Accuracy), the deserialized object for a config dict;
    a function or Metric passes through unchanged."""
    from .serialization import get_keras_object
    return get_keras_object(identifier, ALL_OBJECTS_DICT, "metric", deserialize)


def serialize(metric):
    from .serialization import serialize_keras_object
    return serialize_keras_object(metric, "keras.metrics")


def deserialize(config, custom_objects=None):
    """A metric from `serialize`'s dict or a name."""
    from .serialization import deserialize_keras_object
    if isinstance(config, str):
        return get(config)
    return deserialize_keras_object(config, _CLASSES, custom_objects, "metric")


def is_binary_or_sparse_categorical(y_true, y_pred):
    """Keras 3's reading of the static shapes behind 'accuracy' and 'crossentropy' in compile():
    binary when the prediction's last axis is 1; sparse categorical when the targets have a lower
    rank, or a last axis of 1 against a wider prediction."""
    t_rank, p_rank = y_true.shape.rank, y_pred.shape.rank
    t_last = y_true.shape[-1] if t_rank else None
    p_last = y_pred.shape[-1] if p_rank else None
    return p_last == 1, (t_rank < p_rank) or (t_last == 1 and p_last is not None and p_last > 1)


def accuracy_for_shapes(y_true, y_pred):
    """compile(metrics=['accuracy']): binary, sparse categorical or categorical accuracy, chosen
    from the shapes as Keras 3 chooses (not from the loss)."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
    if is_binary:
        return binary_accuracy(y_true, y_pred)
    if is_sparse:
        return sparse_categorical_accuracy(y_true, y_pred)
    return categorical_accuracy(y_true, y_pred)


def get_compiled(identifier, loss=None):  # noqa: ARG001 - `loss` kept for callers; Keras 3 decides by shapes
    """The metric compile() tracks for `identifier`: 'accuracy'/'acc' (any case) is binary, sparse
    categorical or categorical accuracy by the shapes of targets and predictions, as in Keras 3; a
    function is averaged by a MeanMetricWrapper; a string gives its name to the metric and so to the
    logs (`metrics=['mse']` logs 'mse', as in Keras 3)."""
    if isinstance(identifier, str) and identifier.lower() in ("accuracy", "acc"):
        metric = MeanMetricWrapper(accuracy_for_shapes, name=identifier)
        metric._direction = "up"
        return metric
    metric = get(identifier)
    if not isinstance(metric, Metric):
        if metric is None:
            raise ValueError(f"Could not interpret metric identifier: {identifier}")
        metric = MeanMetricWrapper(metric)
    if isinstance(identifier, str):
        metric.name = identifier
    return metric
