"""`tf.signal` window functions: hann, hamming (raised cosines), kaiser, kaiser_bessel_derived and
vorbis. Composed from ops in the window's dtype, as TensorFlow computes them, so a traced window
of a length known only at run time works too, and the values agree with TensorFlow's to the last
bits of float32 (TensorFlow's windows are not exact either: hann(4, periodic=False)[2] is
0.74999994 there and here).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ..operands import as_tensor
from ..registry import static_value
from ..array import basic as _array
from ..math import bessel_zeta as _bessel
from ..array import joining as _joining
from ..math import elementwise as _math
from ..nn import basic as _nn
from ..math import reduce as _reduce
from ..array import sequences as _sequences


def check_window_args(window_length, dtype):
    """(window_length as an int32 scalar tensor, dtype) or TensorFlow's ValueError."""
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype!s}")
    length = as_tensor(window_length, _dt.int32)
    if length.dtype != _dt.int32:
        length = _math.cast(length, _dt.int32)
    if length.shape.rank is not None and length.shape.rank != 0:
        raise ValueError(f"Shape {length.shape} must have rank 0")
    return length, dtype


def _static_int(t):
    value = static_value(t)
    return None if value is None else int(value)


def _raised_cosine(window_length, periodic, dtype, a, b):
    """a - b cos(2 pi n / N) with N = length - 1, or N = length for a periodic window of even length:
    TensorFlow's `periodic * even` term, so an odd periodic window equals the symmetric one."""
    length, dtype = check_window_args(window_length, dtype)
    known = _static_int(length)
    if known == 1:
        return _array.ones([1], dtype)
    periodic = _math.cast(as_tensor(periodic, _dt.bool_), _dt.int32)
    even = 1 - length % 2
    n = _math.cast(length + periodic * even - 1, dtype)
    count = _math.cast(_sequences.range(length), dtype)
    window = as_tensor(np.array(a, dtype.np_dtype)) - as_tensor(np.array(b, dtype.np_dtype)) * _math.cos(
        as_tensor(np.array(2 * np.pi, dtype.np_dtype)) * count / n)
    if known is not None:
        return window
    return _array.where(_math.equal(length, 1), _array.ones_like(window), window)


def hann_window(window_length, periodic=True, dtype=_dt.float32, name=None):
    """`tf.signal.hann_window`: 0.5 - 0.5 cos(2 pi n / N); periodic (the default) for spectral
    analysis, symmetric (periodic=False) for filter design."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=_dt.float32, name=None):
    """`tf.signal.hamming_window`: 0.54 - 0.46 cos(2 pi n / N)."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def kaiser_window(window_length, beta=12., dtype=_dt.float32, name=None):
    """`tf.signal.kaiser_window`: I0(beta sqrt(1 - (2n/(N-1) - 1)^2)) / I0(beta), computed with the
    scaled Bessel function i0e so a large beta does not overflow."""
    length, dtype = check_window_args(window_length, dtype)
    if _static_int(length) == 1:
        return _array.ones([1], dtype)
    half = (_math.cast(length, _dt.float32) - 1.0) / 2.0
    arg = _math.cast(_sequences.range(-half, half + 0.1, dtype=_dt.float32), dtype)
    beta = _math.cast(as_tensor(beta), dtype)
    half = _math.cast(half, dtype)
    one = as_tensor(np.array(1.0, dtype.np_dtype))
    num = beta * _math.sqrt(_nn.relu(one - _math.square(arg / half)))
    return _math.exp(num - beta) * (_bessel.bessel_i0e(num) / _bessel.bessel_i0e(beta))


def kaiser_bessel_derived_window(window_length, beta=12., dtype=_dt.float32, name=None):
    """`tf.signal.kaiser_bessel_derived_window`: the square root of the Kaiser window's running sum,
    mirrored (power complementary, for MDCTs). As in TensorFlow an odd length gives length - 1
    values."""
    length, dtype = check_window_args(window_length, dtype)
    kaiser = kaiser_window(length // 2 + 1, beta, dtype=dtype)
    running = _reduce.cumsum(kaiser)
    half = _math.sqrt(running[:-1] / running[-1])
    return _joining.concat([half, half[::-1]], 0)


def vorbis_window(window_length, dtype=_dt.float32, name=None):
    """`tf.signal.vorbis_window`: sin(pi/2 sin^2(pi (n + 0.5) / N)), power complementary."""
    length, dtype = check_window_args(window_length, dtype)
    arg = _math.cast(_sequences.range(length), dtype)
    pi = as_tensor(np.array(np.pi, dtype.np_dtype))
    inner = _math.sin(pi / _math.cast(length, dtype) * (arg + as_tensor(np.array(0.5, dtype.np_dtype))))
    return _math.sin(pi / 2.0 * _math.pow(inner, as_tensor(np.array(2.0, dtype.np_dtype))))


