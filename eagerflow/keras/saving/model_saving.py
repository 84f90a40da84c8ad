"""Whole-model saving: `model.save('m.keras')` and `keras.models.load_model('m.keras')`.

The file is Keras 3's: a zip holding config.json (the model's config and compile_config),
metadata.json and model.weights.h5 (Keras 3's HDF5 layout, h5_weights.py; Keras 3.15 and eagerflow
open each other's files). Without h5py (the optional `eagerflow[h5]`) the weights go to
model.weights.npz, NumPy arrays read back with allow_pickle=False, the format eagerflow wrote
before: such archives keep loading. Loading never executes code from the file: every class name
resolves through the shipped Keras classes, `custom_objects`, or classes registered with
`keras.saving.register_keras_serializable`. A file that is not a readable zip, or whose members
are malformed, raises ValueError naming the file (Keras raises ValueError for these too).
"""
from __future__ import annotations

import contextlib
import datetime
import io
import json
import os
import zipfile
import zlib

import numpy as np

from ..._src.io.atomic import atomic_file

from ..compile_config import compile_config, compile_from_config
from ..layers.core.lambda_layer import unsafe_deserialization
from ..layers.layer_config import set_weight_budget
from .h5_weights import WeightsFileError, h5py_or_none, load_h5_weights, load_optimizer, open_h5, to_h5_bytes
from .layer_assets import ASSETS, collect_assets, restore_assets
from .serialization import custom_object_scope, deserialize_keras_object, keras_classes, serialize_layer

CONFIG, METADATA, WEIGHTS, WEIGHTS_H5 = "config.json", "metadata.json", "model.weights.npz", "model.weights.h5"
_MAX_JSON_BYTES = 64 << 20  # a config bigger than this is not a model we wrote


def _check_save_path(filepath):
    path = os.fspath(filepath)
    if not path.endswith(".keras"):
        raise ValueError("Invalid filepath extension for saving. Please add either a `.keras` extension for the native "
                         "Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if you want "
                         f"to export a SavedModel for use with TFLite/TFServing/etc. Received: filepath={path}.")
    return path


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Writes the model's config, compile config, weights and optimizer state to a `.keras` zip (or, for a
    `.h5`/`.hdf5` path, Keras' legacy HDF5 file: legacy_h5.py)."""
    if os.fspath(filepath).endswith((".h5", ".hdf5")):
        from .legacy_h5 import save_legacy_h5
        include_optimizer = kwargs.pop("include_optimizer", True)
        return save_legacy_h5(model, os.fspath(filepath), overwrite, include_optimizer)
    path = _check_save_path(filepath)
    if not overwrite and os.path.exists(path):
        answer = input(f"[WARNING] {path} already exists - overwrite? [y/n]").strip().lower()
        if not answer.startswith("y"):
            return
    config = serialize_layer(model)
    config["compile_config"] = compile_config(model)
    if h5py_or_none() is not None:
        weights_name, weights = WEIGHTS_H5, to_h5_bytes(model)
    else:
        weights_name, weights = WEIGHTS, _npz_bytes(model)
    metadata = {"keras_version": "3.15.1", "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    # a failure or a crash mid-write never leaves a half-written model under the real name, nor a temporary
    with atomic_file(path) as fh, zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(METADATA, json.dumps(metadata))
        zf.writestr(CONFIG, json.dumps(config, default=json_default))
        zf.writestr(weights_name, weights, compress_type=zipfile.ZIP_STORED)
        for name, data in collect_assets(model).items():
            zf.writestr(name, data)


def _npz_bytes(model):
    """The weights as eagerflow's earlier model.weights.npz (kept for machines without h5py)."""
    arrays = {f"model/{i:05d}:{_path(w)}": w.numpy() for i, w in enumerate(model.weights)}
    opt = getattr(model, "optimizer", None)
    if opt is not None and getattr(opt, "built", False):
        arrays.update({f"optimizer/{i:05d}:{_path(v)}": np.asarray(v.numpy()) for i, v in enumerate(opt.variables)})
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _path(variable):
    return getattr(variable, "path", None) or variable.name


def json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable: {value!r}")


class _FileProblem(WeightsFileError):
    """A ValueError (Keras' class for unreadable model files) that names the file and the problem."""


def _bad(path, problem):
    return _FileProblem(f"Cannot load the Keras model file {path}: {problem}")


def _read_member(zf, path, name, limit):
    try:
        info = zf.getinfo(name)
    except KeyError:
        raise _bad(path, f"the archive has no {name}.") from None
    if info.file_size > limit:
        raise _bad(path, f"{name} declares {info.file_size} bytes, more than the {limit} allowed.")
    try:
        with zf.open(info) as f:
            data = f.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError, NotImplementedError, ValueError) as e:
        raise _bad(path, f"{name} is corrupted ({e}).") from None
    if len(data) != info.file_size:
        raise _bad(path, f"{name} holds {len(data)} bytes where {info.file_size} were declared.")
    return data


def _read_json(zf, path, name):
    data = _read_member(zf, path, name, _MAX_JSON_BYTES)
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise _bad(path, f"{name} is not valid JSON ({e}).") from None
    if not isinstance(value, dict):
        raise _bad(path, f"{name} must hold a JSON object.")
    return value


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002 - Keras' name
    path = os.fspath(filepath)
    if path.endswith((".h5", ".hdf5")):
        from .legacy_h5 import load_legacy_model
        return load_legacy_model(path, custom_objects, compile, safe_mode)
    if not path.endswith(".keras"):
        raise ValueError(f"File format not supported: filepath={path}. Keras 3 only supports V3 `.keras` files, legacy "
                         f"H5 format files (`.h5` extension). Note that the legacy SavedModel format is not supported "
                         f"by `load_model()` in Keras 3. In order to reload a TensorFlow SavedModel as an "
                         f"inference-only layer in Keras 3, use `keras.layers.TFSMLayer({path}, "
                         f"call_endpoint='serving_default')` (note that your `call_endpoint` might have a different "
                         f"name).")
    if not os.path.isfile(path) or not zipfile.is_zipfile(path):
        raise ValueError(f"File not found: filepath={path}. Please ensure the file is an accessible `.keras` zip file.")
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise _bad(path, f"not a readable zip archive ({e}).") from None
    with zf:
        config = _read_json(zf, path, CONFIG)
        weights_name = next((n for n in (WEIGHTS_H5, WEIGHTS) if n in zf.namelist()), None)
        if weights_name is None:
            raise _bad(path, f"the archive has no {WEIGHTS_H5} (nor eagerflow's earlier {WEIGHTS}).")
        weights = _read_weights_member(zf, path, weights_name)
        asset_names = [n for n in zf.namelist() if n.startswith(ASSETS)]
        assets = {n: _read_member(zf, path, n, _MAX_JSON_BYTES) for n in asset_names}
    if weights_name == WEIGHTS_H5:
        arrays = open_h5(weights, lambda problem: _bad(path, f"{WEIGHTS_H5}: {problem}"))
        stored_bytes = len(weights)
    else:
        arrays = _open_weights(path, weights)
        stored_bytes = arrays.stored_bytes
    with arrays if weights_name == WEIGHTS_H5 else contextlib.nullcontext():
        return _build_and_fill(path, config, arrays, stored_bytes, assets, asset_names, custom_objects, compile,
                               safe_mode)


def _read_weights_member(zf, path, name):
    info = zf.getinfo(name)
    if info.compress_type != zipfile.ZIP_STORED and info.file_size > 100 * info.compress_size + (1 << 20):
        raise _bad(path, f"{name} declares {info.file_size} bytes from {info.compress_size} compressed: "
                         f"refusing a likely decompression bomb.")
    return _read_member(zf, path, name, info.file_size)


def _build_and_fill(path, config, arrays, stored_bytes, assets, asset_names, custom_objects, compile, safe_mode):  # noqa: A002
    """The model the config describes, given the stored weights, assets, compile config and optimizer state."""
    model = build_model(path, config, stored_bytes, custom_objects, safe_mode)
    return _fill(path, model, config, arrays, assets, asset_names, custom_objects, compile)


def build_model(path, config, stored_bytes, custom_objects, safe_mode):
    """The model `config` describes, built without executing anything from the file and without asking for
    more weight memory than the file's `stored_bytes`; a config that does not build is ValueError naming it."""
    set_weight_budget(stored_bytes + (1 << 20))  # the model may not ask for more than the file holds
    try:
        with unsafe_deserialization(not safe_mode), custom_object_scope(custom_objects or {}):  # Lambda's functions
            model = deserialize_keras_object(config, keras_classes(), custom_objects, "model")
    except TypeError as e:
        if str(e).startswith(("Could not locate class", "Could not locate function")):
            raise  # Keras' own error for an unknown class or function
        raise _bad(path, f"{_config_name(path)} does not describe a model this version can build "
                         f"(TypeError: {e}).") from None
    except NotImplementedError:
        raise
    except (KeyError, ValueError, AttributeError, IndexError, MemoryError, OverflowError, RecursionError) as e:
        if isinstance(e, ValueError) and str(e).startswith(("Requested the deserialization of a `Lambda`",
                                                            "Requested the loading of a vocabulary file")):
            raise  # safe_mode refused a Python lambda or a vocabulary file: Keras' own error
        raise _bad(path, f"{_config_name(path)} does not describe a model this version can build "
                         f"({type(e).__name__}: {e}).") from None
    finally:
        set_weight_budget(None)
    return model


def _fill(path, model, config, arrays, assets, asset_names, custom_objects, compile):  # noqa: A002
    h5 = not isinstance(arrays, _Arrays)
    fail = (lambda problem: _bad(path, f"{WEIGHTS_H5}: {problem}"))
    if h5:
        for folder, idf in load_h5_weights(model, arrays, fail, skip_optimizer=True).items():
            member = f"{ASSETS}{folder}/idf_weights.txt"
            if member not in assets:  # Keras keeps a tf-idf lookup's weights in the HDF5 file
                assets[member] = idf
                asset_names.append(member)
    else:
        _assign(path, "model", model.weights, arrays)
    restore_assets(model, assets.__getitem__, asset_names)
    compile_cfg = config.get("compile_config") or {}
    if compile and compile_cfg:
        try:
            compile_from_config(model, compile_cfg, custom_objects)
        except TypeError as e:
            if str(e).startswith("Could not locate class"):
                raise
            raise _bad(path, f"its compile_config cannot be used (TypeError: {e}).") from None
        except (KeyError, ValueError, AttributeError, IndexError, OverflowError) as e:
            raise _bad(path, f"its compile_config cannot be used ({type(e).__name__}: {e}).") from None
        if h5:
            load_optimizer(arrays, model.optimizer, fail, build_for=model.trainable_variables)
        elif not h5 and arrays.names("optimizer"):
            model.optimizer.build(model.trainable_variables)
            _assign(path, "optimizer", model.optimizer.variables, arrays)
    return model


def _config_name(path):
    return CONFIG if path.endswith(".keras") else "its model_config"


class _Arrays:
    """The npz members, read one at a time after their header was checked against the expected shape."""

    def __init__(self, path, zf):
        self.path, self.zf = path, zf
        self.stored_bytes = sum(info.file_size for info in zf.infolist())
        self.members = {}
        for name in zf.namelist():
            if not name.endswith(".npy") or "/" not in name:
                raise _bad(path, f"{WEIGHTS} holds an unexpected member {name!r}.")
            self.members[name[:-4]] = name

    def names(self, group):
        return sorted(k for k in self.members if k.startswith(group + "/"))

    def read(self, key, shape, dtype):
        member = self.members[key]
        try:
            with self.zf.open(member) as f:
                version = np.lib.format.read_magic(f)
                header = np.lib.format.read_array_header_1_0(f) if version == (1, 0) else \
                    np.lib.format.read_array_header_2_0(f)
                got_shape, fortran, got_dtype = header
                if tuple(got_shape) != tuple(shape) or got_dtype != np.dtype(dtype) or fortran:
                    raise _bad(self.path, f"weight {key.split(':', 1)[-1]!r} has shape {tuple(got_shape)} and dtype "
                                          f"{got_dtype}; the model expects {tuple(shape)} and {np.dtype(dtype)}.")
                count = int(np.prod(shape, dtype=np.int64))
                data = f.read(count * np.dtype(dtype).itemsize)
        except _FileProblem:
            raise
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError, ValueError, TypeError,
                SyntaxError) as e:
            raise _bad(self.path, f"weight member {member} is corrupted ({type(e).__name__}: {e}).") from None
        if len(data) != count * np.dtype(dtype).itemsize:
            raise _bad(self.path, f"weight member {member} is truncated.")
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


def _open_weights(path, data):
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise _bad(path, f"{WEIGHTS} is not a NumPy .npz archive ({e}).") from None
    return _Arrays(path, zf)


def _assign(path, group, variables, arrays):
    keys = arrays.names(group)
    if len(keys) != len(variables):
        raise _bad(path, f"it holds {len(keys)} {group} variables and the rebuilt {group} has {len(variables)}.")
    values = [arrays.read(k, tuple(v.shape.as_list()), v.dtype.np_dtype) for k, v in zip(keys, variables)]
    for v, value in zip(variables, values):
        v.assign(value)
