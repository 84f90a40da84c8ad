"""Where the applications find weights, and how they read them. Keras keeps downloaded files in its
cache folder, `$KERAS_HOME/models` or `~/.keras/models`; eagerflow reads them from there and never
downloads: a missing file is an error that names the file, the folder and where to get it.

Official ImageNet weights are HDF5 files (Keras 2's layout: each layer a group listing its weights'
names, read here; or Keras 3's .weights.h5, read by keras/saving/weights_loading.py), read with h5py,
an optional dependency (`pip install eagerflow[h5]`). A weights path that is not HDF5 is our own
save_weights archive."""
from __future__ import annotations

import os

import numpy as np

_HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"


def keras_models_dir():
    from ..utils.file_utils import keras_home
    return os.path.join(keras_home(), "models")


def official_weights_path(file_name, origin, model_name):
    """The cached official file's path; FileNotFoundError saying where to put it when it is absent."""
    path = os.path.join(keras_models_dir(), file_name)
    if not os.path.exists(path):
        raise FileNotFoundError(
            f"The ImageNet weights of {model_name} are not in Keras' cache folder: {file_name} was not found in "
            f"{os.path.dirname(path)}. eagerflow does not download; download {origin} and save it as {path} (the "
            "folder is $KERAS_HOME/models, or ~/.keras/models when KERAS_HOME is not set), or build the model "
            "with weights=None.")
    return path


def is_hdf5(path):
    with open(path, "rb") as f:
        return f.read(8) == _HDF5_SIGNATURE


def load_weights(model, path):
    """Load an HDF5 weights file (Keras 2 or Keras 3 layout) or one of our save_weights archives."""
    path = os.fspath(path)
    if not is_hdf5(path):
        model.load_weights(path)
        return
    try:
        import h5py
    except ImportError:
        raise ImportError(f"Reading the HDF5 weights file {path} needs h5py: pip install 'eagerflow[h5]' "
                          "(or pip install h5py).") from None
    with h5py.File(path, "r") as f:
        keras2 = "layer_names" in f.attrs or "model_weights" in f
        if keras2:
            _load_keras2_layout(model, f["model_weights"] if "model_weights" in f else f, path)
    if not keras2:  # Keras 3's layout: keras/saving's reader
        from ..saving.weights_loading import load_weights_file
        load_weights_file(model, path)


def _text(value):
    return value.decode("utf8") if isinstance(value, bytes) else str(value)


def _load_keras2_layout(model, group, path):
    """Keras 2's HDF5 weights: the layers that have weights, in order, each with its weights in the
    order `weight_names` lists; paired with the model's layers that have weights, in order."""
    saved = []
    for name in (_text(n) for n in group.attrs["layer_names"]):
        layer_group = group[name]
        names = [_text(n) for n in layer_group.attrs["weight_names"]]
        if names:
            saved.append((name, [np.asarray(layer_group[n]) for n in names]))
    layers = [layer for layer in model.layers if layer.weights]
    if len(layers) != len(saved):
        raise ValueError(f"Layer count mismatch when loading weights from file {path}. Model expected "
                         f"{len(layers)} layers, found {len(saved)} saved layers.")
    for layer, (name, arrays) in zip(layers, saved):
        _set_layer(layer, arrays, name, path)


def _set_layer(layer, arrays, saved_name, path):
    expected = [tuple(w.shape) for w in layer.weights]
    got = [a.shape for a in arrays]
    if expected != got:
        raise ValueError(f"Weight shapes of layer '{layer.name}' do not match the file {path} (saved layer "
                         f"'{saved_name}'): the layer has {expected}, the file {got}.")
    layer.set_weights(arrays)
