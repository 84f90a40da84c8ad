"""keras.random's draws: normal, uniform, truncated_normal, randint, categorical, dropout, shuffle.

Each is a stateless draw (tf.random.stateless_*) under the seed pair that `seed=` gives
(seed_generator.draw_seed), so the determinism rules are Keras 3's and a draw inside a traced function
runs anew on every call. The values are not Keras' (a different generator); shapes, dtypes, ranges and
statistics are. The default float dtype is keras.config.floatx().
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.array.joining import stack
from ..._src.ops.array.ordering import argsort
from ..._src.ops.array.slicing import gather
from ..._src.ops.math import elementwise as _math
from ..._src.ops.random import stateless as _stateless
from ..backend_settings import floatx
from .seed_generator import draw_seed


def _float_dtype(dtype, what):
    dtype = _dt.as_dtype(dtype or floatx())
    if not dtype.is_floating:
        raise TypeError(f"Cannot convert {what} to EagerTensor of dtype {dtype.name}")
    return dtype


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples of N(mean, stddev**2)."""
    dtype = _float_dtype(dtype, 0.0)
    return _stateless.stateless_normal(shape, draw_seed(seed), mean=mean, stddev=stddev, dtype=dtype)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Floats in [minval, maxval)."""
    dtype = _dt.as_dtype(dtype or floatx())
    if not dtype.is_floating:
        raise ValueError(f"`keras.random.uniform` requires a floating point `dtype`. Received: dtype={dtype.name} ")
    return _stateless.stateless_uniform(shape, draw_seed(seed), minval=minval, maxval=maxval, dtype=dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples redrawn until within two standard deviations of the mean."""
    dtype = _float_dtype(dtype, 0.0)
    return _stateless.stateless_truncated_normal(shape, draw_seed(seed), mean=mean, stddev=stddev, dtype=dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers in [minval, maxval)."""
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_integer:
        raise ValueError(f"`keras.random.randint` requires an integer `dtype`. Received: dtype={dtype.name} ")
    for bound in (minval, maxval):
        if isinstance(bound, float):
            raise TypeError(f"Cannot convert {bound} to EagerTensor of dtype {dtype.name}")
    return _stateless.stateless_uniform(shape, draw_seed(seed), minval=minval, maxval=maxval, dtype=dtype)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """`num_samples` class indices per row of a (batch, classes) tensor of unnormalized log-probabilities."""
    logits = convert_to_tensor(logits)
    if logits.shape.rank != 2:
        raise ValueError(f"`logits` should be a 2-D tensor with shape [batch_size, num_classes]. Received: "
                         f"logits={logits}")
    return _stateless.stateless_categorical(logits, num_samples, draw_seed(seed), dtype=dtype)


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zeroes each entry with probability `rate` and scales the rest by 1 / (1 - rate); `noise_shape`
    (None entries: the input's size) shares one keep/drop decision along its axes of size 1."""
    x = convert_to_tensor(inputs)
    if not (0 <= float(rate) < 1):
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    if noise_shape is None:
        shape = _array.shape(x)
    else:
        static = x.shape.as_list()
        shape = [static[i] if d is None else d for i, d in enumerate(noise_shape)]
        if any(d is None for d in shape):  # an unknown size: read from the input when it runs
            dynamic = _array.shape(x)
            shape = stack([dynamic[i] if d is None else convert_to_tensor(d, dynamic.dtype)
                           for i, d in enumerate(shape)])
    keep = _math.greater_equal(_stateless.stateless_uniform(shape, draw_seed(seed), dtype=x.dtype),
                               convert_to_tensor(rate, x.dtype))
    scale = convert_to_tensor(1.0 / (1.0 - float(rate)), x.dtype)
    return x * scale * _math.cast(keep, x.dtype)


def shuffle(x, axis=0, seed=None):
    """`x` with its entries along `axis` in a random order (one permutation for the whole axis)."""
    x = convert_to_tensor(x)
    size = _array.shape(x)[axis]
    order = argsort(_stateless.stateless_uniform(_array.reshape(size, [1]), draw_seed(seed)))
    return gather(x, order, axis=axis)
