"""preprocess_input's modes and decode_predictions against Keras 3's answers; the class index file is
read from $KERAS_HOME/models (or ~/.keras/models) and a missing one is named with its folder."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras.applications import builder, imagenet_utils

from .oracle import ORACLE

PRE = ORACLE["preprocess"]
BASE = np.arange(2 * 2 * 2 * 3, dtype="float32").reshape(2, 2, 2, 3) * 10.0


@pytest.mark.parametrize("mode", ["caffe", "tf", "torch"])
@pytest.mark.parametrize("fmt", ["channels_last", "channels_first", "channels_last_3d"])
def test_preprocess_modes_match_keras(mode, fmt):
    x = {"channels_last": BASE, "channels_first": BASE.transpose(0, 3, 1, 2), "channels_last_3d": BASE[0]}[fmt]
    expected = PRE[f"{mode}:{fmt}"]
    data_format = fmt.replace("_3d", "")
    got = imagenet_utils.preprocess_input(x.copy(), data_format=data_format, mode=mode)
    assert isinstance(got, np.ndarray) and str(got.dtype) == expected["dtype"]
    np.testing.assert_allclose(got, expected["numpy"], rtol=1e-6, atol=1e-5)
    got_tensor = imagenet_utils.preprocess_input(tf.constant(x), data_format=data_format, mode=mode)
    np.testing.assert_allclose(got_tensor.numpy(), expected["tensor"], rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("mode", ["caffe", "tf", "torch"])
def test_a_float_array_is_scaled_in_place_as_keras_does(mode):
    caller = BASE.copy()
    imagenet_utils.preprocess_input(caller, mode=mode)
    np.testing.assert_allclose(caller, PRE[f"{mode}:in_place"], rtol=1e-6, atol=1e-5)


def test_integer_images_become_float32():
    got = imagenet_utils.preprocess_input(np.full((1, 1, 1, 3), 255, "uint8"), mode="tf")
    assert str(got.dtype) == PRE["uint8_tf"]["dtype"]
    np.testing.assert_allclose(got, PRE["uint8_tf"]["values"])


@pytest.mark.parametrize("family", ["mobilenet", "mobilenet_v2", "mobilenet_v3", "resnet", "resnet50", "resnet_v2",
                                    "vgg16", "vgg19", "densenet", "xception", "inception_v3", "efficientnet",
                                    "convnext", "efficientnet_v2", "inception_resnet_v2", "nasnet"])
def test_each_family_preprocesses_as_keras(family):
    got = getattr(keras.applications, family).preprocess_input(BASE[:1].copy())
    np.testing.assert_allclose(np.asarray(got), PRE[f"module:{family}"], rtol=1e-6, atol=1e-5)


@pytest.mark.skipif(not builder.symbolic_operators(),
                    reason="keras.ops on KerasTensors (issue 24 point 1) not here yet")
def test_preprocess_inside_a_functional_model():
    image = keras.Input((2, 2, 3))
    model = keras.Model(image, keras.applications.resnet50.preprocess_input(image))
    np.testing.assert_allclose(model(BASE).numpy(), PRE["caffe:channels_last"]["tensor"], rtol=1e-6, atol=1e-5)


def _class_index(folder):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "imagenet_class_index.json"), "w") as f:
        json.dump({str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}, f)


def test_decode_predictions_matches_keras(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    _class_index(tmp_path / "models")
    preds = np.random.RandomState(ORACLE["decode"]["preds_seed"]).uniform(0, 1, (2, 1000)).astype("float32")
    preds[1, 10] = preds[1, 20] = 2.0
    decoded = keras.applications.mobilenet_v2.decode_predictions(preds, top=3)
    assert [[[a, b, float(c)] for a, b, c in row] for row in decoded] == ORACLE["decode"]["top3"]
    assert len(imagenet_utils.decode_predictions(tf.constant(preds))[0]) == ORACLE["decode"]["default_len"]


def test_decode_predictions_reads_the_home_folder_without_keras_home(tmp_path, monkeypatch):
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    _class_index(tmp_path / ".keras" / "models")
    assert imagenet_utils.decode_predictions(np.eye(1000, dtype="float32")[:1], top=1)[0][0][:2] == \
        ("n00000000", "class_0")


def test_a_missing_class_index_names_the_file_and_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError) as info:
        imagenet_utils.decode_predictions(np.zeros((1, 1000), "float32"))
    message = str(info.value)
    assert "imagenet_class_index.json" in message and str(tmp_path / "models") in message
    assert "download.tensorflow.org/data/imagenet_class_index.json" in message


ERRORS = ORACLE["errors"]




@pytest.mark.parametrize("key,call", [
    ("mode", lambda: imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3), "float32"), mode="nope")),
    ("data_format", lambda: imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3), "float32"), data_format="x")),
    ("decode_shape", lambda: imagenet_utils.decode_predictions(np.zeros((2, 10)))),
    ("static_shape", lambda: keras.applications.ResNet50(weights=None, input_shape=(None, None, 3))),
    ("too_small", lambda: keras.applications.ResNet50(weights=None, include_top=False, input_shape=(16, 16, 3))),
    ("not_three", lambda: keras.applications.ResNet50(weights=None, include_top=False, input_shape=(32, 32))),
    ("imagenet_shape", lambda: keras.applications.ResNet50(weights="imagenet", input_shape=(200, 200, 3))),
    ("alpha_v2", lambda: keras.applications.MobileNetV2(weights="imagenet", alpha=0.3)),
])
def test_bad_arguments_raise_keras_messages(key, call):
    kind, message = ERRORS[key]
    with pytest.raises(ValueError) as info:
        call()
    assert kind == "ValueError"
    assert str(info.value) == message


@pytest.mark.parametrize("key,call,words", [
    ("weights", lambda: keras.applications.ResNet50(weights="/no/such/file.h5"),
     ["`weights` argument should be either", "weights=/no/such/file.h5"]),
    ("classes", lambda: keras.applications.ResNet50(weights="imagenet", classes=10),
     ["`classes` should be 1000", "classes=10"]),
    ("activation", lambda: keras.applications.ResNet50(weights="imagenet", classifier_activation="relu"),
     ["Only `None` and `softmax` activations are allowed", "classifier_activation="]),
])
def test_bad_weights_arguments_raise_keras_class_and_words(key, call, words):
    assert ERRORS[key][0] == "ValueError"
    with pytest.raises(ValueError) as info:
        call()
    assert all(w in str(info.value) for w in words)
    assert all(w in ERRORS[key][1] for w in words)
