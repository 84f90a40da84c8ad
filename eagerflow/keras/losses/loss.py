"""The base of every Keras loss: `Loss` (reduction and config), `LossFunctionWrapper` (a per-sample
function as a Loss), and Keras 3's reduction of per-sample values.

Reduction 'sum_over_batch_size' (the default) is sum(weighted per-sample losses) / number of
per-sample losses (sample weights do not change the denominator); 'sum' is the sum; None or
'none' returns the per-sample losses.
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core import nest
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce


EPSILON = 1e-7


_REDUCTIONS = ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight")


def as_tensor(x, dtype=None):
    t = convert_to_tensor(x)
    if dtype is not None and t.dtype is not dtype:
        t = _math.cast(t, dtype)
    return t


def _half_to_float32(x):
    dtype = getattr(x, "dtype", None)
    if dtype is _dt.bfloat16 or dtype is _dt.float16:
        return _math.cast(x, _dt.float32)
    return x


def float_predictions(y_pred):
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
        sw = as_tensor(sample_weight, values.dtype)
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
    from ..naming import to_snake_case
    return to_snake_case(cls.__name__)


class LossFunctionWrapper(Loss):
    def __init__(self, fn, name=None, reduction="sum_over_batch_size", **kwargs):
        super().__init__(name=name or fn.__name__, reduction=reduction)
        self.fn, self.kwargs = fn, kwargs

    def call(self, y_true, y_pred):
        y_true, y_pred = squeeze_or_expand_to_same_rank(convert_to_tensor(y_true), convert_to_tensor(y_pred))
        return self.fn(y_true, y_pred, **self.kwargs)


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


def float_pair(y_true, y_pred):
    y_pred = float_predictions(y_pred)
    return as_tensor(y_true, y_pred.dtype), y_pred


def mean_over_last_axis(x):
    return _reduce.reduce_mean(x, axis=-1)
