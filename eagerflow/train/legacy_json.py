"""Reading checkpoints in eagerflow's earlier format, so that no checkpoint saved before is lost.

That format (no longer written) is `<prefix>.json`, naming `.npy` tensor files kept in a folder beside it, keyed
by the object path of a sorted-attribute walk: `tf.train.Checkpoint(model=m)` saved `m.dense.w` as
`model/dense/w`. Files are read through saved_model/files.py's checks, so a damaged one is a DataLossError
naming the file. Its `checkpoint` state file was JSON too (`STATE_NAME`).
"""
from __future__ import annotations

import inspect
import os

import numpy as np

from .._src.state.variables import Variable
from .._src.trace.function import ConcreteFunction, Function
from ..saved_model.files import data_loss, read_json, read_tensor
from ..saved_model.load import RestoredFunction, check_version

FORMAT_NAME = "eagerflow.checkpoint"
STATE_NAME = "eagerflow.checkpoint_state"
_SCALARS = (bool, int, float, complex, str, bytes, type(None), np.ndarray, np.generic)
_FUNCTIONS = (Function, ConcreteFunction, RestoredFunction)


def document_path(prefix) -> str:
    return f"{os.path.abspath(os.fspath(prefix))}.json"


def exists(prefix) -> bool:
    return os.path.isfile(document_path(prefix))


def variables_by_path(objects: dict) -> dict:
    """{object path: Variable} below `objects` as the earlier format keyed them: each variable once (its first
    path, attributes in sorted order)."""
    found, seen = {}, set()

    def walk(value, path):
        if id(value) in seen:
            return
        if isinstance(value, Variable):
            seen.add(id(value))
            found[path] = value
            return
        if isinstance(value, _SCALARS + _FUNCTIONS) or callable(value) and not hasattr(value, "__dict__") \
                or isinstance(value, type) or inspect.isroutine(value):
            return
        seen.add(id(value))
        if isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                walk(v, f"{path}/{i}")
        elif isinstance(value, dict):
            for k in sorted(value, key=str):
                walk(value[k], f"{path}/{k}")
        elif hasattr(value, "_objects") and hasattr(value, "_save_counter"):  # a tf.train.Checkpoint
            for k in sorted(value._objects):
                walk(value._objects[k], f"{path}/{k}")
        elif hasattr(value, "__dict__"):
            for k in sorted(vars(value)):
                walk(vars(value)[k], f"{path}/{k}")

    for name in sorted(objects):
        walk(objects[name], name)
    return found


def read_checkpoint(prefix) -> dict:
    """{object path: ndarray} of the earlier-format checkpoint at `prefix`."""
    path = document_path(prefix)
    document = read_json(path, "checkpoint")
    if set(document) != {"format", "format_version", "variables"}:
        raise data_loss(path, "the document must have exactly the keys format, format_version, variables")
    check_version(path, document, FORMAT_NAME)
    entries = document["variables"]
    if not (isinstance(entries, list) and all(isinstance(e, list) and len(e) == 2 and isinstance(e[0], str)
                                              for e in entries)):
        raise data_loss(path, "variables must be a list of [object path, tensor reference]")
    directory = os.path.dirname(path)
    values = {}
    for i, (key, ref) in enumerate(entries):
        if key in values:
            raise data_loss(path, f"object path {key[:80]!r} appears twice")
        values[key] = read_tensor(directory, ref, f"{path}: variable {i} ({key[:80]})")
    return values


def read_state(path):
    """(latest, all paths) of an earlier-format JSON state file, or DataLossError."""
    document = read_json(path, "checkpoint state")
    paths = document.get("all_model_checkpoint_paths")
    latest = document.get("model_checkpoint_path")
    if document.get("format") != STATE_NAME or not isinstance(paths, list) \
            or not all(isinstance(p, str) for p in paths) or not (latest is None or isinstance(latest, str)):
        raise data_loss(path, "not an eagerflow checkpoint state file")
    return latest, paths
