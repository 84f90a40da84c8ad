"""MelSpectrogram: audio (batch, samples) or (samples,) to a mel-scaled power spectrogram
(batch, num_mel_bins, frames), in decibels by default, as Keras 3 computes it: a centred STFT (the
signal reflect-padded by fft_length // 2 each side, a periodic Hann or Hamming window of sequence_length
centred in fft_length), |STFT| ** mag_exp, the HTK mel filterbank, then 10 log10 against ref_power with
the floor top_db below the maximum over the whole batch."""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.array.padding import pad
from ...._src.ops.linalg.matmul import matmul
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.signal import mel as _mel
from ...._src.ops.signal import spectral as _spectral
from ...._src.ops.signal import windows as _windows
from ..base import Layer

_WINDOWS = ("hann", "hamming")


def _log10(x):
    return _math.log(x) / _math.log(_math.cast(10.0, x.dtype))


class MelSpectrogram(Layer):
    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None, window="hann", sampling_rate=16000,
                 num_mel_bins=128, min_freq=20.0, max_freq=None, power_to_db=True, top_db=80.0, mag_exp=2.0,
                 min_power=1e-10, ref_power=1.0, **kwargs):
        self.fft_length, self.sequence_stride = fft_length, sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError(f"`fft_length` must be greater than or equal to   `sequence_length`. Received: "
                             f"`sequence_length`={self.sequence_length}, `fft_length`={self.fft_length}.")
        if window not in _WINDOWS:
            raise NotImplementedError(f"MelSpectrogram(window={window!r}) is not supported yet: use 'hann' or "
                                      f"'hamming'.")
        self.window, self.sampling_rate, self.num_mel_bins = window, sampling_rate, num_mel_bins
        self.min_freq, self.max_freq = min_freq, max_freq or int(sampling_rate / 2)
        self.power_to_db, self.top_db, self.mag_exp = power_to_db, top_db, mag_exp
        self.min_power, self.ref_power = min_power, ref_power
        super().__init__(**kwargs)

    def _spectrogram(self, signals):
        half = self.fft_length // 2
        paddings = [[0, 0]] * (signals.shape.rank - 1) + [[half, half]]
        signals = pad(signals, paddings, mode="REFLECT")
        make = _windows.hann_window if self.window == "hann" else _windows.hamming_window
        window = make(self.sequence_length, periodic=True, dtype=signals.dtype)
        left = (self.fft_length - self.sequence_length) // 2
        window = pad(window, [[left, self.fft_length - self.sequence_length - left]])
        stft = _spectral.stft(signals, frame_length=self.fft_length, frame_step=self.sequence_stride,
                              fft_length=self.fft_length, window_fn=lambda length, dtype: window)
        magnitude = _math.abs(stft)
        return _math.pow(magnitude, _math.cast(self.mag_exp, magnitude.dtype))

    def call(self, inputs):
        dtype = self._dtype.name if self._dtype.name in ("float32", "float64") else "float32"
        signals = convert_to_tensor(inputs, dtype=dtype)
        spec = self._spectrogram(signals)  # (..., frames, fft_length // 2 + 1)
        bins = spec.shape.as_list()[-1]
        weights = _mel.linear_to_mel_weight_matrix(self.num_mel_bins, bins, self.sampling_rate, self.min_freq,
                                                   self.max_freq, dtype=spec.dtype)
        mel = _array.reshape(matmul(_array.reshape(spec, [-1, bins]), weights),
                             [-1 if d is None else d for d in spec.shape.as_list()[:-1]] + [self.num_mel_bins])
        if self.power_to_db:
            floor = _math.cast(self.min_power, mel.dtype)
            db = 10.0 * _log10(_math.maximum(mel, floor))
            db = db - 10.0 * _log10(_math.maximum(_math.cast(abs(self.ref_power), mel.dtype), floor))
            mel = _math.maximum(db, _reduce.reduce_max(db) - _math.cast(self.top_db, db.dtype))
        rank = mel.shape.rank
        out = _array.transpose(mel, list(range(rank - 2)) + [rank - 1, rank - 2])
        return _math.cast(out, self._dtype) if out.dtype != self._dtype else out

    def get_config(self):
        return {**super().get_config(), "fft_length": self.fft_length, "sequence_stride": self.sequence_stride,
                "sequence_length": self.sequence_length, "window": self.window, "sampling_rate": self.sampling_rate,
                "num_mel_bins": self.num_mel_bins, "min_freq": self.min_freq, "max_freq": self.max_freq,
                "power_to_db": self.power_to_db, "top_db": self.top_db, "mag_exp": self.mag_exp,
                "min_power": self.min_power, "ref_power": self.ref_power}
