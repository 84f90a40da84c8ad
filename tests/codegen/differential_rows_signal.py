"""Differential rows (generated code == eager == reference interpreter) for tf.signal (ops/signal/fourier.py
and the composites built on it), beside test_differential.py. `rows(Row)` builds them with that
test's Row class; rows of ops with a JAX lowering also run under jit (test_xla_differential.py)."""
import numpy as np

import eagerflow as tf

_RNG = np.random.default_rng(11)
REAL = _RNG.uniform(-2, 2, (2, 3, 6)).astype(np.float32)
REAL64 = _RNG.uniform(-2, 2, (3, 5)).astype(np.float64)
CPLX = (_RNG.uniform(-2, 2, (2, 3, 4)) + 1j * _RNG.uniform(-2, 2, (2, 3, 4))).astype(np.complex64)
SIGNAL = _RNG.uniform(-1, 1, (2, 20)).astype(np.float32)
CPLX128 = (_RNG.uniform(-2, 2, (3, 4)) + 1j * _RNG.uniform(-2, 2, (3, 4))).astype(np.complex128)


def _readout(z):
    """A float view of a complex result (its real and imaginary parts both matter), so the jit test
    can differentiate through it."""
    return tf.math.real(z * (1 + 2j)) + tf.math.imag(z)


def _complex(x):
    return tf.cast(x, tf.complex64) * (1 + 0.5j) + tf.cast(tf.reverse(x, [-1]), tf.complex64) * 1j


def rows(Row):
    S = tf.signal
    return [
        Row("FFT", S.fft, (CPLX,)),
        Row("FFT", S.fft, (CPLX128,), dims="dynamic", label="c128-dynamic"),
        Row("IFFT", S.ifft, (CPLX,)),
        Row("FFT2D", S.fft2d, (CPLX,)),
        Row("IFFT2D", S.ifft2d, (CPLX128,)),
        Row("FFT3D", S.fft3d, (CPLX,)),
        Row("IFFT3D", S.ifft3d, (CPLX,)),
        Row("RFFT", S.rfft, (REAL,)),
        Row("RFFT", lambda x: S.rfft(x, [9]), (REAL64,), label="padded"),
        Row("RFFT", lambda x: S.rfft(x, [4]), (REAL,), dims="dynamic", label="cropped-dynamic"),
        Row("IRFFT", S.irfft, (CPLX,)),
        Row("IRFFT", lambda x: S.irfft(x, [5]), (CPLX128,), label="odd"),
        Row("IRFFT", S.irfft, (CPLX,), dims="dynamic", label="dynamic"),
        Row("RFFT2D", lambda x: S.rfft2d(x, [2, 7]), (REAL,)),
        Row("IRFFT2D", S.irfft2d, (CPLX,)),
        Row("RFFT3D", S.rfft3d, (REAL,)),
        Row("IRFFT3D", lambda x: S.irfft3d(x, [2, 2, 5]), (CPLX,)),
        # float in, float out around each transform: the jit test also compares gradients on these
        Row("FFT", lambda x: _readout(S.fft(_complex(x))), (REAL,), label="readout"),
        Row("IFFT", lambda x: _readout(S.ifft(_complex(x))), (REAL,), label="readout"),
        Row("FFT2D", lambda x: _readout(S.fft2d(_complex(x))), (REAL,), label="readout"),
        Row("IFFT2D", lambda x: _readout(S.ifft2d(_complex(x))), (REAL,), label="readout"),
        Row("FFT3D", lambda x: _readout(S.fft3d(_complex(x))), (REAL,), label="readout"),
        Row("IFFT3D", lambda x: _readout(S.ifft3d(_complex(x))), (REAL,), label="readout"),
        Row("RFFT", lambda x: _readout(S.rfft(x, [5])), (REAL,), label="readout"),
        Row("IRFFT", lambda x: S.irfft(_complex(x), [7]), (REAL,), label="readout"),
        Row("RFFT2D", lambda x: _readout(S.rfft2d(x)), (REAL,), label="readout"),
        Row("IRFFT2D", lambda x: S.irfft2d(_complex(x), [3, 9]), (REAL,), label="readout"),
        # the composites of tf.signal, traced whole (framing, windows, overlap-add, DCTs, mel weights)
        Row("RFFT", lambda x: _readout(S.stft(x, 8, 3, pad_end=True)), (SIGNAL,), label="stft"),
        Row("RFFT", lambda x: _readout(S.stft(x, 7, 2, fft_length=8, window_fn=S.hamming_window)), (SIGNAL,),
            dims="dynamic", label="stft-dynamic"),
        Row("IRFFT", lambda x: S.inverse_stft(S.stft(x, 8, 2), 8, 2, window_fn=S.inverse_stft_window_fn(2)),
            (SIGNAL,), label="inverse_stft"),
        Row("RFFT", lambda x: S.dct(x, type=1) + S.dct(x, norm="ortho") + S.dct(x, type=4), (REAL64,), label="dct"),
        Row("IRFFT", lambda x: S.idct(x, norm="ortho"), (REAL64,), dims="dynamic", label="idct-dynamic"),
        Row("RFFT", lambda x: S.inverse_mdct(S.mdct(x, 8, pad_end=True)), (SIGNAL,), label="mdct"),
        Row("RFFT", lambda x: S.mfccs_from_log_mel_spectrograms(tf.math.log(tf.matmul(
            tf.abs(S.stft(x, 8, 4)), S.linear_to_mel_weight_matrix(3, 5, 100, 5., 40.)) + 1e-3)), (SIGNAL,),
            label="mfcc"),
        Row("RFFT", lambda x: _readout(S.rfft(S.frame(x, 5, 3, axis=-1) * S.kaiser_window(5) + S.vorbis_window(5)
                                              * S.kaiser_bessel_derived_window(6)[:5])), (SIGNAL,), label="windows"),
    ]
