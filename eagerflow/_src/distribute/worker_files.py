"""Where a worker writes files during multi-worker training: TensorFlow's rule.

The chief writes to the paths the program gives. Every other worker runs the same callbacks (they
may hold collectives, so all workers must make the same calls) but writes into a temporary folder
`workertemp_<task_id>` inside the given folder, removed when training ends: only the chief's files
remain. With one worker every path is the given one.
"""
from __future__ import annotations

import os
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


def remove_temp_dirpath(dirpath, strategy=None):
    """Removes this worker's temporary folder for `dirpath` (nothing for the chief)."""
    strategy = strategy or _context.get_strategy()
    if _writes_elsewhere(strategy):
        shutil.rmtree(write_dirpath(dirpath, strategy), ignore_errors=True)
