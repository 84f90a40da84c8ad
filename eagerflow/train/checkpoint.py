"""`tf.train.Checkpoint` and `tf.train.CheckpointManager`: variables saved and restored by object path.

A checkpoint holds variable values only (no graphs), keyed by the attribute path from the
Checkpoint's keyword arguments: `tf.train.Checkpoint(model=m, step=s)` saves `m.dense.w` as
`model/dense/w` and `s` as `step`. Files (docs/savedmodel-format.md, "Checkpoints"):
`<prefix>.json` and `<prefix>.tensors/<n>.npy`, with the SavedModel's tensor references and checks,
so a corrupted checkpoint is a DataLossError naming the file. `save` numbers its prefixes as
TensorFlow does (`ckpt-1`, `ckpt-2`, ...) and records them in a `checkpoint` file in the directory,
which `tf.train.latest_checkpoint` and `CheckpointManager` read.
"""
from __future__ import annotations

import inspect
import os
import secrets
import shutil

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.errors import DataLossError, NotFoundError
from .._src.io.atomic import atomic_directory
from ..saved_model.files import data_loss, read_json, read_tensor, write_json, write_tensor
from ..saved_model.load import RestoredFunction, check_version
from .._src.trace.function import ConcreteFunction, Function
from .._src.state.variables import Variable

FORMAT_NAME = "eagerflow.checkpoint"
STATE_NAME = "eagerflow.checkpoint_state"
FORMAT_VERSION = (1, 0)
STATE_FILE = "checkpoint"
_SCALARS = (bool, int, float, complex, str, bytes, type(None), np.ndarray, np.generic)
_FUNCTIONS = (Function, ConcreteFunction, RestoredFunction)


def _trackable(value) -> bool:
    """What TensorFlow calls trackable, here: a Variable, a Checkpoint, a container of them, or an
    object with attributes (a tf.Module, a restored object, a model, an optimizer)."""
    if isinstance(value, _SCALARS) or isinstance(value, type) or inspect.isroutine(value):
        return False
    return isinstance(value, (Variable, Checkpoint, list, tuple, dict)) or hasattr(value, "__dict__")


def variables_by_path(objects: dict) -> dict:
    """{object path: Variable} below `objects`, each variable once (its first path, attributes in
    sorted order, as tf.Module orders them)."""
    found, seen = {}, set()

    def walk(value, path):
        if id(value) in seen:
            return
        if isinstance(value, Variable):
            seen.add(id(value))
            found[path] = value
            return
        if isinstance(value, _SCALARS + _FUNCTIONS) or callable(value) and not hasattr(value, "__dict__"):
            return  # functions hold graphs, not state of their own: their variables belong to objects
        seen.add(id(value))
        if isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                walk(v, f"{path}/{i}")
        elif isinstance(value, dict):
            for k in sorted(value, key=str):
                walk(value[k], f"{path}/{k}")
        elif isinstance(value, Checkpoint):
            for k in sorted(value._objects):
                walk(value._objects[k], f"{path}/{k}")
        elif hasattr(value, "__dict__") and not isinstance(value, type):
            for k in sorted(vars(value)):
                walk(vars(value)[k], f"{path}/{k}")

    for name in sorted(objects):
        walk(objects[name], name)
    return found


class CheckpointLoadStatus:
    """What `restore`/`read` matched: TensorFlow's assertions on it."""

    def __init__(self, path, unmatched_in_checkpoint, unmatched_objects):
        self._path = path
        self._unused = unmatched_in_checkpoint
        self._missing = unmatched_objects

    def assert_consumed(self):
        if self._unused:
            raise AssertionError(f"Unresolved object in checkpoint (root).{self._unused[0].replace('/', '.')}: "
                                 f"a saved value nothing in this Checkpoint's objects took.")
        return self.assert_existing_objects_matched()

    def assert_existing_objects_matched(self):
        if self._missing:
            raise AssertionError(f"Some Python objects were not bound to checkpointed values: "
                                 f"{', '.join(self._missing)} (checkpoint {self._path}).")
        return self

    def assert_nontrivial_match(self):
        return self

    def expect_partial(self):
        return self


class InitializationOnlyStatus(CheckpointLoadStatus):
    """`restore(None)`: nothing was read."""

    def __init__(self):
        super().__init__(None, [], [])


class Checkpoint:
    """`tf.train.Checkpoint(**objects)`: `save`/`restore` numbered checkpoints, `write`/`read` one."""

    def __init__(self, root=None, **kwargs):
        objects = dict(kwargs)
        if root is not None:
            objects["root"] = root
        for name, value in objects.items():
            if not _trackable(value):
                raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an object derived "
                                 f"from `Trackable`), got {value}. If you believe this object should be trackable "
                                 f"(i.e. it is part of the TensorFlow Python API and manages state), please open "
                                 f"an issue.")
        self._objects = objects
        self._save_counter = None

    def __getattr__(self, name):
        objects = self.__dict__.get("_objects", {})
        if name in objects:
            return objects[name]
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    @property
    def save_counter(self):
        """How many times `save` ran (a non-trainable int64 Variable, saved with the checkpoint)."""
        if self._save_counter is None:
            self._save_counter = Variable(np.int64(0), trainable=False, name="save_counter", dtype=_dt.int64)
        return self._save_counter

    def _variables(self):
        found = variables_by_path(self._objects)
        if self._save_counter is not None:
            found.setdefault("save_counter", self._save_counter)
        return found

    # --- writing ---
    def write(self, file_prefix, options=None):
        """Writes the variables to `file_prefix` (no numbering); returns `file_prefix`.

        Atomic (io/atomic.py): the tensors go into a folder of their own, named afresh for this write, and
        the `.json` document naming them replaces the previous one in one rename, last; only then is the
        previous write's folder removed. A write that fails leaves the previous checkpoint as it was."""
        file_prefix = os.fspath(file_prefix)
        document_path = f"{os.path.abspath(file_prefix)}.json"
        directory, base = os.path.split(os.path.abspath(file_prefix))
        os.makedirs(directory, exist_ok=True)
        previous = _tensor_folders(document_path)
        folder = f"{base}.tensors-{secrets.token_hex(4)}"
        with atomic_directory(os.path.join(directory, folder)) as building:
            entries = []
            for i, (path, var) in enumerate(self._variables().items()):
                ref = write_tensor(building, f"{i}.npy", np.asarray(var._array))
                ref["file"] = f"{folder}/{ref['file']}"
                entries.append([path, ref])
        try:
            write_json(document_path, {"format": FORMAT_NAME, "format_version": list(FORMAT_VERSION),
                                       "variables": entries})
        except BaseException:
            shutil.rmtree(os.path.join(directory, folder), ignore_errors=True)
            raise
        for old in previous - {folder}:
            shutil.rmtree(os.path.join(directory, old), ignore_errors=True)
        return file_prefix

    def save(self, file_prefix, options=None):
        """Writes `<file_prefix>-<n>` with n the save count, records it in the directory's
        `checkpoint` file, and returns that path."""
        counter = self.save_counter
        counter.assign_add(np.int64(1))
        path = f"{os.fspath(file_prefix)}-{int(counter.numpy())}"
        self.write(path)
        directory = os.path.dirname(os.path.abspath(path))
        state = _read_state(directory) or {"latest": None, "all": []}
        kept = [p for p in state["all"] if p != path] + [path]
        _write_state(directory, path, kept)
        return path

    # --- reading ---
    def read(self, save_path, options=None):
        """Restores the variables from `save_path` (a prefix `write` or `save` returned)."""
        return self._restore(os.fspath(save_path), f"Unsuccessful TensorSliceReader constructor: Failed to find "
                                                  f"any matching files for {os.fspath(save_path)}")

    def restore(self, save_path, options=None):
        """`read`, or nothing for `None` (TensorFlow: restore on creation with an empty manager)."""
        if save_path is None:
            return InitializationOnlyStatus()
        save_path = os.fspath(save_path)
        return self._restore(save_path, (
            f"Error when restoring from checkpoint or SavedModel at {save_path}: Unsuccessful TensorSliceReader "
            f"constructor: Failed to find any matching files for {save_path}\nPlease double-check that the path is "
            f"correct. You may be missing the checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1')."))

    def _restore(self, save_path, missing_message):
        document_path = f"{os.path.abspath(save_path)}.json"
        if not os.path.isfile(document_path):
            raise NotFoundError(None, None, missing_message)
        values = _read_checkpoint(document_path)
        if "save_counter" in values:
            self.save_counter  # noqa: B018 - created so the saved count is restored into it
        targets = self._variables()
        for path, var in targets.items():
            if path in values:
                value = values[path]
                if not var.shape.is_compatible_with(value.shape) or _dt.from_numpy(value.dtype) is not var.dtype:
                    raise ValueError(f"Received incompatible tensor with shape {tuple(value.shape)} when attempting "
                                     f"to restore variable with shape {tuple(var.shape.as_list())} and name "
                                     f"{var.name}.")
        for path, var in targets.items():  # all checked first: a failed restore changes nothing
            if path in values:
                var.assign(values[path])
        unused = [p for p in values if p not in targets]
        missing = [p for p in targets if p not in values]
        return CheckpointLoadStatus(save_path, unused, missing)


def _read_checkpoint(document_path) -> dict:
    document = read_json(document_path, "checkpoint")
    if set(document) != {"format", "format_version", "variables"}:
        raise data_loss(document_path, "the document must have exactly the keys format, format_version, variables")
    check_version(document_path, document, FORMAT_NAME)
    entries = document["variables"]
    if not (isinstance(entries, list) and all(isinstance(e, list) and len(e) == 2 and isinstance(e[0], str)
                                              for e in entries)):
        raise data_loss(document_path, "variables must be a list of [object path, tensor reference]")
    directory = os.path.dirname(document_path)
    values = {}
    for i, (path, ref) in enumerate(entries):
        if path in values:
            raise data_loss(document_path, f"object path {path[:80]!r} appears twice")
        values[path] = read_tensor(directory, ref, f"{document_path}: variable {i} ({path[:80]})")
    return values


# --- the directory's list of checkpoints ---
def _read_state(directory):
    path = os.path.join(directory, STATE_FILE)
    if not os.path.isfile(path):
        return None
    document = read_json(path, "checkpoint state")
    paths = document.get("all_model_checkpoint_paths")
    latest = document.get("model_checkpoint_path")
    if document.get("format") != STATE_NAME or not isinstance(paths, list) \
            or not all(isinstance(p, str) for p in paths) or not (latest is None or isinstance(latest, str)):
        raise data_loss(path, "not an eagerflow checkpoint state file")
    return {"latest": latest, "all": paths}


def _write_state(directory, latest, paths):
    write_json(os.path.join(directory, STATE_FILE), {"format": STATE_NAME, "model_checkpoint_path": latest,
                                                     "all_model_checkpoint_paths": list(paths)})


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint prefix recorded in `checkpoint_dir`, or None."""
    state = _read_state(os.fspath(checkpoint_dir))
    return None if state is None else state["latest"]


def _tensor_folders(document_path) -> set:
    """The tensor folders (beside it) that an existing checkpoint document names; empty when there is
    none or it cannot be read. Only plain folder names of the document's own checkpoint count, so a
    crafted document cannot make a later write or removal touch anything else."""
    if not os.path.isfile(document_path):
        return set()
    base = os.path.basename(document_path)[:-len(".json")]
    try:
        entries = read_json(document_path, "checkpoint").get("variables", [])
    except (DataLossError, AttributeError):
        return set()
    folders = set()
    for entry in entries if isinstance(entries, list) else ():
        ref = entry[1] if isinstance(entry, list) and len(entry) == 2 else None
        name = ref.get("file") if isinstance(ref, dict) else None
        folder = name.split("/", 1)[0] if isinstance(name, str) and "/" in name else None
        if folder is not None and (folder == f"{base}.tensors" or folder.startswith(f"{base}.tensors-")) \
                and folder not in (".", ".."):
            folders.add(folder)
    return folders


def _remove_checkpoint(prefix):
    """Removes the files of the checkpoint `prefix` names: its document and the tensor folders it names."""
    document_path = f"{prefix}.json"
    directory = os.path.dirname(os.path.abspath(prefix))
    for folder in _tensor_folders(document_path) | {f"{os.path.basename(prefix)}.tensors"}:
        shutil.rmtree(os.path.join(directory, folder), ignore_errors=True)
    if os.path.isfile(document_path):
        os.remove(document_path)


class CheckpointManager:
    """Numbered checkpoints of one Checkpoint in one directory, keeping the newest `max_to_keep`."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got {max_to_keep}.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._checkpoint_name = checkpoint_name
        self._prefix = os.path.join(self._directory, checkpoint_name)
        state = _read_state(self._directory) if os.path.isdir(self._directory) else None
        self._checkpoints = [] if state is None else list(state["all"])
        self._latest = None if state is None else state["latest"]

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def latest_checkpoint(self):
        return self._latest

    @property
    def checkpoints(self):
        return list(self._checkpoints)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Writes `<directory>/<name>-<n>` (n: `checkpoint_number`, else the save count), drops the
        oldest beyond `max_to_keep`; returns the path."""
        os.makedirs(self._directory, exist_ok=True)
        counter = self._checkpoint.save_counter
        counter.assign_add(np.int64(1))
        number = int(counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        path = f"{self._prefix}-{number}"
        self._checkpoint.write(path)
        self._checkpoints = [p for p in self._checkpoints if p != path] + [path]
        dropped = []
        if self._max_to_keep is not None:
            while len(self._checkpoints) > self._max_to_keep:
                dropped.append(self._checkpoints.pop(0))
        self._latest = path
        _write_state(self._directory, path, self._checkpoints)  # the new list first, then the files go
        for prefix in dropped:
            if self._wrote(prefix):
                _remove_checkpoint(prefix)
        return path

    def _wrote(self, prefix) -> bool:
        """Whether `prefix` names one of this manager's checkpoints: `<name>-<number>` directly inside its
        directory. A `checkpoint` state file may list other paths (edited by hand, or crafted): those are
        dropped from the list but their files are never removed."""
        name = os.path.basename(prefix)
        number = name[len(self._checkpoint_name) + 1:]
        return (os.path.dirname(os.path.realpath(prefix)) == os.path.realpath(self._directory)
                and name.startswith(f"{self._checkpoint_name}-") and number.isdigit())

    def restore_or_initialize(self):
        if self._latest is not None:
            self._checkpoint.restore(self._latest)
            return self._latest
        return None
