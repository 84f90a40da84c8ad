"""`keras.saving`'s functions: whole models (.keras files, model_saving.py) and
save_weights/load_weights in a safe format: a NumPy .npz archive (loaded with
allow_pickle=False), one array per weight, keyed by the weight's position and path.

Keras 3 insists on the suffix ".weights.h5"; we accept it (so Keras programs run unchanged) and
".weights.npz", and always write the .npz format: no pickle, no HDF5 dependency.
"""
from __future__ import annotations

import numpy as np

from ..._src.io.atomic import atomic_file

from . import serialization

_SUFFIXES = (".weights.h5", ".weights.npz")


def check_weights_path(filepath, who="save_weights"):
    if not str(filepath).endswith(_SUFFIXES):
        if who == "ModelCheckpoint":
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
                             f"end in `.weights.h5` (Keras weights format). Received: filepath={filepath}")
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath}")


def save_weights(model, filepath, overwrite=True):
    check_weights_path(filepath)
    arrays = {f"{i:05d}:{w.path if hasattr(w, 'path') else w.name}": w.numpy() for i, w in enumerate(model.weights)}
    # a file object (np.savez would append ".npz" to a path), under a temporary name until complete
    with atomic_file(filepath) as f:
        np.savez(f, **arrays)


def load_weights(model, filepath):
    check_weights_path(filepath, "load_weights")
    with np.load(filepath, allow_pickle=False) as data:
        keys = sorted(data.files)
        weights = model.weights
        if len(keys) != len(weights):
            raise ValueError(f"A total of {len(keys)} objects could not be loaded: the file holds {len(keys)} weights "
                             f"and the model '{model.name}' has {len(weights)}.")
        model.set_weights([data[k] for k in keys])


def serialize_keras_object(obj):
    from .object_config import serialize_keras_object as serialize
    return serialize(obj)


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    from .object_config import deserialize_keras_object as deserialize
    return deserialize(config, custom_objects, safe_mode, **kwargs)


# model_saving.py builds models from configs (it imports layers and models, which import this
# package's serialization.py): imported when a model is saved or loaded, not with `keras.saving`.
def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    from .model_saving import save_model as _save
    return _save(model, filepath, overwrite=overwrite, zipped=zipped, **kwargs)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002 - Keras' name
    from .model_saving import load_model as _load
    return _load(filepath, custom_objects=custom_objects, compile=compile, safe_mode=safe_mode)
