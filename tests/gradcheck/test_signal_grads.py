"""Gradcheck rows for tf.signal (ops/signal/fourier.py and the composites built on it): finite differences
of each transform, complex ones seen through real inputs (z = x + i y) and a real readout
(re(z * (1 + 2i)) + im(z), so real and imaginary parts of the gradient both matter)."""
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _z(x, y):
    return tf.cast(x, tf.complex128) + tf.cast(y, tf.complex128) * 1j


def _out(z):
    return tf.math.real(z * (1 + 2j)) + tf.math.imag(z)


ROWS = [
    GradRow("FFT", lambda x, y: _out(tf.signal.fft(_z(x, y))), [(2, 5), (2, 5)], order=2),
    GradRow("IFFT", lambda x, y: _out(tf.signal.ifft(_z(x, y))), [(4,), (4,)], order=2),
    GradRow("FFT2D", lambda x, y: _out(tf.signal.fft2d(_z(x, y))), [(3, 4), (3, 4)]),
    GradRow("IFFT2D", lambda x, y: _out(tf.signal.ifft2d(_z(x, y))), [(2, 3, 2), (2, 3, 2)]),
    GradRow("FFT3D", lambda x, y: _out(tf.signal.fft3d(_z(x, y))), [(2, 2, 3), (2, 2, 3)]),
    GradRow("IFFT3D", lambda x, y: _out(tf.signal.ifft3d(_z(x, y))), [(2, 3, 2), (2, 3, 2)]),
    GradRow("RFFT", lambda x: _out(tf.signal.rfft(x)), [(2, 6)], order=3),
    GradRow("RFFT/odd", lambda x: _out(tf.signal.rfft(x)), [(5,)], order=2),
    GradRow("RFFT/padded", lambda x: _out(tf.signal.rfft(x, [8])), [(5,)]),
    GradRow("RFFT/cropped", lambda x: _out(tf.signal.rfft(x, [3])), [(2, 5)]),
    GradRow("IRFFT", lambda x, y: tf.signal.irfft(_z(x, y)), [(2, 4), (2, 4)], order=3),
    GradRow("IRFFT/odd", lambda x, y: tf.signal.irfft(_z(x, y), [5]), [(3,), (3,)], order=2),
    GradRow("IRFFT/cropped", lambda x, y: tf.signal.irfft(_z(x, y), [4]), [(5,), (5,)]),
    GradRow("IRFFT/padded", lambda x, y: tf.signal.irfft(_z(x, y), [9]), [(3,), (3,)]),
    GradRow("RFFT2D", lambda x: _out(tf.signal.rfft2d(x)), [(3, 4)], order=2),
    GradRow("RFFT2D/odd-cropped", lambda x: _out(tf.signal.rfft2d(x, [2, 3])), [(3, 4)]),
    GradRow("IRFFT2D", lambda x, y: tf.signal.irfft2d(_z(x, y)), [(3, 3), (3, 3)], order=2),
    GradRow("IRFFT2D/odd", lambda x, y: tf.signal.irfft2d(_z(x, y), [2, 5]), [(3, 3), (3, 3)]),
    GradRow("fftshift", lambda x: tf.signal.fftshift(x) * x, [(3, 4)]),
    GradRow("ifftshift", lambda x: tf.signal.ifftshift(x, axes=1) * x, [(3, 5)]),
    GradRow("frame", lambda x: tf.signal.frame(x, 4, 3, pad_end=True, pad_value=0.5) * 2.0, [(2, 10)]),
    GradRow("overlap_and_add", lambda x: tf.signal.overlap_and_add(x * x, 3), [(2, 3, 5)]),
    GradRow("stft", lambda x: _out(tf.signal.stft(x, 8, 3, pad_end=True)), [(2, 13)]),
    GradRow("inverse_stft", lambda x, y: tf.signal.inverse_stft(_z(x, y), 6, 2, fft_length=8), [(3, 5), (3, 5)]),
    GradRow("dct/1", lambda x: tf.signal.dct(x, type=1), [(2, 5)]),
    GradRow("dct/2-ortho", lambda x: tf.signal.dct(x, norm="ortho", n=6), [(2, 5)]),
    GradRow("idct/2", lambda x: tf.signal.idct(x), [(2, 5)]),
    GradRow("dct/4-ortho", lambda x: tf.signal.dct(x, type=4, norm="ortho"), [(3, 4)]),
    GradRow("mdct", lambda x: tf.signal.mdct(x, 8, pad_end=True), [(2, 14)]),
    GradRow("inverse_mdct", lambda x: tf.signal.inverse_mdct(x, norm="ortho"), [(3, 4)]),
    GradRow("mfccs_from_log_mel_spectrograms", lambda x: tf.signal.mfccs_from_log_mel_spectrograms(x), [(2, 6)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_signal_gradients(row):
    check_row(row)
