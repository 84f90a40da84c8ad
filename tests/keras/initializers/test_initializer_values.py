"""Values of the Keras initializers: the deterministic ones against Keras 3.15.1's answers, the random
ones against the statistics their formulas give (Keras 3's VarianceScaling: variance scale / fan)."""
import math
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

I = keras.initializers


def test_identity_scaled_rectangular():
    # Keras 3.15: Identity(gain=2.)((2, 3)) -> [[2, 0, 0], [0, 2, 0]]
    np.testing.assert_array_equal(np.asarray(I.Identity(gain=2.0)((2, 3))), [[2.0, 0, 0], [0, 2.0, 0]])
    assert np.asarray(I.identity()((3, 3))).dtype == np.float32


def test_identity_refuses_other_ranks():
    with pytest.raises(ValueError, match=r"Identity matrix initializer can only be used for 2D matrices. "
                                         r"Received: shape=\(2, 2, 2\) of rank 3."):
        I.Identity()((2, 2, 2))


def test_constant_broadcasts_and_takes_the_dtype():
    np.testing.assert_array_equal(np.asarray(I.Constant([1.0, 2.0])((2, 2))), [[1.0, 2.0], [1.0, 2.0]])
    value = np.asarray(I.Constant(3)((2,), dtype="int32"))
    assert value.dtype == np.int32 and value.tolist() == [3, 3]


def test_orthogonal_rows_are_orthogonal_with_the_gain():
    o = np.asarray(I.Orthogonal(gain=2.0, seed=1)((3, 5)), np.float64)
    np.testing.assert_allclose(o @ o.T, 4.0 * np.eye(3), atol=1e-5)  # Keras 3.15: diag 4, off-diagonal 0
    o = np.asarray(I.Orthogonal(seed=1)((2, 2, 6)), np.float64).reshape(4, 6)
    np.testing.assert_allclose(o @ o.T, np.eye(4), atol=1e-5)
    with pytest.raises(ValueError, match=r"The tensor to initialize must be at least two-dimensional. "
                                         r"Received: shape=\(3,\) of rank 1."):
        I.Orthogonal()((3,))


def test_seeded_draws_repeat_and_seeds_differ():
    a, b = I.RandomNormal(seed=3)((50,)), I.RandomNormal(seed=3)((50,))
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))  # Keras 3.15: a seeded initializer repeats
    assert not np.array_equal(np.asarray(a), np.asarray(I.RandomNormal(seed=4)((50,))))


SHAPE = (400, 500)  # fan_in 400, fan_out 500
FANS = {"fan_in": 400, "fan_out": 500, "fan_avg": 450}
FAMILY = {"GlorotUniform": (1.0, "fan_avg", "uniform"), "GlorotNormal": (1.0, "fan_avg", "normal"),
          "HeUniform": (2.0, "fan_in", "uniform"), "HeNormal": (2.0, "fan_in", "normal"),
          "LecunUniform": (1.0, "fan_in", "uniform"), "LecunNormal": (1.0, "fan_in", "normal")}


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_variance_scaling_family_statistics(name):
    scale, mode, kind = FAMILY[name]
    draw = np.asarray(getattr(I, name)(seed=7)(SHAPE), np.float64)
    variance = scale / FANS[mode]
    assert draw.std() == pytest.approx(math.sqrt(variance), rel=0.03)  # 200k draws: std error ~0.2%
    assert abs(draw.mean()) < 0.05 * math.sqrt(variance)
    if kind == "uniform":
        assert np.abs(draw).max() <= math.sqrt(3 * variance)
        assert np.abs(draw).max() > 0.99 * math.sqrt(3 * variance)
    else:  # truncated at 2 standard deviations of the untruncated normal
        assert np.abs(draw).max() <= 2 * math.sqrt(variance) / 0.87962566103423978


def test_untruncated_normal_matches_keras():
    draw = np.asarray(I.VarianceScaling(scale=2.0, mode="fan_out", distribution="untruncated_normal", seed=1)(SHAPE))
    # Keras 3.15: std 0.06330803 for sqrt(2 / 500) = 0.0632456
    assert draw.std() == pytest.approx(0.0632456, rel=0.02)
    assert np.abs(draw).max() > 2 * 0.0632456  # not truncated


def test_truncated_normal_is_cut_at_two_stddevs():
    draw = np.asarray(I.TruncatedNormal(mean=1.0, stddev=2.0, seed=1)(SHAPE))
    # Keras 3.15: min -2.999947, max 4.999937, mean 1.005, std 1.7626
    assert draw.min() >= -3.0 and draw.max() <= 5.0
    assert draw.min() < -2.99 and draw.max() > 4.99
    assert draw.std() == pytest.approx(1.7626, rel=0.02)
    assert draw.mean() == pytest.approx(1.0, abs=0.02)


def _stft_reference(frames, bins, side, window, scaling, periodic):
    from scipy import signal
    t = np.arange(frames)[:, None]
    f = np.arange(bins)[None, :]
    angle = -2 * np.pi * t * f / ((bins - 1) * 2)
    kernel = np.cos(angle) if side == "real" else np.sin(angle)
    win = signal.get_window(window, frames, fftbins=periodic)
    norm = np.sqrt((win ** 2).sum()) if scaling == "density" else np.abs(win).sum()
    return (kernel * win[:, None] / norm)[:, None, :]


@pytest.mark.parametrize("side,window,scaling,periodic", [("real", "hann", "density", False),
                                                          ("imag", "hamming", "spectrum", True),
                                                          ("real", "hamming", "density", True)])
def test_stft_is_the_windowed_fourier_basis(side, window, scaling, periodic):
    pytest.importorskip("scipy")
    got = np.asarray(I.STFT(side=side, window=window, scaling=scaling, periodic=periodic)((8, 1, 5)))
    assert got.shape == (8, 1, 5) and got.dtype == np.float32
    np.testing.assert_allclose(got, _stft_reference(8, 5, side, window, scaling, periodic), atol=1e-6)


def test_stft_argument_errors():
    with pytest.raises(ValueError, match="side should be 'real' or 'imag', not left"):
        I.STFT(side="left")
    with pytest.raises(ValueError, match="Scaling is invalid, it must be `None`, 'density' or 'spectrum'"):
        I.STFT(scaling="l3")


@pytest.mark.parametrize("make", [lambda: tf.random_normal_initializer(), lambda: tf.zeros_initializer(),
                                  lambda: tf.ones_initializer(), lambda: tf.constant_initializer(0.5),
                                  lambda: tf.random_uniform_initializer()])
def test_tensorflow_initializers_are_callables_keras_accepts(make):
    init = I.get(make())
    assert tuple(np.asarray(init((3, 2), dtype=tf.float32)).shape) == (3, 2)


# Keras 3.15 (TF backend) draws Orthogonal's matrix in the requested dtype and factors it with the Qr op:
# bfloat16 is the op's InvalidArgumentError, an integer or bool dtype the normal draw's TypeError.
def test_orthogonal_refuses_the_dtypes_keras_refuses():
    message = ("Value for attr 'T' of bfloat16 is not in the list of allowed values: double, float, half, "
               "complex64, complex128")
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(message)):
        keras.initializers.Orthogonal()((3, 3), dtype="bfloat16")
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(message)):
        keras.layers.Dense(3, kernel_initializer="orthogonal", dtype="bfloat16")(np.ones((1, 3)))
    for dtype in ("int32", "bool"):
        with pytest.raises(TypeError, match=re.escape(f"Cannot convert 0.0 to EagerTensor of dtype {dtype}")):
            keras.initializers.Orthogonal()((3, 3), dtype=dtype)
    for dtype in ("float16", "float32", "float64"):
        q = np.asarray(keras.initializers.Orthogonal(seed=1)((4, 4), dtype=dtype), np.float64)
        np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-2 if dtype == "float16" else 1e-5)
