"""`keras.losses`: per-sample losses and Keras 3's reductions.

Reduction 'sum_over_batch_size' (the default) is sum(weighted per-sample losses) / number of
per-sample losses (sample weights do not change the denominator); 'sum' is the sum; None or
'none' returns the per-sample losses. Probability inputs are clipped to [1e-7, 1 - 1e-7], and
categorical probabilities are renormalised to sum to 1, as Keras does.
"""
from __future__ import annotations

from .._src.core import dtypes as _dt
from .._src.core import nest
from .._src.core.convert import convert_to_tensor
from .._src.ops import array as _array
from .._src.ops import losses as _xent
from .._src.ops import math as _math
from .._src.ops import reduce as _reduce

EPSILON = 1e-7
_REDUCTIONS = ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight")


def _tensor(x, dtype=None):
    t = convert_to_tensor(x)
    if dtype is not None and t.dtype is not dtype:
        t = _math.cast(t, dtype)
    return t


def _half_to_float32(x):
    dtype = getattr(x, "dtype", None)
    if dtype is _dt.bfloat16 or dtype is _dt.float16:
        return _math.cast(x, _dt.float32)
    return x


def _float_pred(y_pred):
    t = convert_to_tensor(y_pred)
    return t if t.dtype.is_floating else _math.cast(t, _dt.float32)


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Keras' pairing of targets and predictions whose ranks differ by a trailing 1: labels of shape
    (batch,) against a Dense(1) output (batch, 1). The rank-1 side gains the axis (expand_rank_1),
    else the longer side loses it. Without this the two broadcast to (batch, batch): a loss of the
    wrong value and no error."""
    r1, r2 = x1.shape.rank, x2.shape.rank
    if r1 is None or r2 is None or r1 == r2:
        return x1, x2
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            return x1, _array.expand_dims(x2, -1)
        return _array.squeeze(x1, axis=[-1]), x2
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            return _array.expand_dims(x1, -1), x2
        return x1, _array.squeeze(x2, axis=[-1])
    return x1, x2


def reduce_values(values, sample_weight, reduction):
    if sample_weight is not None:
        sw = _tensor(sample_weight, values.dtype)
        if sw.shape.rank is not None and values.shape.rank is not None and sw.shape.rank > values.shape.rank:
            sw = _array.reshape(sw, _array.shape(values))
        values, sw = squeeze_or_expand_to_same_rank(values, sw)
        values = values * sw
    if reduction in ("none", None):
        return values
    total = _reduce.reduce_sum(values)
    if reduction == "sum":
        return total
    count = _math.cast(_array.size(values), values.dtype)
    return _math.div_no_nan(total, count)


class Loss:
    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of {_REDUCTIONS}. "
                             f"Received: reduction={reduction}")
        self.name = name or _default_name(type(self))
        self.reduction = reduction

    def __call__(self, y_true, y_pred, sample_weight=None):
        # Keras 3 computes a loss in its own dtype (float32): a mixed-precision model's float16 or
        # bfloat16 predictions are cast up first, so the loss is not rounded to half precision
        y_pred = nest.map_structure(_half_to_float32, y_pred)
        y_true = nest.map_structure(_half_to_float32, y_true)
        return reduce_values(self.call(y_true, y_pred), sample_weight, self.reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _default_name(cls):
    from .naming import to_snake_case
    return to_snake_case(cls.__name__)


class LossFunctionWrapper(Loss):
    def __init__(self, fn, name=None, reduction="sum_over_batch_size", **kwargs):
        super().__init__(name=name or fn.__name__, reduction=reduction)
        self.fn, self.kwargs = fn, kwargs

    def call(self, y_true, y_pred):
        y_true, y_pred = squeeze_or_expand_to_same_rank(convert_to_tensor(y_true), convert_to_tensor(y_pred))
        return self.fn(y_true, y_pred, **self.kwargs)


# --- per-sample loss functions ---
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    y_pred = _float_pred(y_pred)
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
    y_pred = _float_pred(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
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
    y_pred = _float_pred(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
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
    y_pred = _float_pred(y_pred)
    return _reduce.reduce_mean(_math.squared_difference(y_pred, _tensor(y_true, y_pred.dtype)), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_pred = _float_pred(y_pred)
    return _reduce.reduce_mean(_math.abs(y_pred - _tensor(y_true, y_pred.dtype)), axis=-1)


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

from .more_losses import (  # noqa: E402,F401 - they subclass LossFunctionWrapper
    CLASSES as _MORE_CLASSES, FUNCTIONS as _MORE_FUNCTIONS, BinaryFocalCrossentropy, CategoricalFocalCrossentropy,
    CategoricalHinge, CosineSimilarity, Hinge, Huber, KLDivergence, LogCosh, MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError, Poisson, SquaredHinge, binary_focal_crossentropy, categorical_focal_crossentropy,
    categorical_hinge, cosine_similarity, hinge, huber, kl_divergence, log_cosh, mean_absolute_percentage_error,
    mean_squared_logarithmic_error, poisson, squared_hinge, Dice, Tversky, dice, tversky)

from .ctc import CTC, ctc  # noqa: E402,F401 - CTC subclasses LossFunctionWrapper
from .circle_loss import Circle, circle  # noqa: E402,F401

KLD = kld = kullback_leibler_divergence = kl_divergence
MAPE = mape = mean_absolute_percentage_error
MSLE = msle = mean_squared_logarithmic_error
logcosh = log_cosh


class Reduction:
    """The legacy reduction names (`keras.losses.Reduction`), kept for code written against tf.keras 2."""
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


# Keras 3's table of loss names (keras.losses.ALL_OBJECTS_DICT): a class name makes a default
# instance; a function name or short alias ('mse', 'BCE', 'kld') is the function itself. Not
# 'logcosh' or 'kullback_leibler_divergence': those exist as attributes but `get` refuses them.
_LOSS_CLASSES = (Loss, LossFunctionWrapper, SparseCategoricalCrossentropy, CategoricalCrossentropy,
                 BinaryCrossentropy, MeanSquaredError, MeanAbsoluteError, CTC, Circle, *_MORE_CLASSES)
_CLASSES = {c.__name__: c for c in _LOSS_CLASSES if c not in (Loss, LossFunctionWrapper)}
_BASIC_FUNCTIONS = {f.__name__: f for f in (mean_squared_error, mean_absolute_error, binary_crossentropy,
                                            categorical_crossentropy, sparse_categorical_crossentropy)}
_FUNCTIONS = {**{f.__name__: f for f in _MORE_FUNCTIONS}, **_BASIC_FUNCTIONS, "ctc": ctc, "circle": circle}
ALL_OBJECTS_DICT = {**{c.__name__: c for c in _LOSS_CLASSES}, **_FUNCTIONS,
                    "bce": binary_crossentropy, "BCE": binary_crossentropy,
                    "mse": mean_squared_error, "MSE": mean_squared_error,
                    "mae": mean_absolute_error, "MAE": mean_absolute_error,
                    "mape": mean_absolute_percentage_error, "MAPE": mean_absolute_percentage_error,
                    "msle": mean_squared_logarithmic_error, "MSLE": mean_squared_logarithmic_error,
                    "kld": kl_divergence, "KLD": kl_divergence}


def get(identifier):
    """A loss as Keras 3's `keras.losses.get` gives it: a function for a function name or alias
    ('mse' -> mean_squared_error), a default instance for a class name ('MeanSquaredError'), the
    deserialized object for a config dict; a function or Loss passes through."""
    from .serialization import get_keras_object
    return get_keras_object(identifier, ALL_OBJECTS_DICT, "loss", deserialize)


def crossentropy_for_shapes(y_true, y_pred):
    """compile(loss='crossentropy' or 'ce'): binary, sparse categorical or categorical crossentropy,
    chosen from the shapes of targets and predictions as Keras 3 chooses."""
    from .metrics import is_binary_or_sparse_categorical
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
    if is_binary:
        return binary_crossentropy(y_true, y_pred)
    if is_sparse:
        return sparse_categorical_crossentropy(y_true, y_pred)
    return categorical_crossentropy(y_true, y_pred)


def get_compiled(identifier):
    """The loss compile() uses: `get`, except that 'crossentropy' / 'ce' (any case) pick their
    crossentropy by the shapes, as Keras 3's compile does (`get` itself refuses them)."""
    if isinstance(identifier, str) and identifier.lower() in ("crossentropy", "ce"):
        return LossFunctionWrapper(crossentropy_for_shapes, name=identifier)
    return get(identifier)


def serialize(loss):
    """Keras 3's dict for a loss: a Loss by class and config, a built-in function by its name."""
    from .serialization import serialize_keras_object
    if isinstance(loss, Loss):
        return serialize_keras_object(loss, "keras.losses")
    registered = getattr(loss, "_keras_registered_name", None)
    return {"module": "builtins", "class_name": "function", "config": registered or loss.__name__,
            "registered_name": "function"}


def deserialize(config, custom_objects=None):
    """A loss from `serialize`'s dict or a name."""
    from .serialization import deserialize_keras_object, get_registered_object
    if isinstance(config, str):
        return get(config)
    if isinstance(config, dict) and config.get("class_name") == "function":
        name = config.get("config")
        found = _FUNCTIONS.get(name) or _BASIC_FUNCTIONS.get(name) or get_registered_object(name, custom_objects)
        if found is None:
            raise ValueError(f"Could not interpret loss identifier: {name}")
        return found
    return deserialize_keras_object(config, _CLASSES, custom_objects, "loss")
