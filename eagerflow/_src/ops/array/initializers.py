"""TensorFlow 2's callable initializer classes at the top level: `tf.constant_initializer`,
`tf.zeros_initializer`, `tf.ones_initializer`, `tf.random_normal_initializer`,
`tf.random_uniform_initializer`. Each is configured once and called as `init(shape, dtype)`.

A seeded random initializer gives the same values on every call (TensorFlow draws them with
stateless ops from the seed); an unseeded one draws fresh values from the global generator.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ..operands import as_tensor


class Initializer:
    """The base: `__call__(shape, dtype=None, **kwargs)`, `get_config()` and `from_config()`."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError("Initializer subclasses must implement __call__")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)


def _shape_list(shape):
    return [int(d) for d in (shape.as_list() if hasattr(shape, "as_list") else np.ravel(np.asarray(shape)))]


def _numeric_or_bool(dtype):
    dtype = _dt.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer or dtype.is_complex or dtype.is_bool):
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype!r}.")
    return dtype


class Zeros(Initializer):
    """tf.zeros_initializer: zeros of the given shape (float32 unless told)."""

    def __call__(self, shape, dtype=_dt.float32, **kwargs):
        from .basic import zeros
        return zeros(_shape_list(shape), _numeric_or_bool(dtype))


class Ones(Initializer):
    """tf.ones_initializer: ones of the given shape (float32 unless told)."""

    def __call__(self, shape, dtype=_dt.float32, **kwargs):
        from .basic import ones
        return ones(_shape_list(shape), _numeric_or_bool(dtype))


class Constant(Initializer):
    """tf.constant_initializer(value): a scalar fills the shape, a list must have its size."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        from .basic import fill, reshape
        dims = _shape_list(shape)
        value = as_tensor(self.value, None if dtype is None else _dt.as_dtype(dtype))
        count = int(np.prod(dims, dtype=np.int64))
        size = value.shape.num_elements()
        if size == 1:
            return fill(dims, reshape(value, []))
        if size != count:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {value.numpy()} (converted "
                            f"from {self.value}) has {size} elements, but got `shape` {tuple(dims)} with {count} "
                            "elements).")
        return reshape(value, dims)

    def get_config(self):
        return {"value": self.value}


def _float_dtype(dtype):
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype!r}.")
    return dtype


class RandomNormal(Initializer):
    """tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=None)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=_dt.float32, **kwargs):
        dtype = _float_dtype(dtype)
        dims = _shape_list(shape)
        if self.seed is None:
            from ..random.draws import normal
            return normal(dims, self.mean, self.stddev, dtype=dtype)
        draw = np.random.default_rng(self.seed).normal(self.mean, self.stddev, size=dims)
        return as_tensor(draw.astype(dtype.np_dtype))

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class RandomUniform(Initializer):
    """tf.random_uniform_initializer(minval=-0.05, maxval=0.05, seed=None); integer dtypes draw
    integers in [minval, maxval)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=_dt.float32, **kwargs):
        dtype = _dt.as_dtype(dtype)
        if not (dtype.is_floating or dtype.is_integer):
            raise ValueError(f"Argument `dtype` is expected to be floating point or integer. Received: {dtype!r}.")
        dims = _shape_list(shape)
        if self.seed is None:
            from ..random.draws import uniform
            return uniform(dims, self.minval, self.maxval, dtype=dtype)
        rng = np.random.default_rng(self.seed)
        if dtype.is_integer:
            draw = rng.integers(int(self.minval), int(self.maxval), size=dims)
        else:
            draw = rng.uniform(self.minval, self.maxval, size=dims)
        return as_tensor(draw.astype(dtype.np_dtype))

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


constant_initializer = Constant
zeros_initializer = Zeros
ones_initializer = Ones
random_normal_initializer = RandomNormal
random_uniform_initializer = RandomUniform
