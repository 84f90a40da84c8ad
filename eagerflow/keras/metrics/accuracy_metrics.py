"""Accuracy metrics: exact, binary (thresholded), categorical, sparse categorical and top-k, each
a per-sample function and a MeanMetricWrapper class around it; and the shape rule behind
compile(metrics=['accuracy'])."""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..._src.ops.math.counting import in_top_k
from ..losses import is_binary_or_sparse_categorical, squeeze_or_expand_to_same_rank
from .metric import NamedMetric
from .reduction_metrics import ConfiguredMeanMetric, MeanMetricWrapper


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


class SparseCategoricalAccuracy(NamedMetric, MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


class CategoricalAccuracy(NamedMetric, MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "threshold": self._fn_kwargs["threshold"]}


class Accuracy(NamedMetric, MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


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


class TopKCategoricalAccuracy(ConfiguredMeanMetric):
    _direction = "up"
    _config_keys = ("k",)

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)


class SparseTopKCategoricalAccuracy(ConfiguredMeanMetric):
    _direction = "up"
    _config_keys = ("k",)

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None, from_sorted_ids=False):
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k,
                         from_sorted_ids=from_sorted_ids)
