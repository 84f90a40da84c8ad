"""`tf.train.Checkpoint`: variables saved and restored by object path, in TensorFlow's files.

`write(prefix)` saves `prefix.index` + `prefix.data-00000-of-00001` (formats/tensor_bundle.py): every
variable under its object-graph key (`model/v/.ATTRIBUTES/VARIABLE_VALUE`, object_graph.py) and the graph
itself under `_CHECKPOINTABLE_OBJECT_GRAPH`, so TensorFlow restores what eagerflow writes and the other way
round. `save(prefix)` numbers the prefix by `save_counter` (`ckpt-1`, `ckpt-2`, ...) and records it in the
directory's `checkpoint` file (checkpoint_state.py). `read`/`restore` match the saved graph to the objects by
path (restore.py), deferring what has no object yet; checkpoints in eagerflow's earlier JSON format are still
read (legacy_json.py).
"""
from __future__ import annotations

import os

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.errors import NotFoundError
from .._src.formats.tensor_bundle import BundleReader, write_bundle
from .._src.state.variables import Variable
from . import experimental, legacy_json, object_graph
from .checkpoint_options import check_options, run_write_callbacks
from .checkpoint_state import write_state
from .restore import RestoreSession, read_values

_SHOWN = 10  # unmatched objects an assertion lists


class CheckpointLoadStatus:
    """What `restore`/`read` matched, and TensorFlow's assertions on it."""

    def __init__(self, session: RestoreSession, root):
        self._session = session
        self._root = root  # the Checkpoint, held so the assertions can look at its objects

    def assert_consumed(self):
        """Every live variable got a value and every saved value found its variable (deferred ones included)."""
        self.assert_existing_objects_matched()
        unresolved = self._session.unresolved_nodes()
        if unresolved:
            path, node = unresolved[0]
            raise AssertionError(f"Unresolved object in checkpoint {path}: {node}")
        return self

    def assert_existing_objects_matched(self):
        """Every variable that exists now below the Checkpoint got its value from the checkpoint."""
        unbound = self._session.unbound_variables(self._root)
        if unbound:
            raise AssertionError(
                f"Found {len(unbound)} Python objects that were not bound to checkpointed values, likely due to "
                f"changes in the Python program. Showing {min(len(unbound), _SHOWN)} of {len(unbound)} unmatched "
                f"objects: [{', '.join(repr(v) for v in unbound[:_SHOWN])}]")
        return self

    def assert_nontrivial_match(self):
        """Something besides the root object took a saved value."""
        if not self._session.restored_nodes:
            unbound = self._session.unbound_variables(self._root)
            raise AssertionError(
                f"Nothing except the root object matched a checkpointed value. Typically this means that the "
                f"checkpoint does not match the Python program. The following objects have no matching "
                f"checkpointed value: [{', '.join(repr(v) for v in unbound[:_SHOWN])}]")
        return self

    def expect_partial(self):
        """Silences warnings about values left unrestored (eagerflow prints none)."""
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class InitializationOnlyStatus:
    """`restore(None)`: nothing was read; the objects keep their initial values."""

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    def assert_existing_objects_matched(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    def assert_nontrivial_match(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class LegacyLoadStatus:
    """What restoring a checkpoint in eagerflow's earlier JSON format matched (by the paths it stored)."""

    def __init__(self, path, unused, missing):
        self._path, self._unused, self._missing = path, unused, missing

    def assert_consumed(self):
        self.assert_existing_objects_matched()
        if self._unused:
            raise AssertionError(f"Unresolved object in checkpoint (root).{self._unused[0].replace('/', '.')}: "
                                 f"a saved value nothing in this Checkpoint's objects took.")
        return self

    def assert_existing_objects_matched(self):
        if self._missing:
            raise AssertionError(f"Found {len(self._missing)} Python objects that were not bound to checkpointed "
                                 f"values, likely due to changes in the Python program: {', '.join(self._missing)} "
                                 f"(checkpoint {self._path}).")
        return self

    def assert_nontrivial_match(self):
        return self

    def expect_partial(self):
        return self


class Checkpoint:
    """`tf.train.Checkpoint(root=None, **objects)`: `save`/`restore` numbered checkpoints, `write`/`read` one."""

    def __init__(self, root=None, **kwargs):
        for name, value in kwargs.items():
            if not object_graph.trackable(value):
                raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an object derived "
                                 f"from `Trackable`), got {value}. If you believe this object should be trackable "
                                 f"(i.e. it is part of the TensorFlow Python API and manages state), please open "
                                 f"an issue.")
        if root is not None and not object_graph.trackable(root):
            raise ValueError(f"`Checkpoint` was expecting root to be a trackable object (an object derived from "
                             f"`Trackable`), got {root}. If you believe this object should be trackable (i.e. it "
                             f"is part of the TensorFlow Python API and manages state), please open an issue.")
        self._root = root
        self._objects = dict(kwargs)  # attributes set later are not saved, as in TensorFlow
        self._save_counter = None

    def __getattr__(self, name):
        objects = self.__dict__.get("_objects", {})
        if name in objects:
            return objects[name]
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    def _checkpoint_children(self):
        """The root node's children: the root object's own, the keyword objects, then `save_counter`."""
        out = object_graph.children(self._root) if self._root is not None else []
        out = out + list(self._objects.items())
        if self._save_counter is not None:
            out.append(("save_counter", self._save_counter))
        return out

    @property
    def save_counter(self):
        """How many times `save` ran (a non-trainable int64 Variable, saved with the checkpoint)."""
        if self._save_counter is None:
            self._save_counter = Variable(np.int64(0), trainable=False, name="save_counter", dtype=_dt.int64)
        return self._save_counter

    # --- writing ---
    def write(self, file_prefix, options=None):
        """Writes the variables to `file_prefix.index` + `.data-00000-of-00001` (no numbering, no state file);
        returns `file_prefix`. A write that fails leaves the previous checkpoint at that prefix as it was."""
        check_options(options)
        file_prefix = os.fspath(file_prefix)
        graph, variables = object_graph.build(self)
        tensors = dict(variables)
        tensors[object_graph.OBJECT_GRAPH_KEY] = (np.array(graph.SerializeToString(deterministic=True), object),
                                                  _dt.string)
        write_bundle(file_prefix, tensors, max_shard_size=experimental.max_shard_size(options))
        run_write_callbacks(options, file_prefix)
        return file_prefix

    def save(self, file_prefix, options=None):
        """Writes `<file_prefix>-<n>` with n the save count, records it as the newest in the directory's
        `checkpoint` file, and returns that path."""
        counter = self.save_counter
        counter.assign_add(np.int64(1))
        path = f"{os.fspath(file_prefix)}-{int(counter.numpy())}"
        self.write(path, options=options)
        write_state(os.path.dirname(os.path.abspath(path)), path, [path])
        return path

    # --- reading ---
    def read(self, save_path, options=None):
        """Restores the values of the checkpoint `save_path` (a prefix `write` or `save` returned)."""
        save_path = os.fspath(save_path)
        return self._restore(save_path, f"Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                                        f"files for {save_path}", create_counter=False)

    def restore(self, save_path, options=None):
        """`read`, also making `save_counter` (so it takes the saved count); nothing for `None` (what a
        CheckpointManager with no checkpoint gives)."""
        if save_path is None:
            return InitializationOnlyStatus()
        save_path = os.fspath(save_path)
        return self._restore(save_path, (
            f"Error when restoring from checkpoint or SavedModel at {save_path}: Unsuccessful TensorSliceReader "
            f"constructor: Failed to find any matching files for {save_path}\nPlease double-check that the path is "
            f"correct. You may be missing the checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1')."),
            create_counter=True)

    def _restore(self, save_path, missing_message, create_counter):
        if os.path.lexists(f"{save_path}.index"):
            reader = BundleReader(save_path)
        elif legacy_json.exists(save_path):
            return self._restore_legacy(save_path)
        else:
            raise NotFoundError(None, None, missing_message)
        graph, values = read_values(reader)
        if create_counter:  # as TensorFlow's restore does, whether or not the checkpoint holds a count
            self.save_counter  # noqa: B018
        session = RestoreSession(graph, values, save_path)
        session.start(self)
        return CheckpointLoadStatus(session, self)

    def _restore_legacy(self, save_path):
        values = legacy_json.read_checkpoint(save_path)
        if "save_counter" in values:
            self.save_counter  # noqa: B018
        objects = dict(self._objects)
        if self._save_counter is not None:
            objects["save_counter"] = self._save_counter
        targets = legacy_json.variables_by_path(objects)
        from .restore import check_value
        checked = [(var, check_value(var, values[path], path)) for path, var in targets.items() if path in values]
        for var, value in checked:  # all checked first: a failed restore changes nothing
            var.assign(value)
        return LegacyLoadStatus(save_path, [p for p in values if p not in targets],
                                [p for p in targets if p not in values])
