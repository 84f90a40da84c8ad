"""`tf.signal.linear_to_mel_weight_matrix` (HTK's mel scale, 1127 ln(1 + f / 700), triangular
bands) and `tf.signal.mfccs_from_log_mel_spectrograms` (an orthonormal-scaled DCT-II), composed
from ops as TensorFlow composes them, with its defaults (20 bands, 129 bins, 8 kHz, 125-3800 Hz).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.tensor import Tensor
from ..operands import as_tensor
from ..registry import static_value
from .dct import dct
from .frames import frame
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from ..array import padding as _padding
from ..array import sequences as _sequences

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hertz):
    return _MEL_HIGH_FREQUENCY_Q * _math.log(1.0 + hertz / _MEL_BREAK_FREQUENCY_HERTZ)


def _validate(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype):
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz {upper_edge_hertz:.1f}")
    if not isinstance(sample_rate, Tensor):
        if sample_rate <= 0.0:
            raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError(f"upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). "
                             f"Got {upper_edge_hertz} for sample_rate: {sample_rate}")
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype!s}")


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype=_dt.float32, name=None):
    """`tf.signal.linear_to_mel_weight_matrix`: [num_spectrogram_bins, num_mel_bins] weights that
    turn a linear-frequency magnitude spectrum (bins from 0 Hz to Nyquist) into mel bands:
    triangles spaced evenly on the mel scale; the DC bin gets no weight."""
    dtype = _dt.as_dtype(dtype)
    if isinstance(sample_rate, Tensor):
        known = static_value(sample_rate)
        if known is not None:
            sample_rate = known.item()
    _validate(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype)
    sample_rate = _math.cast(as_tensor(sample_rate), dtype)
    lower = as_tensor(lower_edge_hertz, dtype)
    upper = as_tensor(upper_edge_hertz, dtype)
    zero = as_tensor(np.array(0.0, dtype.np_dtype))
    nyquist = sample_rate / 2.0
    # the DC bin (index 0) is left out here and given zero weight by the padding at the end
    linear = _sequences.linspace(zero, nyquist, num_spectrogram_bins)[1:]
    bins_mel = _array.expand_dims(_hertz_to_mel(linear), 1)
    edges = frame(_sequences.linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), num_mel_bins + 2),
                  frame_length=3, frame_step=1)
    lower_mel, center_mel, upper_mel = (_array.reshape(t, [1, num_mel_bins]) for t in _joining.split(edges, 3, 1))
    rising = (bins_mel - lower_mel) / (center_mel - lower_mel)
    falling = (upper_mel - bins_mel) / (upper_mel - center_mel)
    weights = _math.maximum(zero, _math.minimum(rising, falling))
    return _padding.pad(weights, [[1, 0], [0, 0]])


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """`tf.signal.mfccs_from_log_mel_spectrograms`: the DCT-II of log-mel spectra over the last axis,
    scaled by 1 / sqrt(2 M) for M mel bins (HTK's MFCC scaling)."""
    x = as_tensor(log_mel_spectrograms)
    last = x.shape[-1] if x.shape.rank else None
    if last is not None:
        if last == 0:
            raise ValueError(f"num_mel_bins must be positive. Got: {x!s}")
        bins = last
    else:
        bins = _array.shape(x)[-1]
    dct2 = dct(x, type=2)
    return dct2 * _math.rsqrt(_math.cast(as_tensor(bins), dct2.dtype) * 2.0)


