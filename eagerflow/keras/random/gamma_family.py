"""keras.random.gamma, beta and binomial, built from stateless normal and uniform draws so that they
follow the same seed rules (and run inside traced functions) as the other draws.

Gamma: Marsaglia and Tsang's squeeze method, vectorised. Each sample gets `_TRIES` candidate
(normal, uniform) pairs and keeps the first accepted one; the acceptance rate is above 95 % for
shape >= 1, so all tries failing has odds below 1e-20. A shape alpha < 1 samples Gamma(alpha + 1)
and multiplies by U ** (1 / alpha). Beta(a, b) is X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b).
Binomial(n, p) counts, for each sample, how many of n uniform draws fall below p (n known when the
function is called).
"""
from __future__ import annotations

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..._src.ops.random import stateless as _stateless
from .draws import _float_dtype
from .seed_generator import draw_seed

_TRIES = 16


def _split(seed_pair, count):
    return [_stateless.stateless_fold_in(seed_pair, i) for i in range(count)]


def _standard_gamma(shape, alpha, seed_pair):
    """Gamma(alpha, 1) samples of `shape` in float32, alpha broadcast to it."""
    shape = list(shape)
    alpha = _array.broadcast_to(_math.cast(convert_to_tensor(alpha), "float32"), shape)
    one = convert_to_tensor(1.0, "float32")
    small = _math.less(alpha, one)
    boosted = _array.where(small, alpha + one, alpha)
    d = boosted - convert_to_tensor(1.0 / 3.0, "float32")
    c = one / _math.sqrt(convert_to_tensor(9.0, "float32") * d)
    normal_seed, uniform_seed, boost_seed = _split(seed_pair, 3)
    x = _stateless.stateless_normal([_TRIES] + shape, normal_seed)
    u = _stateless.stateless_uniform([_TRIES] + shape, uniform_seed)
    v = (one + c * x) ** 3
    tiny = convert_to_tensor(np.finfo(np.float32).tiny, "float32")
    safe_v = _math.maximum(v, tiny)
    accept = _math.logical_and(
        _math.greater(v, convert_to_tensor(0.0, "float32")),
        _math.less(_math.log(_math.maximum(u, tiny)),
                   convert_to_tensor(0.5, "float32") * x * x + d - d * safe_v + d * _math.log(safe_v)))
    accepted = _math.cast(accept, "int32")
    first = _math.logical_and(accept, _math.equal(_reduce.cumsum(accepted, axis=0), 1))
    sample = _reduce.reduce_sum(_array.where(first, d * safe_v, _array.zeros_like(safe_v)), axis=0)
    sample = _array.where(_reduce.reduce_any(accept, axis=0), sample, d)  # never reached in practice
    boost = _stateless.stateless_uniform(shape, boost_seed, minval=np.finfo(np.float32).tiny, maxval=1.0)
    return _array.where(small, sample * boost ** (one / alpha), sample)


def gamma(shape, alpha, dtype=None, seed=None):
    """Gamma(alpha, 1) samples."""
    dtype = _float_dtype(dtype, alpha)
    return _math.cast(_standard_gamma(shape, alpha, draw_seed(seed)), dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Beta(alpha, beta) samples in [0, 1]."""
    dtype = _float_dtype(dtype, alpha)
    first, second = _split(draw_seed(seed), 2)
    x, y = _standard_gamma(shape, alpha, first), _standard_gamma(shape, beta, second)
    return _math.cast(x / (x + y), dtype)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Binomial(counts, probabilities) samples (the number of successes), as floats like Keras."""
    dtype = _float_dtype(dtype, counts)
    n = np.asarray(counts.numpy() if hasattr(counts, "numpy") else counts)
    if n.size == 0 or not np.issubdtype(n.dtype, np.number):
        raise ValueError(f"`counts` must be numbers known when `binomial` is called. Received: counts={counts}")
    trials = int(n.max())
    shape = list(shape)
    u = _stateless.stateless_uniform([trials] + shape, draw_seed(seed))
    p = _array.broadcast_to(_math.cast(convert_to_tensor(probabilities), "float32"), shape)
    n_t = _array.broadcast_to(convert_to_tensor(n.astype(np.float32)), shape)
    trial = _array.reshape(convert_to_tensor(np.arange(trials, dtype=np.float32)), [trials] + [1] * len(shape))
    success = _math.logical_and(_math.less(u, p), _math.less(trial, n_t))
    return _math.cast(_reduce.reduce_sum(_math.cast(success, "float32"), axis=0), dtype)
