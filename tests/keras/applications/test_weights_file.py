"""Weights: Keras-written HDF5 files in both layouts (Keras 2's, which the official ImageNet files
use, and Keras 3's .weights.h5), the official file found in $KERAS_HOME/models under Keras' name,
a clear error naming the file and folder when it is absent, and our own save_weights archives."""
import os
import sys
import warnings

import numpy as np
import pytest

from eagerflow import keras
from eagerflow.keras.applications import weights_file

from .oracle import HERE, ORACLE

DATA = os.path.join(HERE, "data")


def tiny_model():
    """make_oracle.py's tiny model, layer for layer."""
    inputs = keras.Input((8, 8, 3), name="image")
    x = keras.layers.Conv2D(4, 3, padding="same", name="conv")(inputs)
    x = keras.layers.BatchNormalization(name="bn")(x)
    x = keras.layers.DepthwiseConv2D(3, padding="same", name="dw")(x)
    x = keras.Sequential([keras.layers.Conv2D(6, 1, name="inner_conv"), keras.layers.LayerNormalization(name="ln")],
                         name="block")(x)
    x = keras.layers.GlobalAveragePooling2D(name="gap")(x)
    return keras.Model(inputs, keras.layers.Dense(5, name="predictions")(x), name="tiny")


@pytest.mark.parametrize("file_name", ["tiny.weights.h5", "tiny_legacy.h5"])
def test_keras_written_hdf5_files_load(file_name):
    pytest.importorskip("h5py")
    model = tiny_model()
    weights_file.load_weights(model, os.path.join(DATA, file_name))
    x = np.random.RandomState(12).uniform(-1, 1, (2, 8, 8, 3)).astype("float32")
    np.testing.assert_allclose(model(x, training=False).numpy(), ORACLE["tiny"]["output"], rtol=1e-5, atol=1e-5)


def _small_mobilenet(weights):
    keras.backend.clear_session()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 32x32 is not a pretrained size: Keras warns and names the 224 file
        return keras.applications.MobileNet(alpha=0.25, include_top=False, input_shape=(32, 32, 3), weights=weights)


def _write_keras2_layout(model, path):
    """The official files' layout: root attribute layer_names; per layer, weight_names and datasets."""
    import h5py
    with h5py.File(path, "w") as f:
        f.attrs["layer_names"] = [layer.name.encode() for layer in model.layers]
        for layer in model.layers:
            group = f.create_group(layer.name)
            names = [f"{layer.name}/{w.name}:0".encode() for w in layer.weights]
            group.attrs["weight_names"] = names
            for name, w in zip(names, layer.weights):
                group.create_dataset(name.decode(), data=w.numpy())


def test_imagenet_weights_come_from_the_keras_cache_folder(tmp_path, monkeypatch):
    pytest.importorskip("h5py")
    source = _small_mobilenet(None)
    rs = np.random.RandomState(0)
    source.set_weights([rs.uniform(0.5, 1.5, w.shape).astype("float32") for w in source.weights])
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    os.makedirs(tmp_path / "models")
    _write_keras2_layout(source, tmp_path / "models" / "mobilenet_2_5_224_tf_no_top.h5")
    loaded = _small_mobilenet("imagenet")
    for a, b in zip(loaded.get_weights(), source.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_missing_imagenet_weights_say_which_file_to_put_where(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError) as info:
        keras.applications.ResNet50(weights="imagenet", include_top=False)
    message = str(info.value)
    assert "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5" in message
    assert str(tmp_path / "models") in message
    assert ("https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
            "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5") in message


@pytest.mark.parametrize("build,file_name", [
    (lambda: keras.applications.MobileNetV2(weights="imagenet"),
     "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_1.0_224.h5"),
    (lambda: keras.applications.MobileNetV2(weights="imagenet", alpha=0.35, include_top=False,
                                            input_shape=(96, 96, 3)),
     "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_0.35_96_no_top.h5"),
    (lambda: keras.applications.MobileNetV3Small(weights="imagenet", include_top=False),
     "weights_mobilenet_v3_small_224_1.0_float_no_top_v2.h5"),
    (lambda: keras.applications.EfficientNetB0(weights="imagenet", include_top=False), "efficientnetb0_notop.h5"),
    (lambda: keras.applications.VGG16(weights="imagenet", include_top=False),
     "vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5"),
    (lambda: keras.applications.DenseNet121(weights="imagenet", include_top=False),
     "densenet121_weights_tf_dim_ordering_tf_kernels_notop.h5"),
    (lambda: keras.applications.ConvNeXtTiny(weights="imagenet", include_top=False), "convnext_tiny_notop.h5"),
    (lambda: keras.applications.ResNet50V2(weights="imagenet", include_top=False),
     "resnet50v2_weights_tf_dim_ordering_tf_kernels_notop.h5"),
])
def test_official_file_names_are_keras_names(tmp_path, monkeypatch, build, file_name):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    keras.backend.clear_session()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(FileNotFoundError, match=file_name.replace(".", r"\.")):
            build()


def test_without_h5py_the_error_names_the_extra(tmp_path, monkeypatch):
    path = tmp_path / "x.h5"
    path.write_bytes(b"\x89HDF\r\n\x1a\n" + b"\0" * 64)
    monkeypatch.setitem(sys.modules, "h5py", None)
    with pytest.raises(ImportError, match=r"needs h5py: pip install 'eagerflow\[h5\]'"):
        weights_file.load_weights(tiny_model(), path)


def test_our_own_weights_archive_loads_by_path(tmp_path):
    source = _small_mobilenet(None)
    path = str(tmp_path / "mine.weights.h5")
    source.save_weights(path)
    loaded = _small_mobilenet(path)
    for a, b in zip(loaded.get_weights(), source.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_a_file_for_another_architecture_is_refused(tmp_path):
    pytest.importorskip("h5py")
    path = str(tmp_path / "other.h5")
    _write_keras2_layout(tiny_model(), path)
    with pytest.raises(ValueError, match="Layer count mismatch when loading weights from file"):
        _small_mobilenet(path)
