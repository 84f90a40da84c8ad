"""Initializers whose values follow from their arguments alone: Constant, Zeros, Ones, Identity and
STFT (the Fourier-basis kernel of keras.layers.STFTSpectrogram)."""
from __future__ import annotations

import numpy as np

from .base import Initializer, numpy_dtype


class Constant(Initializer):
    """Every entry `value`; an array value is broadcast to the shape."""

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        value = np.asarray(getattr(self.value, "numpy", lambda: self.value)())
        return np.broadcast_to(value.astype(numpy_dtype(dtype)), tuple(shape)).copy()

    def get_config(self):
        return {"value": self.value}


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return np.zeros(tuple(shape), numpy_dtype(dtype))


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return np.ones(tuple(shape), numpy_dtype(dtype))


class Identity(Initializer):
    """`gain` times the identity matrix (a 2-D shape only; rectangular shapes get ones on the main
    diagonal). Keras 3 leaves `gain` out of the config, so a reloaded Identity has gain 1."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        return (self.gain * np.eye(*shape)).astype(numpy_dtype(dtype))


def _window(name, length, periodic):
    """The named window of `length` samples. Hann and Hamming are computed here; other names go
    to SciPy (an optional dependency, as in Keras)."""
    cosine = {"hann": (0.5, 0.5), "hamming": (0.54, 0.46)}.get(name)
    if cosine is not None:
        if length == 1:
            return np.ones(1)
        period = length if periodic else length - 1
        a, b = cosine
        return a - b * np.cos(2 * np.pi * np.arange(length) / period)
    try:
        from scipy import signal
    except ImportError as e:
        raise ImportError("This requires the scipy module. You can install it via `pip install scipy`") from e
    return signal.get_window(name, length, periodic)


class STFT(Initializer):
    """A (frame_length, 1, bins) Conv1D kernel whose columns are the cosine ("real") or sine
    ("imag") Fourier basis of `bins` = fft_length // 2 + 1 frequencies, times a window normalised
    by its L2 norm ("density") or its sum ("spectrum")."""

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ("real", "imag"):
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            _window(window, 1, periodic)  # an unknown name fails now, not at build time
        if scaling is not None and scaling not in ("density", "spectrum"):
            raise ValueError(f"Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape, dtype=None):
        frames, _, bins = tuple(shape)
        fft_length = (bins - 1) * 2
        angle = -2.0 * np.pi * np.arange(frames)[:, None, None] * np.arange(bins)[None, None, :] / fft_length
        kernel = np.cos(angle) if self.side == "real" else np.sin(angle)
        if self.window is not None:
            win = self.window
            win = _window(win, frames, self.periodic) if isinstance(win, str) else np.asarray(win, np.float64)
            if win.ndim != 1 or win.shape[0] != frames:
                raise ValueError(f"The shape of `window` must be equal to [frame_length].Received: window "
                                 f"shape={win.shape}")
            norm = {"density": lambda: np.sqrt(np.sum(win ** 2)), "spectrum": lambda: np.sum(np.abs(win))}.get(
                self.scaling, lambda: 1.0)()
            kernel = kernel * win[:, None, None] / norm
        return kernel.astype(numpy_dtype(dtype))

    def get_config(self):
        return {"side": self.side, "window": self.window, "periodic": self.periodic, "scaling": self.scaling}
