"""Normalization, CategoryEncoding, Discretization, Resizing, CenterCrop, RandomFlip, RandomContrast and
RandomBrightness against TensorFlow 2.21's Keras 3.15: values, adapted statistics (arrays and Datasets),
weight paths, configs, errors. The random layers cannot match Keras' random streams: their tests check the
transformation's structure (per-image draws within Keras' ranges), identity at inference, shapes."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layers2_oracle import ORACLE, arr, error, paths

L = keras.layers
TOL = dict(rtol=1e-5, atol=1e-6)


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def test_normalization_adapt_matches_keras():
    data = arr("norm_data")
    norm = L.Normalization()
    norm.adapt(data)
    np.testing.assert_allclose(norm.mean.numpy(), arr("norm_mean"), **TOL)
    np.testing.assert_allclose(norm.variance.numpy(), arr("norm_var"), **TOL)
    np.testing.assert_allclose(norm(data[:4]).numpy(), arr("norm_out"), **TOL)
    np.testing.assert_allclose(norm(data).numpy().mean(0), 0, atol=1e-6)
    assert paths(norm) == ORACLE["norm_paths"]
    assert norm.get_config() == ORACLE["norm_cfg"]
    whole = L.Normalization(axis=None)
    whole.adapt(data)
    np.testing.assert_allclose(whole(data[:4]).numpy(), arr("normall_out"), **TOL)


def test_normalization_adapts_on_a_dataset_of_batches():
    norm = L.Normalization()
    norm.adapt(tf.data.Dataset.from_tensor_slices(arr("norm_data")).batch(7))
    np.testing.assert_allclose(norm.mean.numpy(), arr("normds_mean"), **TOL)
    np.testing.assert_allclose(norm.variance.numpy(), arr("norm_var"), rtol=1e-5)
    unbatched = L.Normalization()
    unbatched.adapt(tf.data.Dataset.from_tensor_slices(arr("norm_data")))
    np.testing.assert_allclose(unbatched.mean.numpy(), arr("normds_mean"), **TOL)


def test_normalization_given_statistics_and_invert():
    data = arr("norm_data")[:4]
    kwargs = dict(mean=[1.0, 2.0, 3.0], variance=[4.0, 1.0, 0.25])
    np.testing.assert_allclose(L.Normalization(**kwargs)(data).numpy(), arr("norm_fixed"), **TOL)
    np.testing.assert_allclose(L.Normalization(invert=True, **kwargs)(data).numpy(), arr("norm_invert"), **TOL)
    np.testing.assert_allclose(L.Normalization(invert=True, **kwargs)(L.Normalization(**kwargs)(data)).numpy(), data,
                               rtol=1e-5, atol=1e-5)
    keras.backend.clear_session()
    for _ in range(3):
        L.Normalization()
    assert L.Normalization(**kwargs).get_config() == ORACLE["norm_fixed_cfg"]
    with pytest.raises(ValueError, match=re.escape(error("norm_meanonly")[1])):
        L.Normalization(mean=1.0)
    np.testing.assert_allclose(L.Normalization()(data).numpy(), data)  # not adapted: mean 0, variance 1


def test_normalization_model_round_trips_its_statistics(tmp_path):
    norm = L.Normalization()
    norm.adapt(arr("norm_data"))
    model = keras.Sequential([keras.Input((3,)), norm, L.Dense(2)])
    model.save(tmp_path / "p.keras")
    loaded = keras.models.load_model(tmp_path / "p.keras")
    np.testing.assert_allclose(loaded(arr("norm_data")).numpy(), model(arr("norm_data")).numpy(), rtol=1e-6)
    np.testing.assert_allclose(loaded.layers[0].mean.numpy(), arr("norm_mean"), **TOL)


@pytest.mark.parametrize("key,make", [("rs_bil", lambda: L.Resizing(4, 5)),
                                      ("rs_near", lambda: L.Resizing(4, 5, interpolation="nearest")),
                                      ("rs_crop", lambda: L.Resizing(4, 4, crop_to_aspect_ratio=True)),
                                      ("rs_up", lambda: L.Resizing(9, 11)), ("crop", lambda: L.CenterCrop(4, 5)),
                                      ("crop_big", lambda: L.CenterCrop(8, 9))])
def test_resizing_and_center_crop_match_keras(key, make):
    layer = make()
    np.testing.assert_allclose(layer(arr("img")).numpy(), arr(key), **TOL)
    got, want = layer.get_config(), ORACLE[key + "_cfg"]
    assert {k: v for k, v in got.items() if k != "name"} == {k: v for k, v in want.items() if k != "name"}
    assert list(got) == list(want)


def test_single_images_and_graph_mode():
    np.testing.assert_allclose(L.CenterCrop(3, 3)(arr("img")[0]).numpy(), arr("crop_single"), **TOL)
    np.testing.assert_allclose(L.Resizing(3, 3)(arr("img")[0]).numpy(), arr("rs_single"), **TOL)
    resize = L.Resizing(4, 5)
    traced = tf.function(resize, input_signature=[tf.TensorSpec([None, 6, 8, 3], tf.float32)])
    np.testing.assert_allclose(traced(arr("img")).numpy(), arr("rs_bil"), **TOL)


def test_category_encoding_matches_keras():
    ids = np.array([[0, 1, 1], [3, 2, 0]])
    np.testing.assert_array_equal(L.CategoryEncoding(4)(ids).numpy(), arr("ce_multi"))
    np.testing.assert_array_equal(L.CategoryEncoding(4, output_mode="count")(ids).numpy(), arr("ce_count"))
    np.testing.assert_array_equal(L.CategoryEncoding(4, output_mode="one_hot")(np.array([0, 3, 1])).numpy(),
                                  arr("ce_one"))
    np.testing.assert_array_equal(L.CategoryEncoding(4, output_mode="one_hot")(np.array([[0], [3]])).numpy(),
                                  arr("ce_one2"))
    keras.backend.clear_session()
    for _ in range(4):
        L.CategoryEncoding(4)
    assert L.CategoryEncoding(4, output_mode="count").get_config() == ORACLE["ce_cfg"]


def test_discretization_matches_keras():
    values = np.array([[-1.5, 0.0, 0.2], [1.0, 3.0, 0.5]], np.float32)
    L.Discretization(bin_boundaries=[0.0])
    layer = L.Discretization(bin_boundaries=[0.0, 0.5, 1.0])
    out = layer(values)
    assert out.dtype == tf.int32  # Keras 3.15: int32 bucket ids (eagerflow returned int64 before)
    np.testing.assert_array_equal(out.numpy(), np.asarray(ORACLE["disc"]))
    assert layer.get_config() == ORACLE["disc_cfg"]


IMG = np.random.default_rng(5).uniform(0, 255, size=(16, 4, 5, 3)).astype(np.float32)


@pytest.mark.parametrize("key,make", [("rflip", lambda: L.RandomFlip()), ("rcon", lambda: L.RandomContrast(0.3)),
                                      ("rbri", lambda: L.RandomBrightness(0.2))])
def test_random_layers_are_identity_at_inference_with_keras_configs(key, make):
    layer = make()
    assert ORACLE[key + "_infer_equal"]
    np.testing.assert_array_equal(layer(arr("img"), training=False).numpy(), arr("img"))
    got, want = layer.get_config(), ORACLE[key + "_cfg"]
    assert {k: v for k, v in got.items() if k != "name"} == {k: v for k, v in want.items() if k != "name"}
    model = keras.Sequential([keras.Input((4, 5, 3)), layer])
    np.testing.assert_array_equal(model.predict(IMG, verbose=0), IMG)


def test_random_flip_flips_whole_images_when_training():
    flips = {"horizontal": lambda x: x[:, ::-1], "vertical": lambda x: x[::-1],
             "horizontal_and_vertical": lambda x: x[::-1, ::-1]}
    for mode, flip in flips.items():
        out = L.RandomFlip(mode)(IMG, training=True).numpy()
        kept = [np.array_equal(o, x) for o, x in zip(out, IMG)]
        flipped = [np.array_equal(o, flip(x)) for o, x in zip(out, IMG)]
        assert all(k or f for k, f in zip(kept, flipped)) and any(kept) and any(flipped), mode


def test_random_contrast_and_brightness_draw_per_image_within_keras_ranges():
    x = IMG / 255.0 * 50 + 100  # away from the clipping bounds
    out = L.RandomContrast(0.3, value_range=(0, 255))(x, training=True).numpy()
    mean = x.mean(axis=(1, 2), keepdims=True)
    # one factor per image: the least-squares slope of (out - mean) on (x - mean)
    centred, moved = (x - mean).reshape(16, -1), (out - mean).reshape(16, -1)
    factor = (centred * moved).sum(1) / (centred * centred).sum(1)
    np.testing.assert_allclose(moved, centred * factor[:, None], atol=1e-3)
    assert np.all(factor >= 1 - 1e-4) and np.all(factor <= 1.3 + 1e-4) and np.ptp(factor) > 0.01  # Keras: [1, 1 + f]
    out = L.RandomBrightness(0.2)(x, training=True).numpy()
    delta = out - x
    assert np.allclose(delta, delta[:, :1, :1, :1], atol=1e-3)
    assert np.all(np.abs(delta[:, 0, 0, 0]) <= 0.2 * 255 + 1e-3) and np.ptp(delta[:, 0, 0, 0]) > 1
    bright = L.RandomBrightness((0.9, 1.0))(IMG, training=True).numpy()
    assert bright.max() == 255 and bright.min() >= 0.9 * 255  # clipped to value_range
    with pytest.raises(ValueError, match=re.escape("The `factor` argument should be a number (or a list of two "
                                                   "numbers) in the range [0, 1]. Received: factor=2")):
        L.RandomContrast(2)


@pytest.mark.parametrize("fill_mode", ["reflect", "wrap", "constant", "nearest"])
@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
def test_translation_and_zoom_match_keras_with_a_one_value_factor_range(fill_mode, interpolation):
    """A factor range of one value draws exactly that value in Keras too, so the resampling (TensorFlow's
    projective transform rules: fill modes, interpolation, fill_value) is compared value for value."""
    small = arr("small_img")
    shift = L.RandomTranslation((0.25, 0.25), (-0.3, -0.3), fill_mode=fill_mode, interpolation=interpolation,
                                fill_value=0.5)
    np.testing.assert_allclose(shift(small, training=True).numpy(), arr(f"rtrans_{fill_mode}_{interpolation}"),
                               **TOL)
    zoom = L.RandomZoom((-0.4, -0.4), (0.3, 0.3), fill_mode=fill_mode, interpolation=interpolation, fill_value=0.5)
    np.testing.assert_allclose(zoom(small, training=True).numpy(), arr(f"rzoom_{fill_mode}_{interpolation}"), **TOL)
    traced = tf.function(lambda x: zoom(x, training=True), input_signature=[tf.TensorSpec([None, 5, 6, 2])])
    np.testing.assert_allclose(traced(small).numpy(), arr(f"rzoom_{fill_mode}_{interpolation}"), **TOL)


def test_translation_and_zoom_configs_errors_and_inference():
    for key, layer in [("rtrans", L.RandomTranslation(0.1, 0.2)), ("rzoom", L.RandomZoom(0.2))]:
        assert ORACLE[key + "_infer_equal"]
        np.testing.assert_array_equal(layer(arr("img"), training=False).numpy(), arr("img"))
        assert layer.get_config() == ORACLE[key + "_cfg"]
        moved = layer(IMG, training=True).numpy()
        assert moved.shape == IMG.shape and not np.allclose(moved, IMG)
        assert IMG.min() - 1e-3 <= moved.min() and moved.max() <= IMG.max() + 1e-3  # reflect + bilinear: no overshoot
    small = arr("small_img")
    np.testing.assert_allclose(L.RandomZoom((0.5, 0.5))(small, training=True).numpy(), arr("rzoom_same"), **TOL)
    with pytest.raises(ValueError, match=re.escape(error("rtrans_bad")[1])):
        L.RandomTranslation(1.5, 0.1)
    with pytest.raises(NotImplementedError, match=re.escape(error("rtrans_mode")[1])):
        L.RandomTranslation(0.1, 0.1, fill_mode="x")
    L.RandomZoom((0.5, -0.2))  # Keras sorts the pair
    one = L.RandomTranslation((0.25, 0.25), 0.0, fill_mode="constant")(IMG[0], training=True).numpy()
    np.testing.assert_allclose(one[1:], IMG[0][:-1], rtol=1e-5)  # 0.25 * 4 rows = one row down
    np.testing.assert_array_equal(one[0], 0)


@pytest.mark.parametrize("fill_mode", ["reflect", "constant"])
@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
def test_rotation_matches_keras_with_a_one_value_factor_range(fill_mode, interpolation):
    rotate = L.RandomRotation((0.1, 0.1), fill_mode=fill_mode, interpolation=interpolation, fill_value=0.5)
    np.testing.assert_allclose(rotate(arr("small_img"), training=True).numpy(), arr(f"rrot_{fill_mode}_{interpolation}"),
                               **TOL)
    np.testing.assert_array_equal(rotate(arr("small_img"), training=False).numpy(), arr("small_img"))


def test_rotation_of_one_image_config_and_quarter_turn():
    np.testing.assert_allclose(L.RandomRotation((-0.3, -0.3))(arr("small_img")[0], training=True).numpy(),
                               arr("rrot_single"), rtol=1e-5, atol=1e-5)
    rotation = L.RandomRotation(0.2)
    got, want = rotation.get_config(), ORACLE["rrot_cfg"]
    assert list(got) == list(want) and {**got, "name": want["name"]} == want
    square = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    turned = L.RandomRotation((0.25, 0.25), interpolation="nearest")(square, training=True).numpy()
    np.testing.assert_array_equal(turned[0, :, :, 0], np.rot90(square[0, :, :, 0], 1))  # positive: counter-clockwise


def test_discretization_adapt_finds_keras_quantile_boundaries():
    layer = L.Discretization(num_bins=4)
    layer.adapt(arr("norm_data")[:, 0])
    np.testing.assert_allclose(layer.bin_boundaries, ORACLE["disc_adapt_bounds"], rtol=1e-6)
    assert layer(np.array([-5.0, 0.0, 5.0])).numpy().tolist() == [0, 1, 3]
    batched = L.Discretization(num_bins=4)
    batched.adapt(tf.data.Dataset.from_tensor_slices(arr("norm_data")[:, 0]).batch(20))
    np.testing.assert_allclose(batched.bin_boundaries, ORACLE["disc_adapt_bounds"], rtol=1e-6)
    with pytest.raises(ValueError, match="Cannot adapt a Discretization layer that has been initialized with "
                                         "`bin_boundaries`"):
        L.Discretization(bin_boundaries=[0.0]).adapt(arr("norm_data"))
