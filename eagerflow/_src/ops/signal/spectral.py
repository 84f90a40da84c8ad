"""`tf.signal.stft`, `inverse_stft` and `inverse_stft_window_fn`: framing, a window and a real
FFT per frame (and back, by overlap-add), composed as TensorFlow composes them, with its defaults:
fft_length is the smallest power of 2 holding frame_length, the window a periodic Hann window.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ..operands import as_tensor
from ..registry import static_value
from .frames import check_rank_at_least, frame, overlap_and_add, shape_arg
from .windows import hann_window
from ..array import basic as _array
from . import fourier as _fft
from ..array import joining as _joining
from ..array import tiling as _tiling
from ..math import elementwise as _math
from ..array import padding as _padding
from ..math import reduce as _reduce
from . import fft as _signal_fft


def _scalar(value):
    t = as_tensor(value, _dt.int32)
    if t.shape.rank is not None and t.shape.rank != 0:
        raise ValueError(f"Shape {t.shape} must have rank 0")
    return t


def enclosing_power_of_two(value):
    """The smallest power of 2 >= value (TensorFlow's default fft_length for a frame length)."""
    known = static_value(value)
    if known is not None:
        return as_tensor(np.array(int(2 ** np.ceil(np.log(int(known)) / np.log(2.0))), value.dtype.np_dtype))
    exponent = _math.ceil(_math.log(_math.cast(value, _dt.float32)) / np.log(2.0))
    return _math.cast(_math.pow(as_tensor(2.0), exponent), value.dtype)


def _known_or(t):
    """A Python int for a scalar known now (so traced shapes stay static), else the tensor."""
    value = static_value(t)
    return t if value is None else int(value)


def _length_arg(fft_length):
    known = _known_or(fft_length)
    return [known] if isinstance(known, int) else _array.reshape(fft_length, [1])


def _fft_length(fft_length, frame_length):
    if fft_length is None:
        return enclosing_power_of_two(frame_length)
    return _scalar(fft_length)


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """`tf.signal.stft`: [..., frames, fft_length // 2 + 1] complex spectra of windowed frames."""
    signals = as_tensor(signals)
    check_rank_at_least(signals, 1)
    frame_length = _scalar(frame_length)
    frame_step = _scalar(frame_step)
    fft_length = _fft_length(fft_length, frame_length)
    framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(frame_length, dtype=framed.dtype)
    return _signal_fft.rfft(framed, _length_arg(fft_length))


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """`tf.signal.inverse_stft_window_fn`: a window_fn for inverse_stft that undoes
    `forward_window_fn`'s weighting: the forward window divided by the sum of the squared windows
    overlapping each sample (0 where that sum is 0)."""
    def inverse_window(frame_length, dtype):
        step = _known_or(_scalar(frame_step))
        length = _known_or(_scalar(frame_length))
        forward = forward_window_fn(length, dtype=dtype)
        overlaps = -(-length // step)
        denom = _padding.pad(_math.square(forward), _array.reshape(shape_arg([0, overlaps * step - length]), [1, 2]))
        denom = _reduce.reduce_sum(_array.reshape(denom, shape_arg([overlaps, step])), 0, keepdims=True)
        denom = _array.reshape(_tiling.tile(denom, shape_arg([overlaps, 1])), shape_arg([overlaps * step]))
        denom = denom[:length]
        return _array.where(_math.equal(denom, 0.0), _array.zeros_like(forward), forward / denom)
    return inverse_window


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """`tf.signal.inverse_stft`: frames back from each spectrum (irfft, cut or zero-padded to
    frame_length), windowed by `window_fn` and overlap-added. Pass
    `window_fn=inverse_stft_window_fn(frame_step)` to invert `stft` exactly."""
    stfts = as_tensor(stfts)
    check_rank_at_least(stfts, 2)
    frame_length = _scalar(frame_length)
    frame_step = _scalar(frame_step)
    fft_length = _fft_length(fft_length, frame_length)
    frames = _signal_fft.irfft(stfts, _length_arg(fft_length))
    known = static_value(frame_length)
    have = frames.shape[-1] if frames.shape.rank is not None else None
    if known is None or have is None:
        frames = frames[..., :frame_length]
        extra = _math.maximum(0, frame_length - _array.shape(frames)[-1])
        paddings = _joining.concat([_array.zeros(shape_arg([_array.rank(frames) - 1, 2]), _dt.int32),
                                    _array.reshape(shape_arg([0, extra]), [1, 2])], 0)
        frames = _padding.pad(frames, paddings)
    elif have > int(known):
        frames = frames[..., :int(known)]
    elif have < int(known):
        frames = _padding.pad(frames, [[0, 0]] * (frames.shape.rank - 1) + [[0, int(known) - have]])
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=_fft.REAL_OF[stfts.dtype])
    return overlap_and_add(frames, frame_step)


