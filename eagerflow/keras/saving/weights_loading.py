"""`model.load_weights(path)`: the weights of a file, whichever of the formats a Keras program meets.

The file's first bytes say which it is, not its name: HDF5 in Keras 3's layout (`.weights.h5`,
h5_weights.py) or Keras 2's (a legacy `.h5`, legacy_h5.py), a `.keras`
archive (its model.weights.h5 or eagerflow's earlier model.weights.npz), or eagerflow's NumPy
archive of weights in order (`.weights.npz`, and `.weights.h5` written where h5py was missing).
Every problem is a ValueError naming the file; a missing file is FileNotFoundError.
"""
from __future__ import annotations

import os
import zipfile

import numpy as np

from .h5_weights import H5_ERRORS, HDF5_SIGNATURE, WeightsFileError, load_h5_weights, open_h5
from .legacy_h5 import load_legacy_weights

_ZIP_SIGNATURE = b"PK\x03\x04"


class _WeightsProblem(WeightsFileError):
    pass


def _failure(path):
    return lambda problem: _WeightsProblem(f"Cannot load the weights file {path}: {problem}")


def load_weights_file(model, path, skip_mismatch=False):
    if not os.path.isfile(path):
        raise FileNotFoundError(f"Unable to open the weights file {path}: no such file.")
    with open(path, "rb") as f:
        head = f.read(8)
    fail = _failure(path)
    if head == HDF5_SIGNATURE:
        with open_h5(path, fail) as h5:
            try:
                keras2 = "layer_names" in h5.attrs or "model_weights" in h5
            except H5_ERRORS as e:
                raise fail(f"its HDF5 structure is corrupted ({type(e).__name__}: {e}).") from None
            if keras2:
                load_legacy_weights(model, h5, fail, skip_mismatch)
            else:
                load_h5_weights(model, h5, fail, skip_mismatch=skip_mismatch)
    elif head.startswith(_ZIP_SIGNATURE) and path.endswith(".keras"):
        _load_from_archive(model, path, fail, skip_mismatch)
    elif head.startswith(_ZIP_SIGNATURE):
        _load_npz(model, path, fail)
    else:
        raise fail("it is neither an HDF5 weights file, a .keras archive nor eagerflow's .weights.npz.")


def _load_from_archive(model, path, fail, skip_mismatch=False):
    from .model_saving import WEIGHTS, WEIGHTS_H5, _open_weights, _read_weights_member
    try:
        with zipfile.ZipFile(path) as zf:
            name = next((n for n in (WEIGHTS_H5, WEIGHTS) if n in zf.namelist()), None)
            if name is None:
                raise fail(f"the archive has no {WEIGHTS_H5}.")
            data = _read_weights_member(zf, path, name)
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise fail(f"not a readable zip archive ({e}).") from None
    if name == WEIGHTS_H5:
        with open_h5(data, fail) as h5:
            load_h5_weights(model, h5, fail, skip_mismatch=skip_mismatch)
        return
    arrays = _open_weights(path, data)
    weights = model.weights
    keys = arrays.names("model")
    if len(keys) != len(weights):
        raise fail(f"it holds {len(keys)} weights and the model '{model.name}' has {len(weights)}.")
    model.set_weights([arrays.read(k, tuple(w.shape.as_list()), w.dtype.np_dtype) for k, w in zip(keys, weights)])


def _load_npz(model, path, fail):
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise fail(f"not a readable NumPy archive ({type(e).__name__}: {e}).") from None
    with data:
        keys = sorted(data.files)
        weights = model.weights
        if len(keys) != len(weights):
            raise ValueError(f"A total of {len(keys)} objects could not be loaded: the file holds {len(keys)} weights "
                             f"and the model '{model.name}' has {len(weights)}.")
        try:
            values = [data[k] for k in keys]
        except (OSError, ValueError, zipfile.BadZipFile, EOFError, KeyError) as e:
            raise fail(f"a weight cannot be read ({type(e).__name__}: {e}).") from None
        for key, value, weight in zip(keys, values, weights):
            if tuple(value.shape) != tuple(weight.shape.as_list()):
                raise fail(f"weight {key!r} has shape {tuple(value.shape)}; the model's "
                           f"{getattr(weight, 'path', weight.name)!r} expects {tuple(weight.shape.as_list())}.")
        model.set_weights(values)
