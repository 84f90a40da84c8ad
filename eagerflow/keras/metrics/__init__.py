"""`keras.metrics`: every metric by the names Keras 3 exports (and, as Keras 3 does, the loss
functions), and the name table behind `get`/`serialize`/`deserialize`/compile's metric strings. The
metrics live one family per file beside this one, on metric.py's `Metric` and reduction_metrics.py's
wrappers."""
from __future__ import annotations

from ..losses import (KLD, MAE, MAPE, MSE, MSLE, binary_crossentropy, binary_focal_crossentropy,  # noqa: F401
                      categorical_crossentropy, categorical_focal_crossentropy, categorical_hinge, hinge, huber,
                      is_binary_or_sparse_categorical, kld, kullback_leibler_divergence, logcosh, mae, mape,
                      mean_absolute_error, mean_squared_error, mse, msle, poisson, sparse_categorical_crossentropy,
                      squared_hinge)
from ..naming import to_snake_case
from ..saving import serialization as _serialization
from .accuracy_metrics import (Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,  # noqa: F401
                               SparseTopKCategoricalAccuracy, TopKCategoricalAccuracy, accuracy, accuracy_for_shapes,
                               binary_accuracy, categorical_accuracy, sparse_categorical_accuracy,
                               sparse_top_k_categorical_accuracy, top_k_categorical_accuracy)
from .confusion_metrics import (AUC, FalseNegatives, FalsePositives, Precision, Recall, TrueNegatives,
                                TruePositives)
from .correlation_metrics import (ConcordanceCorrelation, PearsonCorrelation, concordance_correlation,  # noqa: F401
                                  pearson_correlation)
from .hinge_metrics import CategoricalHinge, Hinge, SquaredHinge
from .iou_metrics import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from .metric import Metric
from .operating_point_metrics import (PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity,
                                      SpecificityAtSensitivity)
from .probabilistic_metrics import (BinaryCrossentropy, CategoricalCrossentropy, KLDivergence, Poisson,
                                    SparseCategoricalCrossentropy)
from .reduction_metrics import Mean, MeanMetricWrapper, Sum
from .regression_metrics import (CosineSimilarity, LogCoshError, MeanAbsoluteError,  # noqa: F401
                                 MeanAbsolutePercentageError, MeanSquaredError, MeanSquaredLogarithmicError,
                                 RootMeanSquaredError)
from .score_metrics import F1Score, FBetaScore, R2Score


_CLASSES = {c.__name__: c for c in (SparseCategoricalAccuracy, CategoricalAccuracy, BinaryAccuracy, Accuracy, Mean,
                                    AUC, Precision, Recall, TruePositives, FalsePositives, TrueNegatives,
                                    FalseNegatives, R2Score, F1Score, FBetaScore, IoU, MeanIoU, OneHotIoU,
                                    OneHotMeanIoU, Sum,
                                    PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity,
                                    SpecificityAtSensitivity, BinaryIoU, PearsonCorrelation, ConcordanceCorrelation,
                                    MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
                                    MeanSquaredLogarithmicError, LogCoshError, KLDivergence, Poisson, Hinge,
                                    SquaredHinge, CategoricalHinge, CosineSimilarity, RootMeanSquaredError,
                                    BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy,
                                    TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy)}
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
    return _serialization.get_keras_object(identifier, ALL_OBJECTS_DICT, "metric", deserialize)


def serialize(metric):
    return _serialization.serialize_keras_object(metric, "keras.metrics")


def deserialize(config, custom_objects=None):
    """A metric from `serialize`'s dict or a name."""
    if isinstance(config, str):
        return get(config)
    return _serialization.deserialize_keras_object(config, _CLASSES, custom_objects, "metric")


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
