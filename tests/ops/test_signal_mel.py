"""tf.signal.linear_to_mel_weight_matrix and mfccs_from_log_mel_spectrograms (ops/signal/mel.py)
against TensorFlow 2.21's values, defaults and errors."""
import numpy as np
import pytest

import eagerflow as tf


def _close(got, want, tol=2e-6):
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol)


def test_mel_matrix_matches_tensorflow():
    _close(tf.signal.linear_to_mel_weight_matrix(4, 9, 1000, 50., 400.), [
        [0., 0., 0., 0.], [0.21579212, 0., 0., 0.], [0.755716, 0.24428394, 0., 0.], [0., 0.80236685, 0.19763316, 0.],
        [0., 0., 0.9139212, 0.08607884], [0., 0., 0.08210605, 0.91789395], [0., 0., 0., 0.3001298], [0., 0., 0., 0.],
        [0., 0., 0., 0.]])
    m64 = tf.signal.linear_to_mel_weight_matrix(3, 5, 100, 10., 50., dtype=tf.float64)
    assert m64.dtype == tf.float64
    _close(m64, [[0., 0., 0.], [0.25652656, 0., 0.], [0.47419394, 0.52580606, 0.], [0., 0.2266126, 0.7733874],
                 [0., 0., 0.]], 1e-7)


def test_mel_matrix_defaults_match_tensorflow():
    m = tf.signal.linear_to_mel_weight_matrix()  # 20 bands, 129 bins, 8 kHz, 125-3800 Hz
    assert m.shape == [129, 20] and m.dtype == tf.float32
    m = m.numpy()
    _close(m.sum(), 110.80084, 2e-5)
    _close(m.sum(0), [2.2854714, 2.4851954, 2.7095313, 2.9776318, 3.2053006, 3.4202042, 3.7764494, 4.096006, 4.393706,
                      4.7897706, 5.1877155, 5.6169157, 6.1225863, 6.594092, 7.1700454, 7.7694526, 8.434293, 9.121259,
                      9.916669, 10.728545], 1e-5)
    _close(m[5], [0.4602309] + [0.] * 19)
    _close(m[40], [0.] * 9 + [0.35174614, 0.64825386] + [0.] * 9)
    assert not m[0].any() and not m[1].any() and not m[128].any()  # DC, below 125 Hz, above 3800 Hz


def test_mel_matrix_errors_match_tensorflow():
    cases = [
        (dict(num_mel_bins=0), "num_mel_bins must be positive. Got: 0"),
        (dict(lower_edge_hertz=-1.), "lower_edge_hertz must be non-negative. Got: -1.0"),
        (dict(lower_edge_hertz=500., upper_edge_hertz=400.), "lower_edge_hertz 500.0 >= upper_edge_hertz 400.0"),
        (dict(sample_rate=0), "sample_rate must be positive. Got: 0"),
        (dict(upper_edge_hertz=4500.), r"upper_edge_hertz must not be larger than the Nyquist frequency \(sample_rate "
                                       r"/ 2\). Got 4500.0 for sample_rate: 8000"),
        (dict(dtype=tf.int32), "dtype must be a floating point type. Got: <dtype: 'int32'>"),
    ]
    for kwargs, words in cases:
        with pytest.raises(ValueError, match=words):
            tf.signal.linear_to_mel_weight_matrix(**kwargs)


def test_mfccs_match_tensorflow():
    x = np.array([[1., 2., -1., 0.5, 3.], [0., 1., 4., -2., 1.]], np.float32)
    want = [[3.4785054, -0.64537984, 2.1905258, -1.6457474, -1.1298658],
            [2.529822, 0.51374304, -1.8227153, -2.176251, 3.2369292]]
    _close(tf.signal.mfccs_from_log_mel_spectrograms(x), want, 2e-5)
    traced = tf.function(tf.signal.mfccs_from_log_mel_spectrograms).get_concrete_function(tf.TensorSpec([None, None]))
    _close(traced(tf.constant(x)), want, 2e-5)
    with pytest.raises(ValueError, match=r"num_mel_bins must be positive. Got: tf.Tensor\(\[\], shape=\(2, 0\)"):
        tf.signal.mfccs_from_log_mel_spectrograms(np.zeros((2, 0), np.float32))
