"""GroupNormalization, UnitNormalization, SpatialDropout2D/3D, AlphaDropout and ActivityRegularization against
TensorFlow 2.21's Keras 3.15 (values with identical weights, paths, configs, errors), training vs inference,
gradients by finite differences, the .keras round trip."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layers2_oracle import (ORACLE, arr, assert_gradients_match_finite_differences, config_matches,
                                        error, paths)

L = keras.layers
TOL = dict(rtol=1e-5, atol=2e-5)


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _group_norm_numpy(x, groups, gamma, beta, eps=1e-3):
    """Independent reference: channels-last groups, statistics over every non-batch axis of a group."""
    b, c = x.shape[0], x.shape[-1]
    g = x.reshape(b, -1, groups, c // groups)
    mean = g.mean(axis=(1, 3), keepdims=True)
    var = g.var(axis=(1, 3), keepdims=True)
    return ((g - mean) / np.sqrt(var + eps)).reshape(x.shape) * gamma + beta


def test_group_normalization_matches_keras():
    gn = L.GroupNormalization(groups=3)
    gn.build(arr("g4").shape)
    assert paths(gn) == ORACLE["gn_paths"]
    gn.set_weights([np.asarray(w, np.float32) for w in ORACLE["gn_w"]])
    np.testing.assert_allclose(gn(arr("g4")).numpy(), arr("gn4"), **TOL)
    gamma, beta = gn.get_weights()
    np.testing.assert_allclose(arr("gn4"), _group_norm_numpy(arr("g4"), 3, gamma, beta), **TOL)
    config_matches(gn, "gn_cfg")
    with pytest.raises(ValueError, match=re.escape(error("gn_rank")[1])):
        gn(arr("g3"))
    gn3 = L.GroupNormalization(groups=3)
    gn3.build(arr("g3").shape)
    gn3.set_weights([gamma, beta])
    np.testing.assert_allclose(gn3(arr("g3")).numpy(), arr("gn3"), **TOL)
    np.testing.assert_allclose(L.GroupNormalization(groups=-1, center=False, axis=1, epsilon=0.01)(arr("g3")).numpy(),
                               arr("gn_axis1"), **TOL)


@pytest.mark.parametrize("key,groups", [("gn_groups", 4), ("gn_many", 12)])
def test_group_normalization_group_errors_match_keras(key, groups):
    with pytest.raises(ValueError, match=re.escape(error(key)[1])):
        L.GroupNormalization(groups=groups)(arr("g4"))


def test_group_normalization_in_graph_mode_with_an_unknown_batch_and_gradients():
    gn = L.GroupNormalization(groups=2, dtype="float64")
    x = np.random.default_rng(0).normal(size=(2, 3, 4))
    eager = gn(x).numpy()
    traced = tf.function(gn, input_signature=[tf.TensorSpec([None, 3, 4], tf.float64)])
    np.testing.assert_allclose(traced(x).numpy(), eager, rtol=1e-12)
    xv = tf.Variable(x)
    gn.set_weights([np.array([1.0, 2.0, -1.0, 0.5]), np.array([0.1, 0.2, 0.3, 0.4])])
    w = np.random.default_rng(1).normal(size=(2, 3, 4))  # a weighted sum: the plain sum of a norm's output is flat
    assert_gradients_match_finite_differences(lambda: tf.reduce_sum(tf.sin(gn(xv)) * w), [xv] + gn.trainable_weights)


def test_unit_normalization_matches_keras():
    un = L.UnitNormalization()
    np.testing.assert_allclose(un(arr("g3")).numpy(), arr("un"), **TOL)
    np.testing.assert_allclose(L.UnitNormalization(axis=(1, 2))(arr("g3")).numpy(), arr("un12"), **TOL)
    config_matches(un, "un_cfg")


def test_spatial_dropout_2d_3d_drop_whole_channels_when_training_only():
    x = np.ones((4, 3, 3, 8), np.float32)
    sd = L.SpatialDropout2D(0.5)
    assert sd.get_config() == ORACLE["sd2_cfg"]
    np.testing.assert_array_equal(sd(x).numpy(), x)
    y = sd(x, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert np.all(y == y[:, :1, :1, :])  # one draw per (sample, channel)
    assert 0 < (y == 0).mean() < 1
    with pytest.raises(ValueError, match=re.escape(error("sd2_rank")[1].replace("spatial_dropout2d_1", sd.name))):
        sd(arr("g3"), training=True)
    sd3 = L.SpatialDropout3D(0.5)
    assert sd3.get_config() == ORACLE["sd3_cfg"]
    y3 = sd3(np.ones((4, 2, 2, 2, 8), np.float32), training=True).numpy()
    assert np.all(y3 == y3[:, :1, :1, :1, :])


def test_alpha_dropout_keeps_selu_statistics_when_training_and_is_identity_otherwise():
    ad = L.AlphaDropout(0.3)
    config_matches(ad, "ad_cfg")
    np.testing.assert_array_equal(ad(arr("g3")).numpy(), arr("ad_infer"))
    x = np.random.default_rng(0).normal(size=(200000,)).astype(np.float32)
    y = ad(x, training=True).numpy()
    # dropped units: a * alpha' + b, the rest a * x + b (Keras' affine correction)
    alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
    a = ((1 - 0.3) * (1 + 0.3 * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * 0.3
    dropped = np.isclose(y, a * alpha_p + b, atol=1e-6)
    assert abs(dropped.mean() - 0.3) < 0.01
    np.testing.assert_allclose(y[~dropped], a * x[~dropped] + b, rtol=1e-5, atol=1e-6)
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02


def test_activity_regularization_adds_its_loss():
    ar = L.ActivityRegularization(l1=0.1, l2=0.2)
    np.testing.assert_array_equal(ar(arr("g3")).numpy(), arr("ar_out"))
    np.testing.assert_allclose([float(v) for v in ar.losses], ORACLE["ar_losses"], rtol=1e-5)
    config_matches(ar, "ar_cfg")


def test_models_with_these_layers_round_trip(tmp_path):
    inp = keras.Input((3, 3, 6))
    x = L.GroupNormalization(groups=3)(inp)
    x = L.SpatialDropout2D(0.2)(x)
    x = L.UnitNormalization()(x)
    x = L.AlphaDropout(0.1)(x)
    out = L.ActivityRegularization(l2=0.01)(x)
    model = keras.Model(inp, out)
    model.save(tmp_path / "n.keras")
    loaded = keras.models.load_model(tmp_path / "n.keras")
    np.testing.assert_allclose(loaded(arr("g4")).numpy(), model(arr("g4")).numpy(), rtol=1e-6)
    assert [type(l).__name__ for l in loaded.layers] == [type(l).__name__ for l in model.layers]
