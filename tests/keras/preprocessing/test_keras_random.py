"""keras.random: Keras 3.15.1's seed rules, dtypes, shapes and errors (recorded on TensorFlow 2.21), the
draws' ranges and statistics (moments of the named distributions). Where our generator is TensorFlow's
stateless Philox stream the values even equal Keras' (shuffle, dropout below)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

R = keras.random

DRAWS = [(R.normal, ((2, 3),), tf.float32), (R.uniform, ((2, 3),), tf.float32),
         (R.truncated_normal, ((2, 3),), tf.float32), (R.randint, ((2, 3), 0, 5), tf.int32),
         (R.gamma, ((2, 3), 2.0), tf.float32), (R.beta, ((2, 3), 2.0, 3.0), tf.float32),
         (R.binomial, ((2, 3), 5, 0.3), tf.float32)]


def test_public_names_are_keras_3_15s():
    assert sorted(n for n in dir(R) if not n.startswith("_") and n[0].isalpha() and callable(getattr(R, n))) \
        == ["SeedGenerator", "beta", "binomial", "categorical", "dropout", "gamma", "normal", "randint",
            "shuffle", "truncated_normal", "uniform"]


@pytest.mark.parametrize("draw,args,dtype", DRAWS, ids=[d[0].__name__ for d in DRAWS])
def test_int_seed_repeats_other_seed_differs(draw, args, dtype):
    a, b, c = draw(*args, seed=1), draw(*args, seed=1), draw(*args, seed=2)
    assert a.dtype == dtype and tuple(a.shape) == (2, 3)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(a.numpy(), c.numpy())


def test_seed_generator_state_and_advance():
    gen = R.SeedGenerator(42)
    assert gen.state.dtype == tf.int64 and not gen.state.trainable
    assert gen.state.name == "seed_generator_state" and gen.state.path.endswith("/seed_generator_state")
    assert gen.next().numpy().tolist() == [42, 0] and gen.state.numpy().tolist() == [42, 1]
    assert gen.get_config()["seed"] == 42
    gen = R.SeedGenerator(1)
    first, second = R.normal((3,), seed=gen), R.normal((3,), seed=gen)
    assert not np.array_equal(first.numpy(), second.numpy()) and gen.state.numpy().tolist() == [1, 2]
    np.testing.assert_array_equal(R.normal((3,), seed=R.SeedGenerator(1)).numpy(),
                                  R.normal((3,), seed=R.SeedGenerator(1)).numpy())


def test_seed_generator_advances_inside_a_tf_function():
    gen = R.SeedGenerator(5)

    @tf.function
    def draw():
        return R.uniform((2,), seed=gen)
    assert not np.array_equal(draw().numpy(), draw().numpy())
    assert gen.state.numpy().tolist() == [5, 2]


def test_none_seed_repeats_after_set_random_seed_only():
    keras.utils.set_random_seed(7)
    a = R.normal((3,))
    keras.utils.set_random_seed(7)
    b, c = R.normal((3,)), R.normal((3,))
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(b.numpy(), c.numpy())


def test_dtypes_shapes_and_keras_values():
    assert R.normal((2,), dtype="float16").dtype == tf.float16
    assert R.uniform((2,), dtype="float64").dtype == tf.float64
    assert R.randint((2,), 0, 3, dtype="int64").dtype == tf.int64
    logits = tf.math.log([[0.5, 0.5], [0.1, 0.9]])
    picks = R.categorical(logits, 4, seed=1)
    assert picks.dtype == tf.int32 and tuple(picks.shape) == (2, 4) and set(picks.numpy().ravel()) <= {0, 1}
    x = np.arange(10.0, dtype="float32").reshape(5, 2)
    assert R.shuffle(x, seed=3).numpy().tolist() == [[8.0, 9.0], [0.0, 1.0], [4.0, 5.0], [6.0, 7.0], [2.0, 3.0]]
    assert sorted(R.shuffle(x, axis=1, seed=3).numpy()[0].tolist()) == [0.0, 1.0]
    ones = np.ones((2, 4), "float32")
    assert R.dropout(ones, 0.5, seed=1).numpy().tolist() == [[2.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 2.0]]
    assert R.dropout(ones, 0.5, noise_shape=(1, 4), seed=1).numpy().tolist() == [[2.0, 0.0, 2.0, 0.0]] * 2


def test_ranges_and_moments():
    n = 200_000
    u = R.uniform((n,), 2, 5, seed=1).numpy()
    assert u.min() >= 2 and u.max() < 5 and abs(u.mean() - 3.5) < 0.02
    t = R.truncated_normal((n,), 1.0, 2.0, seed=1).numpy()
    assert np.abs(t - 1.0).max() <= 4.0 + 1e-5 and abs(t.mean() - 1.0) < 0.02
    r = R.randint((n,), -2, 3, seed=1).numpy()
    assert set(np.unique(r)) == {-2, -1, 0, 1, 2}
    for alpha in (0.5, 3.0):  # Gamma(alpha, 1): mean = var = alpha
        g = R.gamma((n,), alpha, seed=3).numpy()
        assert g.min() > 0 and abs(g.mean() - alpha) < 0.02 * alpha + 0.01 and abs(g.var() - alpha) < 0.05 * alpha
    b = R.beta((n,), 2.0, 3.0, seed=3).numpy()  # mean 2/5, variance 6 / (25 * 6)
    assert 0 <= b.min() and b.max() <= 1 and abs(b.mean() - 0.4) < 0.005 and abs(b.var() - 0.04) < 0.002
    k = R.binomial((n,), 5, 0.3, seed=3).numpy()  # mean 1.5, variance 1.05
    assert set(np.unique(k)) <= set(range(6)) and abs(k.mean() - 1.5) < 0.02 and abs(k.var() - 1.05) < 0.03


def test_errors_are_keras():
    for bad in ("a", 1.5, [1, 2]):
        with pytest.raises(ValueError, match=r"Argument `seed` must be either an integer or an instance of "
                                             r"`SeedGenerator`. Received: seed="):
            R.normal((2,), seed=bad)
    with pytest.raises(ValueError, match="Argument `seed` must be an integer. Received: seed=x"):
        R.SeedGenerator("x")
    with pytest.raises(ValueError, match=r"`rate` must be a scalar tensor or a float in the range \[0, 1\). "
                                         r"Received: rate=1.5"):
        R.dropout(np.ones(3, "float32"), 1.5)
    with pytest.raises(TypeError, match="Cannot convert 0.5 to EagerTensor of dtype int32"):
        R.randint((2,), 0.5, 3)
    with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int32"):
        R.normal((2,), dtype="int32")
    with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int32"):
        R.truncated_normal((2,), dtype="int32")
    with pytest.raises(TypeError, match="Cannot convert 1.0 to EagerTensor of dtype int32"):
        R.gamma((2,), 1.0, dtype="int32")
    with pytest.raises(ValueError, match=r"`keras.random.uniform` requires a floating point `dtype`. Received: "
                                         r"dtype=int32 $"):
        R.uniform((2,), dtype="int32")
    with pytest.raises(ValueError, match=r"`keras.random.randint` requires an integer `dtype`. Received: "
                                         r"dtype=float32 $"):
        R.randint((2,), 0, 5, dtype="float32")
    with pytest.raises(ValueError, match=r"`logits` should be a 2-D tensor with shape \[batch_size, num_classes\]. "
                                         r"Received: logits=\[0.5 0.5\]"):
        R.categorical(np.array([0.5, 0.5]), 3, seed=1)
    with pytest.raises(ValueError, match=r"Unrecognized keyword arguments: \{'foo': 2\}"):
        R.SeedGenerator(1, foo=2)


def test_more_dtypes_and_keras_shuffle_of_integers():
    assert R.shuffle(np.arange(4), seed=1).numpy().tolist() == [3, 1, 2, 0]  # Keras' answer (the same Philox draw)
    assert R.shuffle(np.arange(4), seed=1).dtype == tf.int64
    assert R.beta((2,), 1.0, 2.0, dtype="float64").dtype == tf.float64
    counts = R.binomial((2,), 3, 0.5, dtype="float16")
    assert counts.dtype == tf.float16 and set(counts.numpy().tolist()) <= {0.0, 1.0, 2.0, 3.0}
