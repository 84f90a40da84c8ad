"""The five image preprocessing layers of Keras 3.15 added last: ContrastLimitedAdaptiveHistogramEqualization
and MaxNumBoundingBoxes draw nothing, so their outputs are Keras 3.15.1's (on TensorFlow 2.21) value for
value; RandomPerspective, RandomElasticTransform and AugMix draw from generators that are not TensorFlow's,
so they are checked by what Keras guarantees: shapes, dtypes, ranges, identity at inference and at zero
strength, configs and argument errors (all recorded from Keras)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras import layers

HERE = os.path.dirname(__file__)
DTYPE_POLICY = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": None}


@pytest.fixture(scope="module")
def clahe_oracle():
    with open(os.path.join(HERE, "clahe_keras3_oracle.json")) as f:
        return json.load(f)


def _clahe_images():
    rng = np.random.default_rng(0)  # the inputs given to Keras
    img1 = rng.integers(0, 256, (2, 10, 12, 2)).astype("float32")
    img2 = (rng.random((9, 7, 1)) * 0.5 + 0.2).astype("float32")
    img3 = rng.integers(0, 256, (1, 16, 16, 3)).astype("uint8")
    return img1, img2, img3


def test_clahe_matches_keras_values(clahe_oracle):
    img1, img2, img3 = _clahe_images()
    sums = clahe_oracle["img_sums"]
    assert (img1.sum(), img2.sum(dtype=np.float64), img3.sum(dtype=np.float64)) == pytest.approx(
        (sums["img1"], sums["img2"], sums["img3"]), rel=1e-6)
    clahe = layers.ContrastLimitedAdaptiveHistogramEqualization
    cases = {"a": clahe(tile_grid_size=(2, 3), clip_limit=2.0)(img1),  # 10x12 in 2x3 tiles: padding
             "b": clahe(value_range=(0, 1), tile_grid_size=(3, 3))(img2),  # one image, values in [0, 1]
             "c": clahe()(img3),  # uint8 in, uint8 out, 8x8 tiles of 2x2
             "d": clahe(tile_grid_size=(4, 4), clip_limit=0)(img1)}  # no clipping
    for key, got in cases.items():
        np.testing.assert_allclose(np.asarray(got, np.float64), clahe_oracle[key], atol=2e-4, err_msg=key)
    assert cases["c"].dtype == tf.uint8 and cases["b"].shape == (9, 7, 1)


def test_clahe_applies_at_inference_too_and_config(clahe_oracle):
    img1 = _clahe_images()[0]
    layer = layers.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 3), clip_limit=2.0)
    np.testing.assert_allclose(layer(img1, training=False).numpy(), clahe_oracle["a"], atol=2e-4)
    config = layers.ContrastLimitedAdaptiveHistogramEqualization(name="clahe").get_config()
    assert config == {"name": "clahe", "trainable": True, "dtype": DTYPE_POLICY, "data_format": "channels_last",
                      "value_range": (0, 255), "clip_limit": 4.0, "tile_grid_size": (8, 8)}


def _boxes():
    return {"boxes": np.array([[[1, 2, 3, 4], [5, 6, 7, 8], [0, 0, 1, 1]], [[2, 2, 4, 4], [1, 1, 2, 2], [3, 3, 5, 5]]],
                              "float32"), "labels": np.array([[1, 2, 3], [4, 5, 6]])}


def test_max_num_bounding_boxes_pads_and_truncates():
    images = np.zeros((2, 8, 8, 3), "uint8")
    out = layers.MaxNumBoundingBoxes(max_number=5, bounding_box_format="xyxy")(
        {"images": images, "bounding_boxes": _boxes()})
    fill = [-1.0] * 4
    np.testing.assert_array_equal(out["bounding_boxes"]["boxes"].numpy(),
                                  [[[1, 2, 3, 4], [5, 6, 7, 8], [0, 0, 1, 1], fill, fill],
                                   [[2, 2, 4, 4], [1, 1, 2, 2], [3, 3, 5, 5], fill, fill]])
    np.testing.assert_array_equal(out["bounding_boxes"]["labels"].numpy(), [[1, 2, 3, -1, -1], [4, 5, 6, -1, -1]])
    assert out["bounding_boxes"]["labels"].dtype == tf.int64 and out["images"].dtype == tf.uint8
    cut = layers.MaxNumBoundingBoxes(max_number=2, fill_value=-7, bounding_box_format="xyxy")(
        {"images": images, "bounding_boxes": _boxes()}, training=False)
    np.testing.assert_array_equal(cut["bounding_boxes"]["boxes"].numpy(),
                                  [[[1, 2, 3, 4], [5, 6, 7, 8]], [[2, 2, 4, 4], [1, 1, 2, 2]]])
    np.testing.assert_array_equal(cut["bounding_boxes"]["labels"].numpy(), [[1, 2], [4, 5]])


def test_max_num_bounding_boxes_unbatched_integer_boxes_and_extra_entries():
    images = np.zeros((2, 8, 8, 3), "uint8")
    layer = layers.MaxNumBoundingBoxes(max_number=4, bounding_box_format="xyxy")
    boxes = _boxes()
    one = layer({"images": images[0], "bounding_boxes": {"boxes": boxes["boxes"][0], "labels": boxes["labels"][0]}})
    np.testing.assert_array_equal(one["bounding_boxes"]["labels"].numpy(), [1, 2, 3, -1])
    assert one["images"].shape == (8, 8, 3)
    ints = layer({"images": images, "bounding_boxes": {"boxes": _boxes()["boxes"].astype("int64"),
                                                       "labels": _boxes()["labels"]}, "labels": np.array([1, 0])})
    assert ints["bounding_boxes"]["boxes"].dtype == tf.float32 and ints["bounding_boxes"]["boxes"].shape == (2, 4, 4)
    np.testing.assert_array_equal(np.asarray(ints["labels"]), [1, 0])
    assert layer(images).dtype == tf.uint8


def test_max_num_bounding_boxes_needs_a_format_and_config():
    with pytest.raises(ValueError, match="You passed an input with a 'bounding_boxes' key, but you didn't specify a "
                                         "bounding box format. Pass a `bounding_box_format` argument to your "
                                         "MaxNumBoundingBoxes layer, e.g. `bounding_box_format='xyxy'`."):
        layers.MaxNumBoundingBoxes(max_number=5)({"images": np.zeros((2, 8, 8, 3)), "bounding_boxes": _boxes()})
    with pytest.raises(TypeError):
        layers.MaxNumBoundingBoxes()
    assert layers.MaxNumBoundingBoxes(max_number=3, fill_value=2, name="m").get_config() == {
        "name": "m", "trainable": True, "dtype": DTYPE_POLICY, "data_format": "channels_last", "max_number": 3}
    shapes = layers.MaxNumBoundingBoxes(max_number=3).compute_output_shape(
        {"images": (2, 8, 8, 3), "bounding_boxes": {"boxes": (2, 5, 4), "labels": (2, 5)}})
    assert shapes == {"images": (2, 8, 8, 3), "bounding_boxes": {"boxes": [2, 3, 4], "labels": [2, 3]}}


def _image_batch():
    return np.random.default_rng(1).integers(0, 256, (2, 8, 10, 3)).astype("float32")


RANDOM_LAYERS = [
    (layers.RandomPerspective, {"factor": (0, 1.0), "scale": 1.0, "interpolation": "bilinear", "fill_value": 0.0}),
    (layers.RandomElasticTransform, {"factor": (0, 1.0), "scale": (0, 1.0), "interpolation": "bilinear",
                                     "fill_mode": "reflect", "fill_value": 0.0, "value_range": (0, 255)}),
    (layers.AugMix, {"value_range": (0, 255), "num_chains": 3, "chain_depth": 3, "factor": (0, 0.3), "alpha": 1.0,
                     "all_ops": True, "interpolation": "bilinear"}),
]


@pytest.mark.parametrize("cls,defaults", RANDOM_LAYERS)
def test_random_layer_shapes_dtypes_inference_identity_and_config(cls, defaults):
    images = _image_batch()
    layer = cls(seed=3, name="aug")
    assert layer.get_config() == {"name": "aug", "trainable": True, "dtype": DTYPE_POLICY,
                                  "data_format": "channels_last", **defaults, "seed": 3}
    out = layer(images, training=True).numpy()
    assert out.shape == (2, 8, 10, 3) and out.dtype == np.float32
    assert 0.0 <= out.min() and out.max() <= 255.0
    np.testing.assert_array_equal(layer(images, training=False).numpy(), images)
    assert layer(images.astype("uint8"), training=True).dtype == tf.float32
    assert layer(images[0], training=True).shape == (8, 10, 3)
    out = layer({"images": images, "labels": np.ones((2, 1))}, training=True)
    assert out["images"].shape == (2, 8, 10, 3) and np.asarray(out["labels"]).shape == (2, 1)


def test_random_layers_change_images_when_they_apply():
    images = np.random.default_rng(0).random((4, 32, 32, 1)).astype("float32") * 255
    for layer in (layers.RandomPerspective(factor=(1, 1), seed=2), layers.RandomElasticTransform(factor=(1, 1),
                  scale=(1, 1), seed=2), layers.AugMix(seed=2)):
        assert np.abs(layer(images, training=True).numpy() - images).mean() > 1.0, layer.name


@pytest.mark.parametrize("layer", [lambda: layers.RandomPerspective(scale=0.0, seed=1),
                                   lambda: layers.RandomPerspective(factor=0.0, seed=1),
                                   lambda: layers.RandomElasticTransform(scale=0.0, seed=1),
                                   lambda: layers.RandomElasticTransform(factor=0.0, seed=1)])
def test_zero_strength_is_identity(layer):
    images = _image_batch()
    np.testing.assert_array_equal(layer()(images, training=True).numpy(), images)


def test_perspective_warps_a_flat_image_with_fill_and_elastic_keeps_it_flat():
    flat = np.full((1, 8, 8, 3), 77.0, "float32")
    warps = [layers.RandomPerspective(factor=(1, 1), seed=s)(flat, training=True).numpy() for s in range(8)]
    assert any(w.min() == 0.0 for w in warps)  # corners moved in: fill_value shows
    assert all(np.isclose(w, 77.0).any() for w in warps)
    # a displacement field only moves values around: a flat image stays flat (Keras: 76.99999 .. 77.0)
    np.testing.assert_allclose(layers.RandomElasticTransform(factor=(1, 1), seed=1)(flat, training=True).numpy(),
                               flat, atol=1e-4)


def test_outputs_are_clipped_to_the_value_range():
    images = _image_batch()
    for cls in (layers.RandomElasticTransform, layers.AugMix):
        assert cls(seed=1)(images * 3, training=True).numpy().max() <= 255.0
        assert cls(seed=1, value_range=(0, 1))(images / 255.0, training=True).numpy().max() <= 1.0


def test_aug_mix_runs_under_tf_function_and_all_ops_false():
    images = _image_batch()
    assert tf.function(lambda x: layers.AugMix(seed=4)(x, training=True))(images).shape == (2, 8, 10, 3)
    assert layers.AugMix(all_ops=False).get_config()["all_ops"] is False


def test_argument_errors_as_keras():
    with pytest.raises(ValueError, match=r"The `scale` argument should be a number in the range \[0,1\]. Received: "
                                         r"scale=1.5"):
        layers.RandomPerspective(scale=1.5)
    with pytest.raises(NotImplementedError, match=r"Unknown `interpolation` cubic. Expected of one \('nearest', "
                                                  r"'bilinear'\)."):
        layers.RandomPerspective(interpolation="cubic")
    factor = r"The `factor` argument should be a number \(or a list of two numbers\) in the range \[0, 1\]. "
    with pytest.raises(ValueError, match=factor + "Received: factor=1.5"):
        layers.RandomPerspective(factor=1.5)
    with pytest.raises(ValueError, match=factor + "Received: factor=2"):
        layers.AugMix(factor=2)
    with pytest.raises(NotImplementedError, match="Unknown `fill_mode` wrapx. Expected of one"):
        layers.RandomElasticTransform(fill_mode="wrapx")
    with pytest.raises(ValueError, match=r"The `scale` argument should be a number \(or a list of two numbers\) in "
                                         r"the range \[0, 1\]. Received: factor=2"):
        layers.RandomElasticTransform(scale=2)


def test_layers_are_in_keras_layers_namespace():
    for name in ("AugMix", "ContrastLimitedAdaptiveHistogramEqualization", "MaxNumBoundingBoxes",
                 "RandomElasticTransform", "RandomPerspective"):
        assert hasattr(keras.layers, name)
