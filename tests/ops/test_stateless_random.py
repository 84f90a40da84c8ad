"""tf.random.stateless_*: TensorFlow's own numbers (Philox-4x32-10, its key/counter derivation and
conversions), written here from TensorFlow 2.21's output; seed derivation (fold_in, split);
create_rng_state; graphs and refusals."""
import numpy as np
import pytest

import eagerflow as tf

R = tf.random


def test_uniform_and_normal_are_tensorflows_numbers():
    assert R.stateless_uniform([6], seed=[1, 2]).numpy().tolist() == [
        0.8440604209899902, 0.19204533100128174, 0.9962232112884521, 0.16038739681243896, 0.27199018001556396,
        0.6493459939956665]
    assert R.stateless_uniform([3], seed=[1, 2], dtype=tf.float64).numpy().tolist() == [
        0.7524837538451801, 0.9697857725627486, 0.17592233912897481]
    # float32 normals: NumPy's and Eigen's float sin/cos may round one ulp apart
    np.testing.assert_allclose(R.stateless_normal([6], seed=[1, 2]).numpy(), [
        0.544110119342804, 0.20738030970096588, 0.0735643208026886, 0.04643455147743225, -1.301589846611023,
        -0.9538565278053284], rtol=3e-7)
    np.testing.assert_allclose(R.stateless_normal([3], seed=[1, 2], dtype=tf.float64).numpy(), [
        -0.1423118100189212, 0.7406072461585091, -1.469047669443883], rtol=1e-15)
    np.testing.assert_allclose(R.stateless_truncated_normal([6], seed=[1, 2]).numpy(), [
        0.544110119342804, 0.20738030970096588, 0.0735643208026886, 0.04643455147743225, 0.16820591688156128,
        -1.6850333213806152], rtol=3e-7)  # groups of four read their own 256-draw stretches
    assert R.stateless_uniform([2], seed=tf.constant([2 ** 40 + 5, -7], tf.int64)).numpy().tolist() == [
        0.17571556568145752, 0.6070963144302368]


def test_integer_draws_are_tensorflows_numbers():
    assert R.stateless_uniform([6], seed=[3, 4], minval=0, maxval=10, dtype=tf.int32).numpy().tolist() == [
        3, 7, 2, 9, 7, 9]
    assert R.stateless_uniform([3], seed=[3, 4], minval=None, maxval=None, dtype=tf.int32).numpy().tolist() == [
        -1860230133, -671226999, -1390659934]
    assert R.stateless_uniform([3], seed=[5, 6], minval=-5, maxval=2 ** 40, dtype=tf.int64).numpy().tolist() == [
        51312605200, 624345013713, 492673485533]
    assert R.stateless_uniform([3], seed=[5, 6], minval=None, maxval=None, dtype=tf.int64).numpy().tolist() == [
        -8166752306318964373, -6335611874240545088, -1107207716418095382]


def test_categorical_is_tensorflows_numbers():
    logits = np.array([[0.1, 2.0, -1.0, 0.5], [1.0, 1.0, 1.0, 1.0], [-np.inf, 0.0, 3.0, 0.2]], np.float32)
    assert R.stateless_categorical(logits, 12, seed=[3, 9]).numpy().tolist() == [
        [1, 0, 1, 1, 3, 1, 1, 1, 1, 1, 0, 1], [1, 0, 2, 0, 3, 1, 2, 2, 0, 0, 2, 2], [2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1]]
    assert R.stateless_categorical(np.log([[0.5, 0.5], [0.1, 0.9]]).astype(np.float32), 5,
                                   seed=[7, 17]).numpy().tolist() == [[1, 0, 1, 0, 0], [1, 1, 1, 1, 0]]
    assert R.stateless_categorical(logits, 4, seed=[3, 9], dtype=tf.int32).dtype == tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"logits should be a matrix, got shape \[2\]"):
        R.stateless_categorical([0.5, 0.5], 3, seed=[1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_samples should be non-negative, got -1"):
        R.stateless_categorical([[0.5, 0.5]], -1, seed=[1, 2])
    with pytest.raises(ValueError, match=r"Argument `dtype` got invalid value <dtype: 'float32'>"):
        R.stateless_categorical([[0.5, 0.5]], 2, seed=[1, 2], dtype=tf.float32)


def test_seed_derivation_matches_tensorflow():
    assert R.fold_in([1, 2], 5).numpy().tolist() == [1105988140, 5]
    assert R.experimental.stateless_fold_in is R.fold_in and R.experimental.stateless_split is R.split
    assert R.split([1, 2], 3).numpy().tolist() == [[1105988140, 1738052849], [-335576002, 370444179],
                                                  [10670227, -246211131]]
    assert R.create_rng_state(5, "philox").tolist() == [5, 0, 0]
    assert R.create_rng_state(5, "threefry").tolist() == [5, 0]
    assert R.create_rng_state(5, 1).tolist() == [5, 0, 0]


def test_same_seed_same_numbers_eager_and_traced_and_scaling():
    f = tf.function(lambda s: R.stateless_uniform([4, 3], seed=s, minval=-2.0, maxval=4.0))
    seed = tf.constant([11, 12])
    eager = R.stateless_uniform([4, 3], seed=seed, minval=-2.0, maxval=4.0).numpy()
    np.testing.assert_array_equal(f(seed).numpy(), eager)
    np.testing.assert_array_equal(f(seed).numpy(), eager)  # a pure function: no state advances
    assert not np.array_equal(f(tf.constant([11, 13])).numpy(), eager)
    unit = R.stateless_uniform([4, 3], seed=seed).numpy()
    np.testing.assert_allclose(eager, unit * 6.0 - 2.0, rtol=1e-6)
    big = R.stateless_normal([20000], seed=[1, 1], mean=3.0, stddev=0.5, dtype=tf.float64).numpy()
    assert abs(big.mean() - 3.0) < 0.02 and abs(big.std() - 0.5) < 0.02
    tn = R.stateless_truncated_normal([20000], seed=[1, 1]).numpy()
    assert np.abs(tn).max() < 2.0 and abs(tn.std() - 0.8796) < 0.02  # the std of N(0,1) cut at +-2


def test_graph_op_types_are_tensorflows():
    def types(fn):
        cf = tf.function(fn).get_concrete_function(tf.TensorSpec([2], tf.int32))
        return [op.type for op in cf.graph.get_operations() if op.type not in ("Placeholder", "Identity", "Const")]
    assert types(lambda s: R.stateless_uniform([3], seed=s)) == [
        "StatelessRandomGetKeyCounter", "StatelessRandomUniformV2", "Sub", "Mul", "AddV2"]
    assert types(lambda s: R.stateless_normal([3], seed=s, mean=1.0, stddev=2.0)) == [
        "StatelessRandomGetKeyCounter", "StatelessRandomNormalV2", "Mul", "AddV2"]
    assert types(lambda s: R.stateless_uniform([3], seed=s, minval=0, maxval=5, dtype=tf.int32)) == [
        "StatelessRandomGetKeyCounter", "StatelessRandomUniformIntV2"]
    assert types(lambda s: R.fold_in(s, 3)) == [
        "StatelessRandomGetKeyCounter", "StatelessRandomUniformFullIntV2", "Pack"]
    cf = tf.function(lambda s: R.stateless_normal([4, 5], seed=s)).get_concrete_function(tf.TensorSpec([2], tf.int32))
    assert cf.output_shapes == [4, 5]


def test_bad_seeds_and_arguments_are_refused_as_in_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\], not \[3\]"):
        R.stateless_uniform([2], seed=[1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tseed' of float is not in the list of "
                                                              "allowed values: int32, int64"):
        R.stateless_uniform([2], seed=[1.0, 2.0])
    with pytest.raises(ValueError, match="argument `minval` and `maxval` must be both None or not None"):
        R.stateless_uniform([2], seed=[1, 2], dtype=tf.int32)
    with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int32"):
        R.stateless_normal([2], seed=[1, 2], dtype=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval"):
        R.stateless_uniform([2], seed=[1, 2], minval=3, maxval=3, dtype=tf.int32)
