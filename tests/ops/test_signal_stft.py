"""tf.signal.stft / inverse_stft / inverse_stft_window_fn (ops/signal/spectral.py) against
TensorFlow 2.21's values for a few signals, eagerly and traced."""
import numpy as np
import pytest

import eagerflow as tf

SIG = np.sin(np.arange(16) * 0.7).astype(np.float32) + np.arange(16, dtype=np.float32) * 0.05


def _close(got, want, tol=2e-5):
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol)


STFT_8_4 = [[1.5797749, -1.0792899 - 1.6382477j, 0.2780512 + 0.7565658j, 0.00931358 + 0.01877767j, 0.00407535],
            [0.13055724, 0.48008436 + 1.697466j, -0.52397203 - 0.698264j, -0.01755106 - 0.03109634j, -0.0076797],
            [4.389308, -2.9329584 - 0.8169674j, 0.70934516 + 0.39837468j, 0.02376056 + 0.00649828j, 0.0103972]]


def test_stft_matches_tensorflow():
    out = tf.signal.stft(SIG, 8, 4)  # fft_length 8, periodic Hann window, no padding
    assert out.dtype == tf.complex64 and out.shape == [3, 5]
    _close(out, STFT_8_4)
    _close(tf.signal.stft(SIG, 6, 3, pad_end=True), [
        [2.3768964, -0.9771507 - 1.671072j, -0.41284618 + 0.8648507j, 0.17466846 - 0.04289752j, 0.05376041],
        [-1.0455723, 1.0139605 + 0.34429654j, -0.398752 - 0.6475062j, -0.06528163 + 0.1931217j, -0.05428153],
        [1.3875325, -1.581542 + 0.2270777j, 1.0411899 + 0.2403853j, -0.15393764 - 0.11982229j, 0.00104731],
        [3.7076757, -1.6098108 - 2.3277526j, -0.42680246 + 1.0819721j, 0.1561634 - 0.02050006j, 0.05322433],
        [0.36271948, 0.26302275 - 0.3297459j, -0.25014064 - 0.37197036j, -0.26302275 + 0.17053539j, 0.13756181],
        [0, 0, 0, 0, 0]])
    hamming = tf.signal.stft(SIG, 5, 2, fft_length=8, window_fn=tf.signal.hamming_window)
    _close(hamming[0], [2.0502596, -0.1646021 - 1.7374096j, -1.0426506 + 0.17225552j, 0.07900399 + 0.43348974j,
                        0.20623815])
    _close(hamming[5], [2.9277635, 0.28316957 - 2.4119678j, -1.3353583 - 0.3072977j, -0.15141504 + 0.49723005j,
                        0.21991551])
    assert tf.signal.stft(SIG, 5, 2, window_fn=None).shape == [6, 5]
    assert tf.signal.stft(SIG.astype(np.float64), 8, 4).dtype == tf.complex128
    with pytest.raises(ValueError, match="dtype must be a floating point type. Found <dtype: 'int64'>"):
        tf.signal.stft(np.arange(16), 8, 4)


def test_inverse_stft_matches_tensorflow():
    spectra = tf.signal.stft(SIG, 8, 2)
    _close(tf.signal.inverse_stft(spectra, 8, 2), [
        0., 0.01488862, 0.2713624, 0.75990695, 0.6687352, -0.14901337, -0.8573636, -0.9486788, -0.34689996,
        0.7002208, 1.73548, 2.2742634, 1.8182486, 0.7268237, 0.08338021, -0.00278153])
    _close(tf.signal.inverse_stft(spectra, 8, 2, window_fn=tf.signal.inverse_stft_window_fn(2)), [
        0., 0.00992575, 0.18090826, 0.5066046, 0.4458235, -0.09934226, -0.5715758, -0.63245255, -0.23126665,
        0.46681392, 1.1569866, 1.5161757, 1.2121658, 0.48454916, 0.05558681, -0.00185435])
    _close(tf.signal.inverse_stft(tf.signal.stft(SIG, 6, 3, fft_length=8), 6, 3, fft_length=8), [
        0., 0.04338859, 0.6105654, 1.0132093, 0.33436757, -0.06298951, -0.57157576, -0.39528283, -0.14454165,
        0.46681392, 0.7231165, 0.96135503, 1.4545989, 0.5451178, 0.02084501])
    # a frame_length past fft_length: the frames are zero-padded
    _close(tf.signal.inverse_stft(tf.signal.stft(SIG, 6, 3, fft_length=8), 10, 3, fft_length=8), [
        0., 0.01657297, 0.28126025, 0.6631542, 0.3756977, -0.05131058, -0.3741012, -0.44414246, -0.11774214,
        0.3055337, 0.8124987, 0.7831099, 0.9520474, 0.65741825, 0.0833801, 0., 0., 0., 0.])


def test_inverse_stft_window_fn_matches_tensorflow():
    _close(tf.signal.inverse_stft_window_fn(2)(8, tf.float32),
           [0., 0.0976311, 0.33333334, 0.5690356, 0.6666667, 0.5690356, 0.33333334, 0.09763099])
    window = tf.signal.inverse_stft_window_fn(2, forward_window_fn=tf.signal.hamming_window)(5, tf.float64)
    assert window.dtype == tf.float64
    _close(window, [0.07898894, 0.92592593, 0.98736177, 0.92592593, 0.07898894])


def test_stft_round_trip_with_the_inverse_window_restores_the_signal():
    x = np.random.default_rng(0).normal(size=(2, 64)).astype(np.float64)
    spectra = tf.signal.stft(x, 16, 4)
    back = tf.signal.inverse_stft(spectra, 16, 4, window_fn=tf.signal.inverse_stft_window_fn(4)).numpy()
    np.testing.assert_allclose(back[:, 12:-12], x[:, 12:back.shape[1] - 12], rtol=1e-10, atol=1e-10)


def test_traced_stft_and_inverse_agree_with_eager():
    def f(x):
        s = tf.signal.stft(x, 8, 4, pad_end=True)
        return s, tf.signal.inverse_stft(s, 8, 4)
    for spec in (tf.TensorSpec([16]), tf.TensorSpec([None])):
        cf = tf.function(f).get_concrete_function(spec)
        for got, want in zip(cf(tf.constant(SIG)), f(tf.constant(SIG))):
            _close(got, want.numpy(), 1e-6)
    assert tf.function(f).get_concrete_function(tf.TensorSpec([16])).structured_outputs[0].shape.as_list() == [4, 5]


def test_stft_gradient_matches_tensorflow():
    x = tf.constant(SIG)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.signal.stft(x, 8, 4)
        w = tf.cast(tf.reshape(tf.range(tf.size(y)) % 3 + 1, tf.shape(y)), y.dtype) * (1 + 0.5j)
        loss = tf.math.real(tf.reduce_sum(y * w))
    _close(tape.gradient(loss, x), [
        0., 0.33210686, 0.25, -1.8321068, 3., -0.6427668, 0.25, 2.849874, 2., 2.8498738, 3.75, -0.6427667, 1.,
        -2.5392134, 1.75, -0.3749996])
