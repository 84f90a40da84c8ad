"""Discretization: the bucket index of each value among boundaries, given or learned by `adapt` (quantiles from
a streaming summary), as Keras 3.15 computes them."""
from __future__ import annotations

import numpy as np

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ..base import Layer


class Discretization(Layer):
    """The bucket of each value: the number of `bin_boundaries` at or below it (int32), so boundaries
    [0., .5, 1.] send -1.5 to 0, 0. to 1, .2 to 1 and 1. to 3; with num_bins, `adapt` finds the boundaries."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False,
                 dtype=None, name=None):
        super().__init__(name=name, dtype=dtype)
        if output_mode != "int" or sparse:
            raise NotImplementedError("Discretization supports output_mode='int' (dense) only for now.")
        if bin_boundaries is not None and num_bins is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: `num_bins={num_bins}` "
                             f"and `bin_boundaries={bin_boundaries}`")
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

    @classmethod
    def from_config(cls, config):
        """An adapted layer's config holds both `num_bins` and the boundaries adapt found: rebuilt from
        `num_bins`, then given the boundaries (as Keras reloads it)."""
        config = dict(config)
        boundaries = config.pop("bin_boundaries", None)
        if config.get("num_bins") is None:
            return cls(bin_boundaries=boundaries, **config)
        layer = cls(**config)
        layer.bin_boundaries = None if boundaries is None else list(boundaries)
        return layer

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
