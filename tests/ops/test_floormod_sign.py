"""tf.math.floormod on floats: TensorFlow 2.21's zeros keep the dividend's sign (fmod moved into the
divisor's sign), where NumPy's np.mod gives the divisor's. Values from TF 2.21, written in."""
import numpy as np
import pytest

import eagerflow as tf

A = [-2.0, 2.0, -2.0, 2.0, -3.0, 3.0, 0.0, -0.0, 5.5, -5.5, 7.25]
B = [2.0, -2.0, -2.0, 2.0, 2.0, -2.0, -2.0, 2.0, 0.0, 0.0, -2.0]
TF_221 = [-0.0, 0.0, -0.0, 0.0, 1.0, -1.0, 0.0, -0.0, np.nan, np.nan, -0.75]


def _check(got):
    got = np.asarray(got)
    np.testing.assert_array_equal(got, np.array(TF_221, np.float32))
    assert np.signbit(got[:8]).tolist() == np.signbit(np.array(TF_221[:8])).tolist()


@pytest.mark.parametrize("jit", [False, True])
def test_floormod_zero_signs_match_tensorflow(jit):
    a, b = tf.constant(A), tf.constant(B)
    _check(tf.math.floormod(a, b).numpy())
    if jit:
        pytest.importorskip("jax")
    _check(tf.function(lambda x, y: x % y, jit_compile=jit)(a, b).numpy())
