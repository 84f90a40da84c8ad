"""The losses most models compile with: the three crossentropies (sparse, categorical, binary),
mean squared error and mean absolute error. Probability inputs are clipped to [1e-7, 1 - 1e-7],
and categorical probabilities are renormalised to sum to 1, as Keras does.
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.nn import losses as _xent
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .loss import EPSILON, LossFunctionWrapper, as_tensor, float_predictions


# --- per-sample loss functions ---
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    y_pred = float_predictions(y_pred)
    labels = convert_to_tensor(y_true)
    if labels.shape.rank is not None and y_pred.shape.rank is not None and labels.shape.rank == y_pred.shape.rank:
        labels = _array.squeeze(labels, axis=[-1])
    if labels.dtype not in (_dt.int32, _dt.int64):  # uint8 MNIST labels, float labels: Keras casts to int64
        labels = _math.cast(labels, _dt.int64)
    if from_logits:
        return _xent.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=y_pred)
    probs = y_pred / _reduce.reduce_sum(y_pred, axis=axis, keepdims=True)
    probs = _math.clip_by_value(probs, EPSILON, 1.0 - EPSILON)
    return _xent.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=_math.log(probs))


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_pred = float_predictions(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    if label_smoothing:
        n = _math.cast(_array.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / n
    if from_logits:
        return _xent.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    probs = y_pred / _reduce.reduce_sum(y_pred, axis=axis, keepdims=True)
    probs = _math.clip_by_value(probs, EPSILON, 1.0 - EPSILON)
    return _math.negative(_reduce.reduce_sum(y_true * _math.log(probs), axis=axis))


def _check_same_rank(y_true, y_pred):
    """Keras' elementwise losses refuse targets and outputs of different ranks (the Loss classes pair
    them first); broadcasting them would give a wrong value silently."""
    if y_true.shape.rank is not None and y_pred.shape.rank is not None and y_true.shape.rank != y_pred.shape.rank:
        raise ValueError(f"Arguments `target` and `output` must have the same rank (ndim). Received: "
                         f"target.shape={_shape_text(y_true.shape)}, output.shape={_shape_text(y_pred.shape)}")


def _shape_text(shape):
    return str(tuple(shape.as_list()))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_pred = float_predictions(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    _check_same_rank(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        per_entry = _xent.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = _math.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        per_entry = _math.negative(y_true * _math.log(p) + (1.0 - y_true) * _math.log(1.0 - p))
    return _reduce.reduce_mean(per_entry, axis=axis)


def mean_squared_error(y_true, y_pred):
    y_pred = float_predictions(y_pred)
    return _reduce.reduce_mean(_math.squared_difference(y_pred, as_tensor(y_true, y_pred.dtype)), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_pred = float_predictions(y_pred)
    return _reduce.reduce_mean(_math.abs(y_pred - as_tensor(y_true, y_pred.dtype)), axis=-1)


# --- loss classes ---
class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction, from_logits=from_logits)
        self.from_logits = from_logits


class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, name=name, reduction=reduction, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_crossentropy", dtype=None):
        super().__init__(binary_crossentropy, name=name, reduction=reduction, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, reduction=reduction)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, reduction=reduction)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


def is_binary_or_sparse_categorical(y_true, y_pred):
    """Keras 3's reading of the static shapes behind 'accuracy' and 'crossentropy' in compile():
    binary when the prediction's last axis is 1; sparse categorical when the targets have a lower
    rank, or a last axis of 1 against a wider prediction."""
    t_rank, p_rank = y_true.shape.rank, y_pred.shape.rank
    t_last = y_true.shape[-1] if t_rank else None
    p_last = y_pred.shape[-1] if p_rank else None
    return p_last == 1, (t_rank < p_rank) or (t_last == 1 and p_last is not None and p_last > 1)
