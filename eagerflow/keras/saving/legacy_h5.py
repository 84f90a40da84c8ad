"""Keras' legacy HDF5 model file: `model.save("m.h5")` and `keras.models.load_model("m.h5")`, as Keras 3.15
still writes and reads it (and tf.keras 2 wrote it), through h5py (the optional `eagerflow[h5]`).

The file's root attributes hold `model_config` (the model's class name and config as JSON), `training_config`
(the compile arguments, the optimizer as `optimizer_config`; only for a compiled model), `keras_version` and
`backend`. `model_weights/` lists `layer_names`; each layer's group lists its `weight_names` (the variables' paths,
trainable ones first) and holds each value at that path; `top_level_model_weights` the model's own. The optimizer's
variables lie under `optimizer_weights/` by their paths, listed in its `weight_names`. Long name lists are split
over `name0`, `name1`, ... attributes (an HDF5 object header holds 64 KB).

Weights are matched to the model's layers that have weights, in order (not by name), as Keras does. Reading
trusts nothing: the config builds through the same classes as a `.keras` file (never code from the file), every
value is a plain dataset of this file, checked against its variable's shape before a byte is read, and all are
checked before any is assigned. Problems are ValueError naming the file, with Keras' words.
"""
from __future__ import annotations

import io
import json
import logging
import os
import warnings

import numpy as np

from ..._src.io.atomic import atomic_file
from .h5_weights import H5_ERRORS, WeightsFileError, require_h5py, stored_in_file

_HEADER_LIMIT = 64512  # the bytes one HDF5 attribute may take in an object header
_MAX_CONFIG_BYTES = 64 << 20
_LEGACY_WARNING = ("You are saving your model as an HDF5 file via `model.save()` or `keras.saving.save_model(model)`. "
                   "This file format is considered legacy. We recommend using instead the native Keras format, e.g. "
                   "`model.save('my_model.keras')` or `keras.saving.save_model(model, 'my_model.keras')`. ")


class LegacyH5Error(WeightsFileError):
    """A legacy .h5 file that cannot be read or does not fit the model; the message names the file."""


def _failure(path):
    return lambda problem: LegacyH5Error(f"Cannot load the legacy HDF5 file {path}: {problem}")


def legacy_weights(layer) -> list:
    """A layer's variables in the legacy file's order: trainable ones, then the others."""
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


# --- writing ---
def _set_names(group, name, names) -> None:
    data = np.asarray([n.encode("utf8") for n in names]) if names else np.asarray([])
    chunks = 1
    while any(part.nbytes > _HEADER_LIMIT for part in np.array_split(data, chunks)):
        chunks += 1
    if chunks == 1:
        group.attrs[name] = data
    else:
        for i, part in enumerate(np.array_split(data, chunks)):
            group.attrs[f"{name}{i}"] = part


def _write_values(group, variables) -> None:
    _set_names(group, "weight_names", [v.path for v in variables])
    for variable in variables:
        group.create_dataset(variable.path, data=np.asarray(variable.numpy()))


def _model_config(model) -> dict:
    from .serialization import serialize_layer

    config = serialize_layer(model)
    return {"class_name": config["class_name"], "config": config["config"]}


def _training_config(model):
    from ..compile_config import compile_config

    config = compile_config(model)
    if not config:
        return None
    optimizer = config.pop("optimizer")
    config["optimizer_config"] = {"class_name": optimizer["class_name"], "config": optimizer["config"]}
    return config


def save_legacy_h5(model, path, overwrite=True, include_optimizer=True) -> None:
    """Write `model` (config, weights, compile arguments and optimizer state) as a legacy .h5 file."""
    from .model_saving import json_default

    h5py = require_h5py(path)
    if not overwrite and os.path.isfile(path):
        answer = input(f"[WARNING] {path} already exists - overwrite? [y/n]").strip().lower()
        if not answer.startswith("y"):
            return
    logging.getLogger("absl").warning(_LEGACY_WARNING)
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        f.attrs["keras_version"] = "3.15.1"
        f.attrs["backend"] = "tensorflow"
        f.attrs["model_config"] = json.dumps(_model_config(model), default=json_default).encode("utf8")
        training = _training_config(model) if include_optimizer else None
        if training is not None:
            f.attrs["training_config"] = json.dumps(training, default=json_default).encode("utf8")
        weights = f.create_group("model_weights")
        _set_names(weights, "layer_names", [layer.name for layer in model.layers])
        weights.attrs["backend"] = b"tensorflow"
        weights.attrs["keras_version"] = b"3.15.1"
        for layer in sorted(model.layers, key=lambda layer: layer.name):
            _write_values(weights.create_group(layer.name), legacy_weights(layer))
        _write_values(weights.create_group("top_level_model_weights"), _top_level(model))
        optimizer = getattr(model, "optimizer", None)
        if include_optimizer and optimizer is not None and list(optimizer.variables):
            _write_values(f.create_group("optimizer_weights"), list(optimizer.variables))
    with atomic_file(path) as fh:  # under a temporary name until complete
        fh.write(buffer.getvalue())


def _top_level(model) -> list:
    """The model's variables that belong to none of its layers."""
    inner = {id(v) for layer in model.layers for v in layer.weights}
    return [v for v in model.weights if id(v) not in inner]


# --- reading ---
def _names(group, name, fail) -> list:
    """An attribute's list of names, joined from `name0`, `name1`, ... when it was split."""
    if name in group.attrs:
        parts = [group.attrs[name]]
    else:
        parts, i = [], 0
        while f"{name}{i}" in group.attrs:
            parts.append(group.attrs[f"{name}{i}"])
            i += 1
    out = []
    for part in parts:
        for item in np.atleast_1d(np.asarray(part)).tolist():
            if isinstance(item, bytes):
                item = item.decode("utf8", "replace")
            if not isinstance(item, str):
                raise fail(f"{group.name} has a {name} attribute that is not a list of names.")
            out.append(item)
    return out


def _stored_values(h5py, group, variables, fail, where, skip_mismatch, counted):
    """[(variable, array)] of a group's listed values for `variables`, each checked against its variable's
    shape before it is read; a value of another shape fails, or with `skip_mismatch` is left out with Keras'
    warning."""
    names = _names(group, "weight_names", fail)
    if len(names) != len(variables):
        raise fail(counted(len(variables), len(names)))
    out = []
    for name, variable in zip(names, variables):
        link = group.get(name, getlink=True)
        dataset = group[name] if isinstance(link, h5py.HardLink) else None
        if dataset is None or not stored_in_file(h5py, dataset):
            raise fail(f"{group.name}/{name} is missing, a link, or not a dataset stored in the file.")
        if dataset.dtype.kind not in "biuf":
            raise fail(f"{group.name}/{name} holds {dataset.dtype} values, not numbers.")
        expected, received = tuple(variable.shape.as_list()), tuple(dataset.shape)
        if expected != received:
            text = (f"{where}due to mismatch in shape for weight {variable.path}. Weight expects shape {expected}. "
                    f"Received saved weight with shape {received}")
            if skip_mismatch:
                warnings.warn(f"Skipping loading weights for {text}", stacklevel=4)
                continue
            raise fail(f"Shape mismatch in {text.replace('due to mismatch in shape for ', 'for ')}")
        value = np.empty(expected, dataset.dtype)
        if value.size:
            dataset.read_direct(value)
        out.append((variable, value.astype(variable.dtype.np_dtype, copy=False)))
    return out


def read_model_weights(group, model, fail, skip_mismatch=False):
    """[(variable, value)] for the model's layers from a legacy `model_weights` group (or a weights file's
    root), matched in order to the layers that have weights; nothing is assigned here."""
    import h5py

    layers = [layer for layer in model.layers if legacy_weights(layer)]
    saved = []
    for name in _names(group, "layer_names", fail):
        layer_group = group.get(name)
        if not isinstance(layer_group, h5py.Group):
            raise fail(f"it lists layer {name!r} and has no group for it.")
        if _names(layer_group, "weight_names", fail):
            saved.append((name, layer_group))
    if len(saved) != len(layers):
        raise fail(f"Layer count mismatch when loading weights from file. Model expected {len(layers)} layers, "
                   f"found {len(saved)} saved layers.")
    updates = []
    for k, (layer, (name, layer_group)) in enumerate(zip(layers, saved)):
        def counted(expects, received, k=k, layer=layer, name=name):
            return (f"Weight count mismatch for layer #{k} (named {layer.name} in the current model, {name} in the "
                    f"save file). Layer expects {expects} weight(s). Received {received} saved weight(s)")
        updates += _stored_values(h5py, layer_group, legacy_weights(layer), fail, f"layer #{k} (named {layer.name})",
                                  skip_mismatch, counted)
    top = group.get("top_level_model_weights")
    if isinstance(top, h5py.Group):
        def counted_top(expects, received):
            return (f"Weight count mismatch for top-level weights when loading weights from file. Model expects "
                    f"{expects} top-level weight(s). Received {received} saved top-level weight(s)")
        updates += _stored_values(h5py, top, _top_level(model), fail, "top-level model", skip_mismatch, counted_top)
    return updates


def load_legacy_weights(model, f, fail, skip_mismatch=False) -> None:
    """`model.load_weights("w.h5")` of a legacy file open as `f` (tf.keras 2's save_weights, or a whole model
    saved to .h5 by tf.keras 2 or Keras 3)."""
    updates = _guarded(lambda: read_model_weights(f["model_weights"] if "model_weights" in f else f, model, fail,
                                                  skip_mismatch), fail)
    for variable, value in updates:
        variable.assign(value)


def _open(path, fail):
    h5py = require_h5py(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"Unable to open the legacy HDF5 file {path}: no such file.")
    try:
        return h5py.File(path, "r")
    except H5_ERRORS as e:
        raise fail(f"it is not a readable HDF5 file ({type(e).__name__}: {e}).") from None


def _guarded(read, fail):
    try:
        return read()
    except WeightsFileError:
        raise
    except H5_ERRORS as e:
        raise fail(f"its HDF5 structure is corrupted ({type(e).__name__}: {e}).") from None


def _json_attr(f, name, fail):
    value = f.attrs.get(name)
    if value is None:
        return None
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if isinstance(value, bytes):
        value = value.decode("utf8", "replace")
    if not isinstance(value, str) or len(value) > _MAX_CONFIG_BYTES:
        raise fail(f"its {name} attribute is not JSON text.")
    try:
        config = json.loads(value)
    except (ValueError, RecursionError) as e:
        raise fail(f"its {name} attribute is not valid JSON ({e}).") from None
    if not isinstance(config, dict):
        raise fail(f"its {name} attribute must hold a JSON object.")
    return config


def load_legacy_model(path, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002 - Keras' name
    """The model a legacy .h5 file holds, with its weights; compiled with its optimizer state when the file has
    a training config and `compile` is true."""
    from .model_saving import build_model

    fail = _failure(path)
    with _open(path, fail) as f:
        config = _guarded(lambda: _json_attr(f, "model_config", fail), fail)
        if config is None:
            raise ValueError(f"No model config found in the file at {path}.")
        training = _guarded(lambda: _json_attr(f, "training_config", fail), fail)
        model = build_model(path, config, os.path.getsize(path), custom_objects, safe_mode)
        weights = _guarded(lambda: f.get("model_weights"), fail)
        if weights is None:
            raise fail("it has no model_weights group.")
        for variable, value in _guarded(lambda: read_model_weights(weights, model, fail), fail):
            variable.assign(value)
        if not compile:
            return model
        if training is None:
            logging.getLogger("absl").warning("No training configuration found in the save file, so the model was "
                                              "*not* compiled. Compile it manually.")
            return model
        _compile(model, training, custom_objects, fail)
        if "optimizer_weights" in f:
            _guarded(lambda: _restore_optimizer(f["optimizer_weights"], model, fail), fail)
    return model


def _compile(model, training, custom_objects, fail) -> None:
    from ..compile_config import compile_from_config

    config = {key: training.get(key) for key in ("loss", "loss_weights", "metrics", "weighted_metrics",
                                                 "run_eagerly", "jit_compile")}
    optimizer = training.get("optimizer_config") or "rmsprop"
    if isinstance(optimizer, dict) and isinstance(optimizer.get("config"), dict) and "decay" in optimizer["config"]:
        # tf.keras 2's optimizers had `decay`; Keras 3 ignores it with this warning
        optimizer = {**optimizer, "config": {k: v for k, v in optimizer["config"].items() if k != "decay"}}
        warnings.warn("Argument `decay` is no longer supported and will be ignored.", stacklevel=3)
    config["optimizer"] = optimizer
    try:
        compile_from_config(model, config, custom_objects)
    except TypeError as e:
        if str(e).startswith("Could not locate class"):
            raise
        raise fail(f"its training_config cannot be used (TypeError: {e}).") from None
    except (KeyError, ValueError, AttributeError, IndexError, OverflowError) as e:
        raise fail(f"its training_config cannot be used ({type(e).__name__}: {e}).") from None


def _restore_optimizer(group, model, fail) -> None:
    """The saved optimizer state, when it fits the rebuilt optimizer; otherwise Keras' warning and a fresh one."""
    import h5py

    optimizer = model.optimizer
    optimizer.build(model.trainable_variables)
    variables = list(optimizer.variables)
    names = _names(group, "weight_names", fail)
    shapes = [tuple(group[n].shape) if isinstance(group.get(n, getlink=True), h5py.HardLink) else None
              for n in names]
    if shapes != [tuple(v.shape.as_list()) for v in variables]:
        logging.getLogger("absl").warning("Error in loading the saved optimizer state. As a result, your model is "
                                          "starting with a freshly initialized optimizer.")
        return
    for variable, value in _stored_values(h5py, group, variables, fail, "optimizer", False, None):
        variable.assign(value)
