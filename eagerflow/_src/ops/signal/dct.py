"""`tf.signal.dct` / `idct` (types I-IV, norm None or 'ortho', along the last axis) and
`tf.signal.mdct` / `inverse_mdct`, composed from the real FFT as TensorFlow composes them: a DCT-II
is the real part of a length-2N RFFT's first N bins times a phase ramp, a DCT-III the matching
IRFFT, a DCT-IV every other bin of a DCT-II of length 2N, a DCT-I the RFFT of the even extension.
Their gradients are those of the ops they are made of.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .fourier import COMPLEX_OF
from ..operands import as_tensor
from ..registry import static_value
from .frames import check_rank_at_least, frame, overlap_and_add, shape_arg
from .windows import vorbis_window
from ..array import basic as _array
from ..math import complex as _complex
from ..array import joining as _joining
from ..math import elementwise as _math
from ..array import ordering as _ordering
from ..array import padding as _padding
from ..array import sequences as _sequences
from . import fft as _signal_fft


def _validate(x, dct_type, n, axis, norm):
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        last = x.shape[-1] if x.shape.rank else None
        if last is not None and last < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _last_dim(x):
    known = x.shape[-1] if x.shape.rank else None
    return known if known is not None else _array.shape(x)[-1]


def _phase_ramp(size, dtype, sign):
    """2 exp(sign * i pi k / (2 N)) for k < N, in the complex dtype matching `dtype`."""
    k = _math.cast(_sequences.range(size), dtype)
    angle = k * as_tensor(np.array(sign * np.pi * 0.5, dtype.np_dtype)) / _math.cast(as_tensor(size), dtype)
    complex_dtype = COMPLEX_OF[dtype]
    unit = _math.cast(_math.cos(angle), complex_dtype) + _math.cast(_math.sin(angle), complex_dtype) * 1j
    return unit * 2.0


def _edge_weights(size, first, rest):
    """[first, rest, rest, ...] of length `size` (the 'ortho' scaling of DCT-II and DCT-III)."""
    return _padding.pad(_array.reshape(first, [1]), _array.reshape(shape_arg([0, size - 1]), [1, 2]),
                        constant_values=rest)


def _fit_last(x, n):
    """x cut or zero-padded to n samples on its last axis."""
    size = _last_dim(x)
    if isinstance(size, int) and n <= size:
        return x[..., :n]
    if isinstance(size, int):
        return _padding.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - size]])
    x = x[..., :n]
    extra = _math.maximum(0, n - _array.shape(x)[-1])
    paddings = _joining.concat([_array.zeros(shape_arg([_array.rank(x) - 1, 2]), _dt.int32),
                                _array.reshape(shape_arg([0, extra]), [1, 2])], 0)
    return _padding.pad(x, paddings)


def _length_arg(size):
    return [size] if isinstance(size, int) else _array.reshape(size, [1])


def _dct(x, dct_type, n, norm):
    if n is not None:
        x = _fit_last(x, n)
    size = _last_dim(x)
    dtype = x.dtype
    size_f = _math.cast(as_tensor(size), dtype)
    if dct_type == 1:
        return _complex.real(_signal_fft.rfft(_joining.concat([x, x[..., -2:0:-1]], -1)))
    if dct_type == 2:
        spectrum = _signal_fft.rfft(x, _length_arg(2 * size))[..., :size]
        out = _complex.real(spectrum * _phase_ramp(size, dtype, -1.0))
        if norm == "ortho":
            first = 0.5 * _math.rsqrt(size_f)
            out = out * _edge_weights(size, first, first * np.sqrt(2.0))
        return out
    if dct_type == 3:
        if norm == "ortho":
            first = _math.sqrt(size_f)
            x = x * _edge_weights(size, first, first * np.sqrt(0.5))
        else:
            x = x * size_f
        spectrum = _phase_ramp(size, dtype, 1.0) * _math.cast(x, COMPLEX_OF[dtype])
        return _signal_fft.irfft(spectrum, _length_arg(2 * size))[..., :size]
    out = _dct(x, 2, 2 * size, None)[..., 1::2]  # type 4
    if norm == "ortho":
        out = out * (np.sqrt(0.5) * _math.rsqrt(size_f))
    return out


def _float_input(x):
    x = as_tensor(x)
    if not x.dtype.is_floating:
        raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {x.dtype.name}")
    return x


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TensorFlow's names
    """`tf.signal.dct`: the discrete cosine transform of the last axis (types 1-4; norm='ortho'
    makes types 2-4 orthonormal). `n` cuts or zero-pads the axis first."""
    x = _float_input(input)
    _validate(x, type, n, axis, norm)
    return _dct(x, type, n, norm)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TensorFlow's names
    """`tf.signal.idct`: the DCT of the inverse type (I <-> I, II <-> III, IV <-> IV). With
    norm='ortho' it inverts dct exactly; without, idct(dct(x)) is x scaled by 2N (2(N-1) for type I)."""
    x = _float_input(input)
    _validate(x, type, n, axis, norm)
    return _dct(x, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """`tf.signal.mdct`: the modified DCT of frames of `frame_length` samples (a multiple of 4) every
    frame_length / 2 samples: frame_length / 2 coefficients per frame."""
    signals = as_tensor(signals)
    check_rank_at_least(signals, 1)
    length = as_tensor(frame_length, _dt.int32)
    known = static_value(length)
    if known is not None:
        length = int(known)
        if length % 4 != 0:
            raise ValueError("The frame length must be a multiple of 4.")
    step = length // 2
    framed = frame(signals, length, step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(length, dtype=framed.dtype)
    else:
        framed = framed * (1.0 / np.sqrt(2))
    a, b, c, d = _joining.split(framed, 4, axis=-1)
    first = -_ordering.reverse(c, [-1]) - d
    second = a - _ordering.reverse(b, [-1])
    return dct(_joining.concat([first, second], -1), type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """`tf.signal.inverse_mdct`: signals back from MDCT coefficients (exact with a power
    complementary window such as the default Vorbis or a Kaiser-Bessel-derived one)."""
    mdcts = as_tensor(mdcts)
    check_rank_at_least(mdcts, 2)
    half = mdcts.shape[-1]
    if norm is None:
        coefficients = (0.5 / half) * dct(mdcts, type=4)
    else:
        coefficients = dct(mdcts, type=4, norm="ortho")
    a, b = _joining.split(coefficients, 2, axis=-1)
    frames = _joining.concat([b, -_ordering.reverse(b, [-1]), -_ordering.reverse(a, [-1]), -a], -1)
    if window_fn is not None:
        frames = frames * window_fn(2 * half, dtype=mdcts.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2))
    return overlap_and_add(frames, half)


