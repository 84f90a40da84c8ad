"""Feature preprocessing layers: Normalization (statistics from `adapt` on arrays or a tf.data Dataset, or
given), CategoryEncoding (one-hot / multi-hot / count of integer ids) and Discretization (bucket index of
each value among fixed boundaries), as Keras 3.15 computes them."""
from __future__ import annotations

import numpy as np

from ...._src.core.convert import convert_to_tensor
from ...._src.ops import array as _array
from ...._src.ops import math as _math
from ...._src.ops import reduce as _reduce
from ...._src.ops.sequences import one_hot
from ..base import Layer

EPSILON = 1e-7  # keras.backend.epsilon(): the smallest standard deviation Normalization divides by


class Normalization(Layer):
    """(x - mean) / max(sqrt(variance), 1e-7) per position of the kept `axis` (the last by default);
    invert=True maps back: mean + x * max(sqrt(variance), 1e-7)."""
    supports_masking = True

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = () if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
        self.input_mean, self.input_variance, self.invert = mean, variance, invert
        if (mean is not None) != (variance is not None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must be set. Received: "
                             f"mean={mean} and variance={variance}")
        self._build_input_shape = None
        self.adapt_mean = self.adapt_variance = None

    def build(self, input_shape):
        ndim = len(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). Received inputs with ndim={ndim}, "
                             f"while axis={self.axis}")
        self._build_input_shape = tuple(input_shape)
        self._keep_axis = tuple(sorted(a % ndim for a in self.axis))
        for d in self._keep_axis:
            if input_shape[d] is None:
                raise ValueError(f"All `axis` values to be kept must have a known shape. Received axis={self.axis}, "
                                 f"inputs.shape={tuple(input_shape)}, with unknown axis at index {d}")
        self._reduce_axis = tuple(d for d in range(ndim) if d not in self._keep_axis)
        self._broadcast_shape = [input_shape[d] if d in self._keep_axis else 1 for d in range(ndim)]
        stats_shape = tuple(input_shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(stats_shape, "zeros", name="mean", trainable=False)
            self.adapt_variance = self.add_weight(stats_shape, "ones", name="variance", trainable=False)
            self.count = self.add_weight((), "zeros", name="count", dtype="int64", trainable=False)
        self.built = True

    def _statistic(self, weight, given):
        """Read when used (not cached at build), so loaded or re-adapted weights and traced calls see the
        current values."""
        if given is not None:
            return _array.broadcast_to(_math.cast(convert_to_tensor(given), self._dtype), self._broadcast_shape)
        return None if weight is None else _array.reshape(weight, self._broadcast_shape)

    @property
    def mean(self):
        return self._statistic(self.adapt_mean, self.input_mean) if self.built else None

    @property
    def variance(self):
        return self._statistic(self.adapt_variance, self.input_variance) if self.built else None

    def finalize_state(self):
        """Keras' hook after adapt: nothing to do, the statistics are read from the weights when used."""

    def adapt(self, data, batch_size=None, steps=None):
        """Sets mean and variance from `data` (an array or tensor, or a Dataset of batches: the batches'
        statistics are combined by their counts)."""
        from ...._src.data.dataset import Dataset
        if isinstance(data, Dataset):
            shape = tuple(data.element_spec.shape.as_list())
            if len(shape) == 1:
                data = data.batch(128)
                shape = tuple(data.element_spec.shape.as_list())
        else:
            data = np.asarray(data.numpy() if hasattr(data, "numpy") else data, np.float64)
            shape = data.shape
        if not self.built:
            self.build(shape)
        else:
            for d in self._keep_axis:
                if shape[d] != self._build_input_shape[d]:
                    raise ValueError(f"The layer was built with input_shape={self._build_input_shape}, but adapt() "
                                     f"is being called with data with an incompatible shape, data.shape={shape}")
        if isinstance(data, np.ndarray):
            mean, var = data.mean(axis=self._reduce_axis), data.var(axis=self._reduce_axis)
        else:
            mean = var = 0.0
            total = 0
            for batch in data:
                batch = np.asarray(batch.numpy(), np.float64)
                count = int(np.prod([batch.shape[d] for d in self._reduce_axis])) if self._reduce_axis else 1
                total += count
                w_new = count / total
                b_mean, b_var = batch.mean(axis=self._reduce_axis), batch.var(axis=self._reduce_axis)
                new_mean = mean * (1 - w_new) + b_mean * w_new
                var = (var + (mean - new_mean) ** 2) * (1 - w_new) + (b_var + (b_mean - new_mean) ** 2) * w_new
                mean = new_mean
        self.adapt_mean.assign(np.asarray(mean, np.float32).reshape(self.adapt_mean.shape.as_list()))
        self.adapt_variance.assign(np.asarray(var, np.float32).reshape(self.adapt_variance.shape.as_list()))
        self.finalize_state()

    def call(self, inputs):
        x = _math.cast(inputs, self._dtype) if inputs.dtype is not self._dtype else inputs
        mean = self.mean
        std = _math.maximum(_math.sqrt(self.variance), _math.cast(EPSILON, self._dtype))
        return mean + x * std if self.invert else (x - mean) / std

    def get_config(self):
        def plain(v):
            return None if v is None else np.array(v).tolist()
        return {**super().get_config(), "axis": list(self.axis), "invert": self.invert,
                "mean": plain(self.input_mean), "variance": plain(self.input_variance)}


class CategoryEncoding(Layer):
    """Integer ids in [0, num_tokens) -> a (..., num_tokens) float vector: "one_hot" per id, "multi_hot"
    1 where an id occurs in the sample's last axis, "count" how often it occurs."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("one_hot", "multi_hot", "count"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if sparse:
            raise NotImplementedError("CategoryEncoding(sparse=True) is not supported yet.")
        self.num_tokens, self.output_mode = num_tokens, output_mode

    def call(self, inputs, count_weights=None):
        if count_weights is not None:
            raise NotImplementedError("CategoryEncoding(count_weights=...) is not supported yet.")
        return encode_categorical(inputs, self.output_mode, self.num_tokens, self._dtype)

    def get_config(self):
        return {**super().get_config(), "num_tokens": self.num_tokens, "output_mode": self.output_mode}


def encode_categorical(ids, output_mode, depth, dtype):
    """Integer ids -> Keras' (..., depth) encoding: "one_hot" per id (a trailing axis of 1 dropped first),
    "multi_hot" 1 where an id occurs in the last axis, "count" how often it occurs (a scalar id counts as
    a sample of one). Shared by CategoryEncoding and Hashing."""
    ids = _math.cast(ids, "int64") if ids.dtype.name != "int64" else ids
    rank = ids.shape.rank
    if output_mode == "one_hot":
        if rank and rank > 1 and ids.shape.as_list()[-1] == 1:
            ids = _array.squeeze(ids, [-1])
        return one_hot(ids, depth, dtype=dtype)
    hot = one_hot(ids if rank else _array.reshape(ids, [1]), depth, dtype=dtype)
    return _reduce.reduce_max(hot, -2) if output_mode == "multi_hot" else _reduce.reduce_sum(hot, -2)


class Discretization(Layer):
    """The bucket of each value: the number of `bin_boundaries` at or below it (int32), so boundaries
    [0., .5, 1.] send -1.5 to 0, 0. to 1, .2 to 1 and 1. to 3; with num_bins, `adapt` finds the boundaries."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False,
                 dtype=None, name=None):
        super().__init__(name=name, dtype=dtype)
        if output_mode != "int" or sparse:
            raise NotImplementedError("Discretization supports output_mode='int' (dense) only for now.")
        if bin_boundaries is not None and num_bins is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: num_bins={num_bins} "
                             f"and bin_boundaries={bin_boundaries}")
        if bin_boundaries is None and num_bins is None:
            raise ValueError("You need to set either `bin_boundaries` or `num_bins`.")
        self.bin_boundaries = None if bin_boundaries is None else list(bin_boundaries)
        self.num_bins, self.epsilon = num_bins, epsilon
        self.output_mode, self.sparse = output_mode, sparse
        self.reset_state()

    def reset_state(self):
        self.summary = np.array([[], []], dtype="float32")

    def adapt(self, data, steps=None):
        """Sets num_bins - 1 boundaries at the data's quantiles, with Keras' summary (each batch summarised
        to about 1/epsilon points, summaries merged and compressed by interpolated cumulative weights)."""
        from ...._src.data.dataset import Dataset
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with `bin_boundaries`, "
                             "use `num_bins` instead.")
        self.reset_state()
        if isinstance(data, Dataset):
            batches = data.take(steps) if steps is not None else data
        elif hasattr(data, "__iter__") and not isinstance(data, np.ndarray) and not hasattr(data, "numpy"):
            batches = list(data)[:steps] if steps is not None else data
        else:
            batches = [data]
        for batch in batches:
            values = np.asarray(batch.numpy() if hasattr(batch, "numpy") else batch).astype("float32")
            self.summary = _merge_summaries(_summarize(values, self.epsilon), self.summary, self.epsilon)
        self.bin_boundaries = _compress_summary(self.summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        x = _math.cast(x, "float64") if not x.dtype.is_floating else x
        counts = [_math.cast(_math.greater_equal(x, _math.cast(b, x.dtype)), "int32") for b in self.bin_boundaries or ()]
        out = _array.zeros_like(x, dtype="int32")  # Keras 3.15 returns int32 bucket ids
        for c in counts:
            out = out + c
        return out

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name, "dtype": self.dtype}


def _summarize(values, epsilon):
    """Every step-th sorted value (step = max(n * epsilon, 1)), each weighing `step`: rows (values, weights)."""
    values = np.sort(np.reshape(values, [-1]))
    step = max(np.size(values) * epsilon, 1)
    boundaries = values[int(step - 1)::int(step)]
    return np.stack([boundaries, np.ones_like(boundaries) * step])


def _compress_summary(summary, epsilon):
    """About 1/epsilon points at equal steps of the interpolated cumulative weight."""
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_percents, summary[0])
    cum_weights = np.interp(percents, cum_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype("float32")


def _merge_summaries(previous, following, epsilon):
    merged = np.concatenate((previous, following), axis=1)
    return _compress_summary(np.take(merged, np.argsort(merged[0]), axis=1), epsilon)
