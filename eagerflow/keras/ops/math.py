"""keras.ops math functions (Keras' keras/src/ops/math.py): segment reductions, top-k, FFTs and STFTs over
(real, imaginary) pairs, special functions and pairwise distances, on eagerflow's tf.math / tf.signal ops."""
from __future__ import annotations

from ._common import float_result, public, tensor, tf

__all__ = ["cdist", "erf", "erfc", "erfinv", "extract_sequences", "fft", "fft2", "ifft2", "in_top_k", "irfft",
           "istft", "logdet", "logsumexp", "rfft", "rsqrt", "segment_max", "segment_min", "segment_prod",
           "segment_sum", "stft", "top_k", "view_as_complex", "view_as_real"]
__dir__ = public(__all__)


def _unary(name):
    def fn(x):
        (x,) = float_result(x)
        return getattr(tf().math, name)(x)
    fn.__name__ = name
    return fn


erf, erfc = _unary("erf"), _unary("erfc")


def erfinv(x):
    """Integers refused, as Keras' (TensorFlow's Erfinv)."""
    return tf().math.erfinv(tensor(x))


def rsqrt(x):
    """Integers refused, as Keras' (TensorFlow's Rsqrt)."""
    return tf().math.rsqrt(tensor(x))


def logsumexp(x, axis=None, keepdims=False):
    """Integers refused, as Keras' (TensorFlow's IsFinite inside reduce_logsumexp)."""
    x = tensor(x)
    return tf().math.reduce_logsumexp(x, axis=axis, keepdims=keepdims)


def top_k(x, k, sorted=True):  # noqa: A002
    return tuple(tf().math.top_k(x, k, sorted=sorted))


def in_top_k(targets, predictions, k):
    return tf().math.in_top_k(targets, predictions, k)


def _segment(name):
    def fn(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
        t = tf()
        segment_ids = tensor(segment_ids)
        if num_segments is None:  # Keras on TF counts the distinct ids
            num_segments = t.size(t.unique(t.reshape(segment_ids, [-1]))[0])
        return getattr(t.math, "unsorted_segment_" + name)(data, segment_ids, num_segments)
    fn.__name__ = "segment_" + name
    return fn


segment_sum, segment_max, segment_min, segment_prod = (_segment(n) for n in ("sum", "max", "min", "prod"))


def logdet(x):
    return tf().linalg.logdet(x)


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of sequence_length every sequence_stride along the last axis."""
    return tf().signal.frame(x, sequence_length, sequence_stride, axis=-1)


def _complex(x):
    t = tf()
    real, imag = x
    real, imag = float_result(real, imag)
    ctype = _ctype(real)
    return t.cast(real, ctype) + t.cast(imag, ctype) * t.constant(1j, dtype=ctype)


def _ctype(real):
    return "complex128" if real.dtype.name == "float64" else "complex64"


def _pair(z):
    t = tf()
    return t.math.real(z), t.math.imag(z)


def fft(x):
    return _pair(tf().signal.fft(_complex(x)))


def fft2(x):
    return _pair(tf().signal.fft2d(_complex(x)))


def ifft2(x):
    return _pair(tf().signal.ifft2d(_complex(x)))


def rfft(x, fft_length=None):
    (x,) = float_result(x)
    return _pair(tf().signal.rfft(x, None if fft_length is None else [fft_length]))


def irfft(x, fft_length=None):
    return tf().signal.irfft(_complex(x), None if fft_length is None else [fft_length])


def _window(window, length, dtype):
    t = tf()
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(f"If a string is passed to `window`, it must be one of `\"hann\"`, `\"hamming\"`. "
                             f"Received: window={window}")
        fn = t.signal.hann_window if window == "hann" else t.signal.hamming_window
        return fn(length, periodic=True, dtype=dtype)
    return t.cast(window, dtype)


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """Short-time Fourier transform as (real, imag), Keras' framing: reflect-padded by fft_length // 2 when
    center, frames of fft_length every sequence_stride, the sequence_length window zero-padded to fft_length
    in the middle."""
    t = tf()
    (x,) = float_result(x)
    if center:
        rank = x.shape.rank
        x = t.pad(x, [[0, 0]] * (rank - 1) + [[fft_length // 2, fft_length // 2]], mode="REFLECT")
    frames = t.signal.frame(x, fft_length, sequence_stride, axis=-1)
    win = _window(window, sequence_length, x.dtype)
    if win is not None:
        left = (fft_length - sequence_length) // 2
        frames = frames * t.pad(win, [[left, fft_length - sequence_length - left]])
    return _pair(t.signal.rfft(frames, [fft_length]))


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    """The inverse of stft: overlap-added inverse FFTs of the (real, imag) frames, the window compensated by
    tf.signal.inverse_stft_window_fn, trimmed as Keras trims (the centre padding, or to `length`)."""
    t = tf()
    z = _complex(x)
    dtype = t.math.real(z).dtype
    frames = z.shape[-2]
    left = (fft_length - sequence_length) // 2
    win = _window(window, sequence_length, dtype)
    window_fn = None
    if win is not None:
        if win.shape.rank != 1 or win.shape[-1] != sequence_length:
            raise ValueError(f"The shape of `window` must be equal to [sequence_length].Received: window shape="
                             f"{win.shape}")
        padded = t.pad(win, [[left, fft_length - sequence_length - left]])
        window_fn = t.signal.inverse_stft_window_fn(sequence_stride, lambda frame_step, dtype: padded)
    out = t.signal.inverse_stft(z, frame_length=fft_length, frame_step=sequence_stride, fft_length=fft_length,
                                window_fn=window_fn)
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = out.shape[-1] - fft_length // 2
    else:
        end = fft_length + sequence_stride * (frames - 1)
    return out[..., start:end]


def view_as_complex(x):
    x = tensor(x)
    return _complex((x[..., 0], x[..., 1]))


def view_as_real(x):
    t = tf()
    real, imag = _pair(tensor(x))
    return t.stack([real, imag], axis=-1)


def cdist(x, y):
    """Pairwise Euclidean distances between the rows of x and y (batch axes broadcast)."""
    t = tf()
    x, y = float_result(x, y)
    diff = t.expand_dims(x, -2) - t.expand_dims(y, -3)
    return t.sqrt(t.reduce_sum(diff * diff, axis=-1))
