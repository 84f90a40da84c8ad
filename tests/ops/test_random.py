"""tf.random: TensorFlow's seed semantics, distributions (with loose, statistically safe bounds),
dtypes and errors."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.fixture(autouse=True)
def _no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def test_unseeded_calls_differ():
    assert not np.array_equal(tf.random.normal([8]).numpy(), tf.random.normal([8]).numpy())


def test_global_seed_gives_a_sequence_that_set_seed_restarts():
    tf.random.set_seed(1234)
    a1, a2 = tf.random.uniform([5]).numpy(), tf.random.uniform([5]).numpy()
    b1 = tf.random.normal([5]).numpy()
    assert not np.array_equal(a1, a2)
    tf.random.set_seed(1234)
    np.testing.assert_array_equal(tf.random.uniform([5]).numpy(), a1)
    np.testing.assert_array_equal(tf.random.uniform([5]).numpy(), a2)
    np.testing.assert_array_equal(tf.random.normal([5]).numpy(), b1)
    tf.random.set_seed(99)
    assert not np.array_equal(tf.random.uniform([5]).numpy(), a1)


def test_op_seed_with_global_seed_continues_its_stream_until_set_seed():
    tf.random.set_seed(7)
    first = tf.random.uniform([4], seed=1).numpy()
    second = tf.random.uniform([4], seed=1).numpy()
    assert not np.array_equal(first, second)  # same kernel, next values (as in TensorFlow)
    other = tf.random.uniform([4], seed=2).numpy()
    assert not np.array_equal(first, other)
    tf.random.set_seed(7)
    np.testing.assert_array_equal(tf.random.uniform([4], seed=1).numpy(), first)
    np.testing.assert_array_equal(tf.random.uniform([4], seed=1).numpy(), second)


def test_op_seed_alone_is_reproducible_and_independent_of_unseeded_calls():
    first = tf.random.normal([6], seed=42).numpy()
    tf.random.normal([3])  # unseeded calls do not disturb seeded streams
    tf.random.set_seed(None)
    np.testing.assert_array_equal(tf.random.normal([6], seed=42).numpy(), first)


def test_op_seeds_do_not_depend_on_unrelated_global_sequence_draws():
    tf.random.set_seed(5)
    tf.random.uniform([2])
    x = tf.random.uniform([3], seed=9).numpy()
    tf.random.set_seed(5)
    y = tf.random.uniform([3], seed=9).numpy()
    np.testing.assert_array_equal(x, y)


def test_normal_and_truncated_normal_statistics():
    x = tf.random.normal([20000], mean=3.0, stddev=2.0, seed=1).numpy()
    assert x.dtype == np.float32
    assert abs(x.mean() - 3.0) < 0.1 and abs(x.std() - 2.0) < 0.1
    t = tf.random.truncated_normal([20000], mean=-1.0, stddev=0.5, dtype=tf.float64, seed=2).numpy()
    assert t.dtype == np.float64
    assert t.min() >= -2.0 and t.max() <= 0.0  # within two standard deviations
    assert abs(t.std() - 0.5 * 0.8796) < 0.02  # std of a normal truncated at +-2 sigma


def test_uniform_float_and_int_ranges():
    u = tf.random.uniform([5000], minval=-2.0, maxval=3.0, seed=3).numpy()
    assert u.min() >= -2.0 and u.max() < 3.0 and abs(u.mean() - 0.5) < 0.1
    h = tf.random.uniform([5000], dtype=tf.float16, seed=4)
    assert h.dtype == tf.float16 and h.numpy().max() < 1.0
    i = tf.random.uniform([5000], minval=-3, maxval=4, dtype=tf.int32, seed=5).numpy()
    assert i.dtype == np.int32 and set(np.unique(i)) == set(range(-3, 4))
    big = tf.random.uniform([3], minval=0, maxval=2 ** 40, dtype=tf.int64)
    assert big.dtype == tf.int64


def test_shape_may_be_a_tensor():
    x = tf.constant(np.zeros((2, 3)))
    assert tf.random.normal(tf.shape(x)).shape == (2, 3)
    assert tf.random.uniform((0, 4)).shape == (0, 4)


def test_shuffle_permutes_the_first_dimension():
    x = np.arange(40).reshape(20, 2)
    y = tf.random.shuffle(x, seed=1).numpy()
    assert sorted(y[:, 0].tolist()) == list(range(0, 40, 2))
    np.testing.assert_array_equal(y[:, 1] - y[:, 0], 1)  # rows move together
    assert not np.array_equal(y, x)


def test_categorical_follows_the_logits():
    logits = np.array([[np.log(0.7), np.log(0.3), -np.inf], [-np.inf, -np.inf, 0.0]])
    s = tf.random.categorical(logits, 4000, seed=6)
    assert s.dtype == tf.int64 and s.shape == (2, 4000)
    s = s.numpy()
    assert set(np.unique(s[0])) == {0, 1} and abs((s[0] == 0).mean() - 0.7) < 0.04
    assert np.all(s[1] == 2)
    assert tf.random.categorical(logits, 3, dtype=tf.int32).dtype == tf.int32


def test_gradients_reach_mean_and_stddev_but_not_through_sampling():
    mean, std = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([mean, std])
        x = tf.random.normal([1000], mean=mean, stddev=std, seed=8)
        loss = tf.reduce_sum(x)
    gm, gs = tape.gradient(loss, [mean, std])
    assert gm.numpy() == pytest.approx(1000.0)
    assert gs.numpy() == pytest.approx(np.sum((x.numpy() - 1.0) / 2.0), rel=1e-4)


def test_random_errors():
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
        tf.random.uniform([2], dtype=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval, got 5 >= 5"):
        tf.random.uniform([2], 5, 5, dtype=tf.int32)
    with pytest.raises(ValueError, match="Argument `dtype` got invalid value"):
        tf.random.uniform([2], dtype=tf.int16, maxval=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -2 must be >= 0"):
        tf.random.normal([-2])
    with pytest.raises(TypeError):
        tf.random.normal([2], dtype=tf.int32)
