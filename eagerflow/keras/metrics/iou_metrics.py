"""Intersection-over-union metrics: IoU (over chosen classes) and MeanIoU (over every class).

Both accumulate a num_classes x num_classes confusion matrix (rows: true class, columns:
predicted class) and report, per class, tp / (row sum + column sum - tp), averaged over the
classes whose denominator is not zero. As in Keras 3.15 the matrix is int64 unless a float dtype
is asked for, so float sample weights are truncated to integers then (with Keras' warning);
`ignore_class` drops the entries whose label is that class; dense inputs (sparse_y_true /
sparse_y_pred False) are turned into classes by argmax along `axis`.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.linalg import diagonals as _diagonals
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..._src.ops.array import slicing as _slicing
from ..._src.ops.math.counting import confusion_matrix
from .metric import Metric
from ..naming import unique_name


class IoU(Metric):
    _direction = "up"

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name=name or unique_name("io_u"), dtype=dtype)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is "
                             f"[0, {num_classes}).")
        self.num_classes, self.target_class_ids = num_classes, list(target_class_ids)
        self.ignore_class, self.sparse_y_true, self.sparse_y_pred, self.axis = (ignore_class, sparse_y_true,
                                                                                 sparse_y_pred, axis)
        self._cm_dtype = _dt.as_dtype(dtype or "int64")
        self.total_cm = self.add_variable(shape=(num_classes, num_classes), initializer="zeros", dtype=self._cm_dtype,
                                          name="total_confusion_matrix")

    def _classes(self, values, sparse):
        values = convert_to_tensor(values)
        if not sparse:
            values = _reduce.argmax(values, axis=self.axis)
        return _math.cast(values, _dt.int64)

    def update_state(self, y_true, y_pred, sample_weight=None):
        labels = self._classes(y_true, self.sparse_y_true)
        predictions = _array.reshape(self._classes(y_pred, self.sparse_y_pred), [-1])
        if sample_weight is None:
            weights = _array.ones_like(labels)
        else:
            weights = convert_to_tensor(sample_weight)
            if self._cm_dtype.is_integer and weights.dtype.is_floating:
                warnings.warn("You are passing weight as `float`, but dtype is `int`. This may result in an incorrect "
                              "weight due to type casting Consider using integer weights.", stacklevel=2)
            weights = _array.broadcast_to(weights, _array.shape(labels))
        labels = _array.reshape(labels, [-1])
        weights = _array.reshape(_math.cast(weights, self._cm_dtype), [-1])
        if self.ignore_class is not None:
            keep = _math.not_equal(labels, _math.cast(self.ignore_class, _dt.int64))
            labels, predictions = _slicing.boolean_mask(labels, keep), _slicing.boolean_mask(predictions, keep)
            weights = _slicing.boolean_mask(weights, keep)
        current = confusion_matrix(labels, predictions, num_classes=self.num_classes, weights=weights,
                                   dtype=self._cm_dtype)
        self.total_cm.assign_add(current)

    def _class_ious(self):
        cm = _math.cast(convert_to_tensor(self.total_cm), _dt.float32)
        true_positives = _diagonals.diag_part(cm)
        denominator = _reduce.reduce_sum(cm, axis=0) + _reduce.reduce_sum(cm, axis=1) - true_positives
        return true_positives, denominator

    def result(self):
        true_positives, denominator = self._class_ious()
        ids = np.asarray(self.target_class_ids, np.int32)
        true_positives = _slicing.gather(true_positives, ids)
        denominator = _slicing.gather(denominator, ids)
        valid = _reduce.reduce_sum(_math.cast(_math.not_equal(denominator, 0.0), _dt.float32))
        return _math.div_no_nan(_reduce.reduce_sum(_math.div_no_nan(true_positives, denominator)), valid)

    def get_config(self):
        return {"name": self.name, "dtype": self._cm_dtype.name, "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class BinaryIoU(IoU):
    """IoU of the two classes of a binary problem, predictions first thresholded (>= threshold is 1)."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name=name or unique_name("binary_io_u"), dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _math.cast(convert_to_tensor(y_pred), _dt.float32)
        predicted = _math.cast(_math.greater_equal(y_pred, self.threshold), self._cm_dtype)
        super().update_state(_math.cast(convert_to_tensor(y_true), self._cm_dtype), predicted, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold, "name": self.name,
                "dtype": self._cm_dtype.name}


class MeanIoU(IoU):
    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name or unique_name("mean_io_u"), dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred,
                         axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self._cm_dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class OneHotIoU(IoU):
    """IoU for one-hot labels and per-class scores (both turned into classes by argmax)."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_pred=False,
                 axis=-1):
        super().__init__(num_classes, target_class_ids, name=name or unique_name("one_hot_io_u"), dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "target_class_ids": self.target_class_ids, "name": self.name,
                "dtype": self._cm_dtype.name, "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class OneHotMeanIoU(MeanIoU):
    """MeanIoU for one-hot labels and per-class scores."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name or unique_name("one_hot_mean_io_u"), dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self._cm_dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}
