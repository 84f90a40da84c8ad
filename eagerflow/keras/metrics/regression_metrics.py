"""Keras 3's mean-of-a-function metrics: regression errors, probabilistic losses as metrics, hinge
metrics and top-k accuracy; and RootMeanSquaredError (the square root of the running mean).

Each keeps the running weighted mean of a per-sample value in `total`/`count` (MeanMetricWrapper),
so several `update_state` calls give the mean over every sample seen, as Keras does.
CosineSimilarity as a metric is the similarity itself (the loss is its negative).
"""
from __future__ import annotations

from .._src.core import dtypes as _dt
from .._src.core.convert import convert_to_tensor
from .._src.ops import array as _array
from .._src.ops import math as _math
from .._src.ops import reduce as _reduce
from .._src.ops.math_extra import in_top_k
from .losses import (binary_crossentropy, categorical_crossentropy, mean_absolute_error, mean_squared_error,
                     sparse_categorical_crossentropy, squeeze_or_expand_to_same_rank)
from .metrics import MeanMetricWrapper, _NamedMetric
from .more_losses import (_l2_normalize, categorical_hinge, hinge, kl_divergence, log_cosh,
                          mean_absolute_percentage_error, mean_squared_logarithmic_error, poisson, squared_hinge)


def cosine_similarity(y_true, y_pred, axis=-1):
    y_pred = convert_to_tensor(y_pred)
    y_pred = y_pred if y_pred.dtype.is_floating else _math.cast(y_pred, _dt.float32)
    y_true = _math.cast(convert_to_tensor(y_true), y_pred.dtype)
    return _reduce.reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


def _top_k_matches(labels, y_pred, k):
    """1.0 where the label's score is among the k largest of its row (ties count, as in_top_k), in
    the labels' shape."""
    y_pred = convert_to_tensor(y_pred)
    label_shape = _array.shape(labels)
    if y_pred.shape.rank is not None and y_pred.shape.rank > 2:
        y_pred = _array.reshape(y_pred, [-1, y_pred.shape[-1]])
    flat = _array.reshape(labels, [-1]) if labels.shape.rank != 1 else labels
    matches = _math.cast(in_top_k(_math.cast(flat, _dt.int32), y_pred, int(k)), _dt.float32)
    return _array.reshape(matches, label_shape) if labels.shape.rank != 1 else matches


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    return _top_k_matches(_reduce.argmax(convert_to_tensor(y_true), axis=-1), y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1:
        y_true = _array.squeeze(y_true, axis=[-1])
    if from_sorted_ids:  # y_pred holds class ids, best first: a hit when the label is among the first k
        hits = _math.equal(_math.cast(_array.expand_dims(y_true, -1), y_pred.dtype), y_pred[..., :int(k)])
        return _math.cast(_reduce.reduce_any(hits, axis=-1), _dt.float32)
    return _top_k_matches(y_true, y_pred, k)


class _PairedWrapper(MeanMetricWrapper):
    """Targets and predictions paired by rank first (labels (batch,) against a (batch, 1) output), as
    Keras' loss functions do before computing a metric. Lower is better unless a class says otherwise."""
    _direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = squeeze_or_expand_to_same_rank(convert_to_tensor(y_true), convert_to_tensor(y_pred))
        super().update_state(y_true, y_pred, sample_weight)


def _wrapper(class_name, fn, default_name):
    """A MeanMetricWrapper subclass whose config is only name and dtype."""
    def __init__(self, name=default_name, dtype=None):
        _PairedWrapper.__init__(self, fn, name=name, dtype=dtype)
    return type(class_name, (_NamedMetric, _PairedWrapper), {
        "__init__": __init__, "__module__": __name__, "__qualname__": class_name,
        "__doc__": f"The running mean of `{fn.__name__}` over every sample seen."})


MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")
LogCoshError = _wrapper("LogCoshError", log_cosh, "logcosh")
KLDivergence = _wrapper("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _wrapper("Poisson", poisson, "poisson")
Hinge = _wrapper("Hinge", hinge, "hinge")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge")


class CosineSimilarity(_NamedMetric, _PairedWrapper):
    _direction = "up"

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)


class RootMeanSquaredError(_NamedMetric, _PairedWrapper):
    """sqrt of the running mean of each sample's mean squared error."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, dtype=dtype)

    def result(self):
        return _math.sqrt(super().result())


class _ConfiguredMetric(_PairedWrapper):
    """get_config: name, dtype, then the function's settings named in `_config_keys` (Keras 3)."""
    _config_keys = ()

    def get_config(self):
        return {"name": self.name, "dtype": "float32", **{k: self._fn_kwargs[k] for k in self._config_keys}}


class BinaryCrossentropy(_ConfiguredMetric):
    _config_keys = ("from_logits", "label_smoothing")

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0):
        super().__init__(binary_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class CategoricalCrossentropy(_ConfiguredMetric):
    _config_keys = ("from_logits", "label_smoothing", "axis")

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False, label_smoothing=0, axis=-1):
        super().__init__(categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(_ConfiguredMetric):
    _config_keys = ("from_logits", "ignore_class", "axis")

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False, ignore_class=None,
                 axis=-1):
        if ignore_class is not None:
            raise NotImplementedError("SparseCategoricalCrossentropy(ignore_class=...) is not supported yet.")
        super().__init__(sparse_categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits, axis=axis)

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "from_logits": self._fn_kwargs["from_logits"],
                "ignore_class": None, "axis": self._fn_kwargs["axis"]}


class TopKCategoricalAccuracy(_ConfiguredMetric):
    _direction = "up"
    _config_keys = ("k",)

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)


class SparseTopKCategoricalAccuracy(_ConfiguredMetric):
    _direction = "up"
    _config_keys = ("k",)

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None, from_sorted_ids=False):
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k,
                         from_sorted_ids=from_sorted_ids)


CLASSES = (MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
           LogCoshError, KLDivergence, Poisson, Hinge, SquaredHinge, CategoricalHinge, CosineSimilarity,
           RootMeanSquaredError, BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy,
           TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy)
