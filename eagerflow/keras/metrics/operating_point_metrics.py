"""Metrics read at one operating point of a binary classifier, as Keras 3.15 defines them:
PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity.

Each keeps true/false positive/negative counts at `num_thresholds` thresholds evenly spaced over
[0, 1] (ends exactly 0 and 1, unlike AUC's nudged ends; one threshold means 0.5), a prediction
counting as positive when strictly above a threshold. The result is the largest value of the
dependent rate among the thresholds where the constrained rate reaches the target (0 when none
does): PrecisionAtRecall(0.8) is the best precision at any threshold whose recall is >= 0.8.
"""
from __future__ import annotations

from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .confusion_metrics import confusion_updates
from .metric import Metric
from ..naming import to_snake_case, unique_name


class SensitivitySpecificityBase(Metric):
    _direction = "up"
    _value_name = None  # the constructor argument holding the target: "recall", "precision", ...

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._value_name}` must be in the range [0, 1]. Received: "
                             f"{self._value_name}={value}")
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. Received: "
                             f"num_thresholds={num_thresholds}")
        super().__init__(name=name or unique_name(to_snake_case(type(self).__name__)), dtype=dtype)
        self.value, self.num_thresholds, self.class_id = value, num_thresholds, class_id
        setattr(self, self._value_name, value)
        if num_thresholds == 1:
            self.thresholds = [0.5]
        else:
            self.thresholds = [0.0] + [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0]
        shape = (len(self.thresholds),)
        self.true_positives = self.add_variable(shape=shape, initializer="zeros", name="true_positives")
        self.false_positives = self.add_variable(shape=shape, initializer="zeros", name="false_positives")
        self.true_negatives = self.add_variable(shape=shape, initializer="zeros", name="true_negatives")
        self.false_negatives = self.add_variable(shape=shape, initializer="zeros", name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self.class_id is not None:
            y_true = convert_to_tensor(y_true)[..., self.class_id]
            y_pred = convert_to_tensor(y_pred)[..., self.class_id]
            if sample_weight is not None:
                sw = convert_to_tensor(sample_weight)
                if sw.shape.rank is not None and sw.shape.rank == y_true.shape.rank + 1:
                    sample_weight = sw[..., 0] if sw.shape[-1] == 1 else sw[..., self.class_id]
        tp, fp, tn, fn = confusion_updates(y_true, y_pred, self.thresholds, sample_weight)
        self.true_positives.assign_add(tp)
        self.false_positives.assign_add(fp)
        self.true_negatives.assign_add(tn)
        self.false_negatives.assign_add(fn)

    def _rates(self):
        tp, fp, tn, fn = (convert_to_tensor(v) for v in (self.true_positives, self.false_positives,
                                                         self.true_negatives, self.false_negatives))
        return {"recall": _math.div_no_nan(tp, tp + fn), "precision": _math.div_no_nan(tp, tp + fp),
                "specificity": _math.div_no_nan(tn, tn + fp)}

    def _max_under_constraint(self, constrained, dependent):
        feasible = _math.greater_equal(constrained, self.value)
        return _math.maximum(_reduce.reduce_max(_array.where(feasible, dependent, _array.zeros_like(dependent))), 0.0)

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._value_name: self.value}


class PrecisionAtRecall(SensitivitySpecificityBase):
    """The best precision at a threshold whose recall is at least `recall`."""
    _value_name = "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def result(self):
        rates = self._rates()
        return self._max_under_constraint(rates["recall"], rates["precision"])


class RecallAtPrecision(SensitivitySpecificityBase):
    """The best recall at a threshold whose precision is at least `precision`."""
    _value_name = "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def result(self):
        rates = self._rates()
        return self._max_under_constraint(rates["precision"], rates["recall"])


class SensitivityAtSpecificity(SensitivitySpecificityBase):
    """The best sensitivity (recall) at a threshold whose specificity is at least `specificity`."""
    _value_name = "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(specificity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def result(self):
        rates = self._rates()
        return self._max_under_constraint(rates["specificity"], rates["recall"])


class SpecificityAtSensitivity(SensitivitySpecificityBase):
    """The best specificity at a threshold whose sensitivity (recall) is at least `sensitivity`."""
    _value_name = "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def result(self):
        rates = self._rates()
        return self._max_under_constraint(rates["recall"], rates["specificity"])


CLASSES = (PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity)
