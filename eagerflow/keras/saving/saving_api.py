"""`keras.saving`'s functions: whole models (.keras files, model_saving.py) and save_weights /
load_weights.

`save_weights("w.weights.h5")` writes Keras 3's HDF5 layout (h5_weights.py, through h5py, the
optional `eagerflow[h5]`), which Keras 3 reads and writes too; `.weights.npz` (or `.weights.h5`
on a machine without h5py) is eagerflow's NumPy archive, one array per weight, read with
allow_pickle=False. `load_weights` tells the formats apart by their first bytes, so files written
before keep loading, and also reads a `.keras` archive's weights and a legacy Keras `.h5`/`.hdf5`
weights file (applications/weights_file.py's reader).
"""
from __future__ import annotations

import os

import numpy as np

from ..._src.io.atomic import atomic_file

from . import serialization

_SUFFIXES = (".weights.h5", ".weights.npz")
_LOADABLE = _SUFFIXES + (".keras", ".h5", ".hdf5")


def check_weights_path(filepath, who="save_weights"):
    if not str(filepath).endswith(_SUFFIXES):
        if who == "ModelCheckpoint":
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
                             f"end in `.weights.h5` (Keras weights format). Received: filepath={filepath}")
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath}")


def save_weights(model, filepath, overwrite=True):
    check_weights_path(filepath)
    from .h5_weights import h5py_or_none, to_h5_bytes
    if str(filepath).endswith(".weights.h5") and h5py_or_none() is not None:
        data = to_h5_bytes(model)
        with atomic_file(filepath) as f:  # under a temporary name until complete
            f.write(data)
        return
    arrays = {f"{i:05d}:{w.path if hasattr(w, 'path') else w.name}": w.numpy() for i, w in enumerate(model.weights)}
    # a file object (np.savez would append ".npz" to a path), under a temporary name until complete
    with atomic_file(filepath) as f:
        np.savez(f, **arrays)


def load_weights(model, filepath, skip_mismatch=False):
    path = os.fspath(filepath)
    if not str(path).endswith(_LOADABLE):
        check_weights_path(path, "load_weights")
    from .weights_loading import load_weights_file
    load_weights_file(model, path, skip_mismatch)


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
