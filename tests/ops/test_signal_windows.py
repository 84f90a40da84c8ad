"""tf.signal windows (ops/signal/windows.py) against TensorFlow 2.21's values and errors."""
import numpy as np
import pytest

import eagerflow as tf


def _close(got, want, dtype=np.float32):
    got = np.asarray(got)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-7)


@pytest.mark.parametrize("length, periodic, hann, hamming", [
    (1, True, [1.], [1.]),
    (1, False, [1.], [1.]),
    (4, True, [0., 0.5, 1., 0.5], [0.08000001, 0.54, 1., 0.54]),
    (4, False, [0., 0.75, 0.74999994, 0.], [0.08000001, 0.77000004, 0.77, 0.08000001]),
    (5, True, [0., 0.5, 1., 0.5, 0.], [0.08000001, 0.54, 1., 0.54, 0.08000001]),
    (5, False, [0., 0.5, 1., 0.5, 0.], [0.08000001, 0.54, 1., 0.54, 0.08000001]),
])
def test_raised_cosine_windows_match_tensorflow(length, periodic, hann, hamming):
    _close(tf.signal.hann_window(length, periodic=periodic), hann)
    _close(tf.signal.hamming_window(length, periodic=periodic), hamming)


def test_other_windows_match_tensorflow():
    _close(tf.signal.hann_window(3, dtype=tf.float64), [0., 1., 0.], np.float64)
    _close(tf.signal.hann_window(0), np.zeros(0))
    _close(tf.signal.kaiser_window(6), [0.00005277, 0.10171972, 0.79293954, 0.79293954, 0.10171972, 0.00005277])
    _close(tf.signal.kaiser_window(5, beta=3.0), [0.20488471, 0.7269254, 1., 0.7269254, 0.20488471])
    _close(tf.signal.kaiser_window(1), [1.])
    _close(tf.signal.kaiser_window(5, dtype=tf.float64), [0.00005277, 0.21567274, 1., 0.21567274, 0.00005277],
           np.float64)
    _close(tf.signal.kaiser_bessel_derived_window(8),
           [0.00607183, 0.38820618, 0.92157257, 0.9999815, 0.9999815, 0.92157257, 0.38820618, 0.00607183])
    # an odd length gives length - 1 values in TensorFlow too
    _close(tf.signal.kaiser_bessel_derived_window(7, beta=4.),
           [0.22047876, 0.70710677, 0.97539175, 0.97539175, 0.70710677, 0.22047876])
    _close(tf.signal.vorbis_window(6), [0.10502934, 0.70710677, 0.9944691, 0.9944691, 0.70710677, 0.10502925])
    _close(tf.signal.vorbis_window(5, dtype=tf.float64), [0.14943586, 0.85631905, 1., 0.85631905, 0.14943586],
           np.float64)


def test_window_errors_match_tensorflow():
    for make in (tf.signal.hann_window, tf.signal.hamming_window, tf.signal.vorbis_window, tf.signal.kaiser_window,
                 tf.signal.kaiser_bessel_derived_window):
        with pytest.raises(ValueError, match="dtype must be a floating point type. Found <dtype: 'int32'>"):
            make(3, dtype=tf.int32)
        with pytest.raises(ValueError, match=r"Shape \(1,\) must have rank 0"):
            make([3])


def test_windows_of_a_length_known_only_at_run_time():
    for make in (tf.signal.hann_window, tf.signal.hamming_window, tf.signal.vorbis_window, tf.signal.kaiser_window):
        traced = tf.function(make).get_concrete_function(tf.TensorSpec([], tf.int32))
        # TensorFlow special-cases only a *known* length of 1 for kaiser_window (a traced 1 gives
        # 0/0 = nan there too), so that length is left out for it
        for n in (4, 7) if make is tf.signal.kaiser_window else (1, 4, 7):
            np.testing.assert_allclose(traced(tf.constant(n)).numpy(), make(n).numpy(), rtol=1e-6, atol=1e-7)
