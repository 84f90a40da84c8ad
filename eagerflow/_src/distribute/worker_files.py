"""Where a worker writes files during multi-worker training: TensorFlow's rule.

The chief writes to the paths the program gives. Every other worker runs the same callbacks (they
may hold collectives, so all workers must make the same calls) but writes into a temporary folder
`workertemp_<task_id>` inside the given folder, removed when training ends: only the chief's files
remain. With one worker every path is the given one.

Training that stops early (an exception, KeyboardInterrupt) still removes the folders (fit's
`finally`), and so does a worker whose collective timed out, before it aborts the job; a worker
killed outright cannot, so each fit first removes what an earlier run left:
every worker its own `workertemp_<task_id>`, the chief those of task ids no worker of this job has.
"""
from __future__ import annotations

import os
import re
import shutil

from . import context as _context


def _writes_elsewhere(strategy) -> bool:
    ext = strategy.extended
    return ext._num_workers > 1 and not ext.should_checkpoint


def _task_id(strategy):
    resolver = strategy.cluster_resolver
    return getattr(resolver, "task_id", None) or 0


def write_dirpath(dirpath, strategy=None):
    """The folder this worker writes what belongs in `dirpath` to."""
    strategy = strategy or _context.get_strategy()
    if not _writes_elsewhere(strategy):
        return dirpath
    return os.path.join(dirpath, f"workertemp_{_task_id(strategy)}")


def write_filepath(filepath, strategy=None):
    """The path this worker writes the file `filepath` to."""
    directory, name = os.path.split(filepath)
    return os.path.join(write_dirpath(directory, strategy), name)


_in_use = []  # this worker's temporary folders while a fit writes into them


def note_in_use(dirpath, strategy=None):
    """Remembers that this worker writes into its temporary folder for `dirpath`, so that an aborted
    job still removes it (`remove_folders_in_use`)."""
    strategy = strategy or _context.get_strategy()
    if _writes_elsewhere(strategy):
        _in_use.append(write_dirpath(dirpath, strategy))


def remove_temp_dirpath(dirpath, strategy=None):
    """Removes this worker's temporary folder for `dirpath` (nothing for the chief)."""
    strategy = strategy or _context.get_strategy()
    if _writes_elsewhere(strategy):
        folder = write_dirpath(dirpath, strategy)
        shutil.rmtree(folder, ignore_errors=True)
        while folder in _in_use:
            _in_use.remove(folder)


def remove_folders_in_use():
    """Removes every temporary folder this worker is writing into: called just before a collective
    that timed out aborts the job, which ends the process without running fit's `finally`."""
    while _in_use:
        shutil.rmtree(_in_use.pop(), ignore_errors=True)


_TEMP_NAME = re.compile(r"workertemp_(\d+)$")


def _live_temp_ids(strategy):
    """The task ids whose workers write into temporary folders in this job (every one but the chief's)."""
    workers = strategy.extended._num_workers
    resolver = strategy.cluster_resolver
    spec = resolver.cluster_spec().as_dict() if resolver is not None else {}
    if spec.get("chief"):
        return set(range(workers - 1))  # the chief is its own job; the workers are 0 .. n-2
    return set(range(1, workers))


def remove_stale_temp_dirpaths(dirpath, strategy=None):
    """Removes the `workertemp_*` folders in `dirpath` that an interrupted earlier run left behind:
    this worker's own, and (on the chief) those of task ids no worker of this job uses."""
    strategy = strategy or _context.get_strategy()
    if strategy.extended._num_workers <= 1 or not os.path.isdir(dirpath):
        return
    if _writes_elsewhere(strategy):
        shutil.rmtree(write_dirpath(dirpath, strategy), ignore_errors=True)
        return
    live = _live_temp_ids(strategy)
    for name in os.listdir(dirpath):
        match = _TEMP_NAME.match(name)
        if match and int(match.group(1)) not in live:
            shutil.rmtree(os.path.join(dirpath, name), ignore_errors=True)
