"""Normalization: (x - mean) / sqrt(variance), with statistics from `adapt` on arrays or a tf.data Dataset,
or given, as Keras 3.15 computes them."""
from __future__ import annotations

import numpy as np

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
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


