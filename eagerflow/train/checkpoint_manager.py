"""`tf.train.CheckpointManager`: numbered checkpoints of one Checkpoint in one directory.

Each `save` writes `<directory>/<name>-<n>` (n: the given number, else the Checkpoint's save count after this
save) with its time, drops the oldest beyond `max_to_keep` from the list (keeping one every
`keep_checkpoint_every_n_hours` on disk, as TensorFlow does), records the new list in the directory's `checkpoint` file in one atomic write, and only then removes the dropped
checkpoints' files: a save that fails leaves the previous state.
Only files of this manager's own checkpoints (`<name>-<number>` inside its directory) are ever removed: a state
file may list other paths (edited by hand, or crafted), which are dropped from the list but never deleted.
"""
from __future__ import annotations

import collections
import glob
import os
import re
import shutil
import time

import numpy as np

from .checkpoint_state import get_checkpoint_state, write_state


def _now() -> float:
    return time.time()


class CheckpointManager:
    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None,
                 last_checkpoint_step=None):
        if directory is None:
            raise ValueError("Directory must be specified.")
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got {max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._checkpoint_name = checkpoint_name
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = last_checkpoint_step
        now = _now()
        state = get_checkpoint_state(self._directory) if os.path.isdir(self._directory) else None
        self._maybe_delete = collections.OrderedDict()
        if state is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = now
        else:
            self._latest_checkpoint = state.model_checkpoint_path or None
            stamps = state.all_model_checkpoint_timestamps
            if len(stamps) != len(state.all_model_checkpoint_paths):
                stamps = [now] * len(state.all_model_checkpoint_paths)
            for path, stamp in zip(state.all_model_checkpoint_paths, stamps):
                self._maybe_delete.pop(path, None)
                self._maybe_delete[path] = stamp
            self._last_preserved_timestamp = state.last_preserved_timestamp or now

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def latest_checkpoint(self):
        return self._latest_checkpoint

    @property
    def checkpoints(self):
        """The managed checkpoints still kept, oldest first."""
        return list(self._maybe_delete)

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Writes the next numbered checkpoint and returns its path; None when `checkpoint_interval` steps have
        not passed since the last one."""
        if self._checkpoint_interval is not None:
            step = int(np.asarray(self._step_counter.numpy() if hasattr(self._step_counter, "numpy")
                                  else self._step_counter))
            last = self._last_checkpoint_step
            if last is not None and (step == last or check_interval and step < last + self._checkpoint_interval):
                return None
            self._last_checkpoint_step = step
        os.makedirs(self._directory, exist_ok=True)
        counter = self._checkpoint.save_counter
        counter.assign_add(np.int64(1))
        number = int(counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        path = self._checkpoint.write(f"{self._prefix}-{number}", options=options)
        self._maybe_delete.pop(path, None)
        self._maybe_delete[path] = _now()
        self._latest_checkpoint = path
        dropped = self._sweep()
        self._record_state()  # the new list is recorded in one write before any old checkpoint goes
        for prefix in dropped:
            if self._wrote(prefix):
                _remove_checkpoint(prefix)
        return path

    def _record_state(self):
        write_state(self._directory, self._latest_checkpoint, list(self._maybe_delete),
                    list(self._maybe_delete.values()), self._last_preserved_timestamp)

    def _sweep(self) -> list:
        """Drops the oldest checkpoints beyond `max_to_keep` from the list (one every
        `keep_checkpoint_every_n_hours` stays on disk, unlisted); returns those whose files are to go."""
        dropped = []
        if not self._max_to_keep:
            return dropped
        while len(self._maybe_delete) > self._max_to_keep:
            path, stamp = self._maybe_delete.popitem(last=False)
            if self._keep_checkpoint_every_n_hours and (
                    stamp - self._keep_checkpoint_every_n_hours * 3600.0 >= self._last_preserved_timestamp):
                self._last_preserved_timestamp = stamp
                continue
            dropped.append(path)
        return dropped

    def _wrote(self, prefix) -> bool:
        """Whether `prefix` names one of this manager's checkpoints: `<name>-<number>` directly inside its
        directory."""
        name = os.path.basename(prefix)
        number = name[len(self._checkpoint_name) + 1:]
        return (os.path.dirname(os.path.realpath(prefix)) == os.path.realpath(self._directory)
                and name.startswith(f"{self._checkpoint_name}-") and number.isdigit())

    def restore_or_initialize(self):
        """Restores the newest checkpoint and returns its path; else runs `init_fn` and returns None."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = int(np.asarray(self._step_counter.numpy()))
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


def _remove_checkpoint(prefix):
    """Removes the files of checkpoint `prefix`: TensorFlow's index and data shards, or the earlier format's
    document and tensor folders."""
    directory, base = os.path.split(os.path.abspath(prefix))
    escaped = glob.escape(os.path.join(directory, base))
    for path in [f"{prefix}.index"] + glob.glob(f"{escaped}.data-?????-of-?????") + [f"{prefix}.json"]:
        if os.path.isfile(path):
            os.remove(path)
    folder = re.compile(re.escape(base) + r"\.tensors(-[0-9a-f]+)?")
    for name in os.listdir(directory):
        if folder.fullmatch(name) and os.path.isdir(os.path.join(directory, name)):
            shutil.rmtree(os.path.join(directory, name), ignore_errors=True)
