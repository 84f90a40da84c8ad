"""STFTSpectrogram: (batch, samples, channels) audio to per-channel spectrograms, as Keras 3 computes
them: a strided 1-D convolution of each channel with windowed DFT kernels (the non-trainable weights
`real_kernel` and `imag_kernel`, (frame_length, 1, fft_length // 2 + 1)), then the mode's quantity:
"log" (log magnitude), "magnitude", "psd", "real", "imag", "angle" or "stft" (real and imaginary parts).
Channels come out side by side on the last axis (or on their own axis with expand_dims)."""
from __future__ import annotations

import math

import numpy as np

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.array.padding import pad
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import special as _special
from ...._src.ops.nn import conv as _conv
from ..base import Layer
from ..input_spec import check_ndim

_MODES = ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]
_EPSILON = 1e-7  # Keras' backend epsilon


def _window(name, length, periodic):
    """A Hann or Hamming window of `length` (periodic: one period of length + 1 points, last dropped)."""
    if name not in ("hann", "hamming"):
        raise NotImplementedError(f"STFTSpectrogram(window={name!r}) is not supported yet: use 'hann', "
                                  f"'hamming', None or an array.")
    span = length if periodic else length - 1
    n = np.arange(length)
    a = 0.5 if name == "hann" else 0.54
    return a - (1 - a) * np.cos(2 * np.pi * n / max(span, 1))


def dft_kernel(side, window, scaling, periodic):
    """An initializer of the (frame_length, 1, bins) real or imaginary DFT kernel, windowed and scaled
    ("density": by the window's L2 norm, "spectrum": by its sum)."""
    def initialize(shape, dtype=None):
        frame_length, _, bins = shape
        angles = -2.0 * np.arange(frame_length)[:, None, None] * (np.arange(bins)[None, None, :] / ((bins - 1) * 2))
        kernel = np.cos(angles * np.pi) if side == "real" else np.sin(angles * np.pi)
        if window is not None:
            win = _window(window, frame_length, periodic) if isinstance(window, str) else np.asarray(window)
            win = win.reshape(frame_length, 1, 1)
            scale = 1.0
            if scaling == "density":
                scale = np.sqrt(np.sum(win ** 2))
            elif scaling == "spectrum":
                scale = np.sum(np.abs(win))
            kernel = kernel * win / scale
        return kernel.astype(getattr(dtype, "as_numpy_dtype", dtype) or np.float32)
    return initialize


class STFTSpectrogram(Layer):
    def __init__(self, mode="log", frame_length=256, frame_step=None, fft_length=None, window="hann",
                 periodic=False, scaling="density", padding="valid", expand_dims=False, data_format=None, **kwargs):
        if frame_step is not None and (frame_step > frame_length or frame_step < 1):
            raise ValueError(f"`frame_step` should be a positive integer not greater than `frame_length`. Received "
                             f"frame_step={frame_step}, frame_length={frame_length}")
        if fft_length is not None and fft_length < frame_length:
            raise ValueError(f"`fft_length` should be not less than `frame_length`. Received fft_length={fft_length}, "
                             f"frame_length={frame_length}")
        if mode not in _MODES:
            raise ValueError(f"Output mode is invalid, it must be one of {', '.join(_MODES)}. Received: mode={mode}")
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError(f"Scaling is invalid, it must be `None`, 'density' or 'spectrum'. Received "
                             f"scaling={scaling}")
        if padding not in ["valid", "same"]:
            raise ValueError(f"Padding is invalid, it should be 'valid', 'same'. Received: padding={padding}")
        if data_format not in (None, "channels_last"):
            raise NotImplementedError("Only data_format='channels_last' is supported.")
        if isinstance(window, str):
            _window(window, 2, periodic)
        super().__init__(**kwargs)
        self.mode, self.frame_length, self.frame_step, self.fft_length = mode, frame_length, frame_step, fft_length
        self._frame_step = frame_step or frame_length // 2
        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))
        self.window, self.periodic, self.scaling, self.padding = window, periodic, scaling, padding
        self.expand_dims = expand_dims

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(shape, dft_kernel("real", self.window, self.scaling, self.periodic),
                                               name="real_kernel")
        if self.mode != "real":
            self.imag_kernel = self.add_weight(shape, dft_kernel("imag", self.window, self.scaling, self.periodic),
                                               name="imag_kernel")
        self.built = True

    def _convolve(self, inputs, kernel):
        """(batch, channels, bins, frames): each channel's frames against the kernel's columns."""
        steps, channels = inputs.shape.as_list()[1:]
        signals = _array.reshape(_array.transpose(inputs, [0, 2, 1]), [-1, steps, 1])
        out = _conv.conv1d(signals, _math.cast(kernel, inputs.dtype), stride=self._frame_step,
                           padding=self.padding.upper())  # (batch * channels, frames, bins)
        frames, bins = out.shape.as_list()[1:]
        return _array.reshape(_array.transpose(out, [0, 2, 1]), [-1, channels, bins, frames])

    def _arrange(self, outputs):
        channels, bins, frames = outputs.shape.as_list()[1:]
        if self.expand_dims:
            return _array.transpose(outputs, [0, 3, 2, 1])
        return _array.transpose(_array.reshape(outputs, [-1, channels * bins, frames]), [0, 2, 1])

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        if not inputs.dtype.is_floating:
            raise TypeError(f"Invalid input type. Expected `float16`, `float32` or `float64`. Received: input "
                            f"type={inputs.dtype.name}")
        real = self._convolve(inputs, self.real_kernel) if self.mode != "imag" else None
        imag = self._convolve(inputs, self.imag_kernel) if self.mode != "real" else None
        if self.mode == "real":
            return self._arrange(real)
        if self.mode == "imag":
            return self._arrange(imag)
        if self.mode == "angle":
            return self._arrange(_special.atan2(imag, real))
        if self.mode == "stft":
            return self._arrange(concat([real, imag], 2))
        power = _math.square(real) + _math.square(imag)
        if self.mode == "psd":  # the bins between DC and Nyquist count twice (their mirror images)
            return self._arrange(power + pad(power[:, :, 1:-1, :], [[0, 0], [0, 0], [1, 1], [0, 0]]))
        magnitude = self._arrange(_math.sqrt(_math.maximum(power, _math.cast(_EPSILON, power.dtype))))
        if self.mode == "magnitude":
            return magnitude
        return _math.log(_math.maximum(magnitude, _math.cast(_EPSILON, magnitude.dtype)))

    def get_config(self):
        return {**super().get_config(), "mode": self.mode, "frame_length": self.frame_length,
                "frame_step": self.frame_step, "fft_length": self.fft_length, "window": self.window,
                "periodic": self.periodic, "scaling": self.scaling, "padding": self.padding,
                "data_format": "channels_last", "expand_dims": self.expand_dims}
