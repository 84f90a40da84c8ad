"""Metrics that average: Mean and Sum of values, MeanMetricWrapper (the running weighted mean of a
per-sample function, in `total`/`count`, so several `update_state` calls give the mean over every
sample seen, as Keras does), and the wrappers the function metrics of the other files are made of."""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..losses import squeeze_or_expand_to_same_rank
from .metric import Metric, NamedMetric


class Mean(Metric):
    """The weighted mean of every value passed to `update_state`, by sample: as in Keras 3, values of
    rank > 1 are first averaged over their trailing axes (one value per row of the batch), so
    `count` grows by the number of rows (or the sum of their weights), not of elements."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")
        self.count = self.add_variable(shape=(), initializer="zeros", name="count")

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
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")

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


class PairedMeanMetricWrapper(MeanMetricWrapper):
    """Targets and predictions paired by rank first (labels (batch,) against a (batch, 1) output), as
    Keras' loss functions do before computing a metric. Lower is better unless a class says otherwise."""
    _direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = squeeze_or_expand_to_same_rank(convert_to_tensor(y_true), convert_to_tensor(y_pred))
        super().update_state(y_true, y_pred, sample_weight)


def mean_metric_class(class_name, fn, default_name):
    """A MeanMetricWrapper subclass whose config is only name and dtype."""
    def __init__(self, name=default_name, dtype=None):
        PairedMeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype)
    return type(class_name, (NamedMetric, PairedMeanMetricWrapper), {
        "__init__": __init__, "__module__": __name__, "__qualname__": class_name,
        "__doc__": f"The running mean of `{fn.__name__}` over every sample seen."})


class ConfiguredMeanMetric(PairedMeanMetricWrapper):
    """get_config: name, dtype, then the function's settings named in `_config_keys` (Keras 3)."""
    _config_keys = ()

    def get_config(self):
        return {"name": self.name, "dtype": "float32", **{k: self._fn_kwargs[k] for k in self._config_keys}}
