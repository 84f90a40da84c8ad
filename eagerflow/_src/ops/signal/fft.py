"""`tf.signal.fft`/`ifft`/`fft2d`/... and `rfft`/`irfft`/... as TensorFlow's functions call the
ops of ops/signal/fourier.py, plus `fftshift`/`ifftshift` (a roll, as in TensorFlow).

The real transforms' wrapper does what TensorFlow's does before binding the op: it refuses a
non-float (non-complex) input with ValueError, infers `fft_length` when it is not given (the
innermost sizes; for the inverse 2 * (last - 1)), and zero-pads the input up to `fft_length`
(the kernel itself only crops), so a padded call's gradient runs through Pad.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.convert import is_tensor_like
from ...core.tensor import Tensor
from .fourier import COMPLEX, REALS, complex_transform, real_transform
from ..operands import as_tensor
from ..registry import static_value
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from ..array import padding as _padding
from ..array import sequence_masks as _sequence_masks
from ..array import slicing as _slicing


def _complex_input(x):
    """TensorFlow converts a non-tensor to the op's default complex64 (a NumPy float64 or complex128
    array too); only Python complex values keep complex128."""
    if isinstance(x, Tensor) or is_tensor_like(x):
        return as_tensor(x)
    if isinstance(x, (np.ndarray, np.generic)):
        a = np.asarray(x)
        return as_tensor(a.astype(np.complex64) if a.dtype.kind in "biufc" else a)
    t = as_tensor(x)
    return t if t.dtype in COMPLEX or not (t.dtype.is_floating or t.dtype.is_integer) else _math.cast(t, _dt.complex64)


def _complex_fn(rank, inverse, doc):
    def transform(input, name=None):  # noqa: A002 - TensorFlow's argument name
        return complex_transform(_complex_input(input), rank, inverse)
    transform.__doc__ = doc
    return transform


fft = _complex_fn(1, False, "`tf.signal.fft`: the discrete Fourier transform of the innermost axis.")
ifft = _complex_fn(1, True, "`tf.signal.ifft`: the inverse transform of the innermost axis (divided by N).")
fft2d = _complex_fn(2, False, "`tf.signal.fft2d`: the 2-D transform of the innermost two axes.")
ifft2d = _complex_fn(2, True, "`tf.signal.ifft2d`: the inverse 2-D transform of the innermost two axes.")
fft3d = _complex_fn(3, False, "`tf.signal.fft3d`: the 3-D transform of the innermost three axes.")
ifft3d = _complex_fn(3, True, "`tf.signal.ifft3d`: the inverse 3-D transform of the innermost three axes.")


def _check_rank_at_least(x, rank):
    r = x.shape.rank
    if r is not None and r < rank:
        raise ValueError(f"Shape {x.shape} must have rank at least {rank}")


def _inferred_length(x, rank, inverse):
    """TensorFlow's default fft_length: the innermost sizes (for IRFFT, 2 * (last - 1), at least 0)."""
    dims = x.shape.as_list()[-rank:] if x.shape.rank is not None else [None]
    if None not in dims:
        if inverse:
            dims[-1] = max(0, 2 * (dims[-1] - 1))
        return as_tensor(np.array(dims, np.int32))
    inner = _array.shape(x)[-rank:]
    if not inverse:
        return inner
    last = _math.maximum(0, 2 * (inner[-1] - 1))
    return _joining.concat([inner[:-1], _array.reshape(last, [1])], 0)


def _pad_to_length(x, rank, fft_length, inverse):
    """Zero-pads the innermost axes up to fft_length (the last to fft_length // 2 + 1 for IRFFT)."""
    n = static_value(fft_length)
    if x.shape.rank is not None and 0 in x.shape.as_list():
        return x  # TensorFlow skips empty inputs
    if n is not None and x.shape.rank is not None and x.shape[-rank:].is_fully_defined():
        want = [int(v) for v in np.ravel(n)]
        if inverse:
            want[-1] = want[-1] // 2 + 1
        pads = [[0, max(w - d, 0)] for w, d in zip(want, x.shape.as_list()[-rank:])]
        if not any(p for _, p in pads):
            return x
        return _padding.pad(x, [[0, 0]] * (x.shape.rank - rank) + pads)
    want = fft_length
    if inverse:
        want = _joining.concat([fft_length[:-1], fft_length[-1:] // 2 + 1], 0)
    outer = _array.zeros(_array.reshape(_math.maximum(0, _array.rank(x) - rank), [1]), _dt.int32)
    extra = _joining.concat([outer, _math.maximum(0, want - _array.shape(x)[-rank:])], 0)
    return _padding.pad(x, _joining.stack([_array.zeros_like(extra), extra], axis=1))


def _real_input(x, inverse):
    if isinstance(x, Tensor) or is_tensor_like(x):
        return as_tensor(x)
    if isinstance(x, (np.ndarray, np.generic)) and np.asarray(x).dtype.kind in "biufc":
        return as_tensor(np.asarray(x).astype(np.complex64 if inverse else np.float32))
    return as_tensor(x, _dt.complex64 if inverse else _dt.float32)


def _real_fn(rank, inverse, doc):
    word = "IRFFT" if inverse else "RFFT"
    allowed = "tf.complex64 or tf.complex128" if inverse else "tf.float32 or tf.float64"

    def transform(input_tensor, fft_length=None, name=None):
        x = _real_input(input_tensor, inverse)
        if x.dtype not in (COMPLEX if inverse else REALS):
            raise ValueError(f"{word} requires {allowed} inputs, got: {x!s}")
        _check_rank_at_least(x, rank)
        if fft_length is None:
            fft_length = _inferred_length(x, rank, inverse)
        else:
            fft_length = as_tensor(fft_length, _dt.int32)
            if not isinstance(fft_length, Tensor) or fft_length.dtype != _dt.int32:
                fft_length = _math.cast(fft_length, _dt.int32)
        x = _pad_to_length(x, rank, fft_length, inverse)
        return real_transform(x, fft_length, rank, inverse)
    transform.__doc__ = doc
    return transform


rfft = _real_fn(1, False, "`tf.signal.rfft`: the Fourier transform of a real signal's innermost axis, its "
                          "fft_length // 2 + 1 non-negative frequencies (float32 -> complex64).")
irfft = _real_fn(1, True, "`tf.signal.irfft`: the real signal of fft_length samples whose Hermitian-half spectrum "
                          "is the innermost axis (complex64 -> float32).")
rfft2d = _real_fn(2, False, "`tf.signal.rfft2d`: rfft over the innermost two axes.")
irfft2d = _real_fn(2, True, "`tf.signal.irfft2d`: irfft over the innermost two axes.")
rfft3d = _real_fn(3, False, "`tf.signal.rfft3d`: rfft over the innermost three axes.")
irfft3d = _real_fn(3, True, "`tf.signal.irfft3d`: irfft over the innermost three axes.")


def _shift(x, axes, sign):
    x = as_tensor(x)
    if axes is None:
        axes = list(range(x.shape.rank))
        shift = _array.shape(x) // 2
    elif isinstance(axes, int):
        shift = _array.shape(x)[axes] // 2
    else:
        axes = [int(a) for a in np.ravel(axes)]
        rank = x.shape.rank
        axes = [a + rank if a < 0 else a for a in axes]
        shift = _slicing.gather(_array.shape(x), axes) // 2
    return _sequence_masks.roll(x, -shift if sign < 0 else shift, axes)


def fftshift(x, axes=None, name=None):
    """`tf.signal.fftshift`: the zero frequency moved to the centre (numpy.fft.fftshift), by rolling
    each axis (all by default) half its length."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None, name=None):
    """`tf.signal.ifftshift`: fftshift undone (they differ by one sample on odd lengths)."""
    return _shift(x, axes, -1)


