"""Multi-worker training: the file-writing callbacks of the workers other than the chief write into
temporary folders that are removed when training ends (TensorFlow's rule, see
_src/distribute/worker_files.py), so only the chief's checkpoints, backups and logs remain.
BackupAndRestore still restores from the given folder on every worker (the chief's backup), so a
restarted job resumes with the same weights everywhere; its own backups go to
`<parent>/workertemp_<task_id>/<folder>`. Folders an interrupted earlier run left are removed first."""
from __future__ import annotations

import os

from ..._src.distribute.worker_files import (note_in_use, remove_stale_temp_dirpaths, remove_temp_dirpath,
                                             write_dirpath, write_filepath)
from .backup_and_restore import BackupAndRestore
from .model_checkpoint import ModelCheckpoint
from .tensorboard import TensorBoard


class WorkerFiles:
    """Redirects `callbacks`' outputs for this worker in fit (`place` after they are set up, `restore`
    at the end of training)."""

    def __init__(self, callbacks, strategy):
        self._strategy = strategy
        self._moved = []  # (callback, attribute, given value, folder to remove)
        for folder in _written_folders(callbacks):
            remove_stale_temp_dirpaths(folder, strategy)
        for cb in callbacks:
            if isinstance(cb, ModelCheckpoint):
                self._move(cb, "filepath", write_filepath(cb.filepath, strategy),
                           os.path.dirname(cb.filepath))
            elif isinstance(cb, TensorBoard):
                self._move(cb, "log_dir", write_dirpath(cb.log_dir, strategy), cb.log_dir)

    def _move(self, cb, attribute, value, folder):
        given = getattr(cb, attribute)
        if value != given:
            self._moved.append((cb, attribute, given, folder))
            note_in_use(folder, self._strategy)
            setattr(cb, attribute, value)

    def after_restore(self, callbacks):
        """BackupAndRestore has read the chief's backup; from here it writes to this worker's own folder."""
        for cb in callbacks:
            if isinstance(cb, BackupAndRestore):
                # Beside the chief's backup folder, not in it: the chief deletes that folder when training
                # ends, while this worker may still be removing its own.
                folder = write_filepath(cb.backup_dir, self._strategy)
                if folder != cb.backup_dir:
                    self._moved.append((cb, "backup_dir", cb.backup_dir, os.path.dirname(cb.backup_dir)))
                    note_in_use(os.path.dirname(cb.backup_dir), self._strategy)
                    cb.write_backups_to(folder)

    def restore(self):
        for cb, attribute, given, folder in reversed(self._moved):
            if attribute == "backup_dir":
                cb.write_backups_to(given)
            else:
                setattr(cb, attribute, given)
            remove_temp_dirpath(folder, self._strategy)
        self._moved = []


def _written_folders(callbacks):
    """The folders in which the workers' temporary folders for `callbacks` are made."""
    for cb in callbacks:
        if isinstance(cb, ModelCheckpoint):
            yield os.path.dirname(cb.filepath)
        elif isinstance(cb, TensorBoard):
            yield cb.log_dir
        elif isinstance(cb, BackupAndRestore):
            yield os.path.dirname(cb.backup_dir)
