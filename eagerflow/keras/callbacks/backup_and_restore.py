"""keras.callbacks.BackupAndRestore: resume an interrupted `fit` where its last backup left it.

As in Keras 3.15: at the end of every epoch (or every `save_freq` batches) the model's weights go to
`<backup_dir>/latest.weights.h5` and {"epoch", "batch"} to `training_metadata.json`; the next `fit`
with the same directory loads them in `on_train_begin` and starts at the saved epoch (the model's
`_initial_epoch`); a `fit` that finishes deletes the directory (delete_checkpoint=True).
double_checkpoint keeps the previous backup as `*.bkp`, used when the latest cannot be read.

Keras' weights file also carries the optimizer's variables; eagerflow's `save_weights` format holds
model weights only, so the optimizer state (Adam's moments, the iteration count) is kept beside it
in `latest.optimizer.npz`: a resumed run continues exactly as an uninterrupted one would.
"""
from __future__ import annotations

import json
import os
import shutil
import warnings

import numpy as np

from ..._src.io.atomic import atomic_file, write_file_atomically

from .callback import Callback


class BackupAndRestore(Callback):
    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False, delete_checkpoint=True):
        super().__init__()
        self.save_freq, self.double_checkpoint, self.delete_checkpoint = save_freq, double_checkpoint, \
            delete_checkpoint
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        self.write_backups_to(str(backup_dir))
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Invalid value for argument `save_freq`. Received: save_freq={save_freq}. Expected "
                             f"either 'epoch' or an integer value.")

    def write_backups_to(self, backup_dir):
        """Where the backups are read and written (multi-worker training moves a non-chief's writes)."""
        self.backup_dir = backup_dir
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.h5")
        self._optimizer_path = os.path.join(self.backup_dir, "latest.optimizer.npz")
        self._training_metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._backups = (self._weights_path, self._optimizer_path, self._training_metadata_path)

    @property
    def _wants_batch_logs(self):
        return self.save_freq != "epoch"

    def on_train_begin(self, logs=None):
        try:
            self._load_model()
        except (OSError, ValueError) as e:
            if not os.path.exists(self._weights_path + ".bkp"):
                raise e
            for path in self._backups:
                if os.path.exists(path + ".bkp"):
                    shutil.copyfile(path + ".bkp", path)
                elif os.path.exists(path):
                    os.remove(path)
            self._load_model()

    def _load_model(self):
        if not self.model.built:
            raise ValueError(f"To use the BackupAndRestore callback, you model must be built before you call "
                             f"`fit()`. Model {self.model} is unbuilt. You can build it beforehand by calling it "
                             f"on a batch of data.")
        if os.path.exists(self._weights_path):
            with warnings.catch_warnings():  # the optimizer comes back from its own backup, below
                warnings.filterwarnings("ignore", "Skipping variable loading for optimizer")
                self.model.load_weights(self._weights_path)
            optimizer = getattr(self.model, "optimizer", None)
            if optimizer is not None and os.path.exists(self._optimizer_path):
                optimizer.build(self.model.trainable_variables)
                with np.load(self._optimizer_path, allow_pickle=False) as data:
                    values = [data[k] for k in sorted(data.files)]
                variables = optimizer.variables
                if len(values) != len(variables):
                    raise ValueError(f"The optimizer backup in {self.backup_dir} holds {len(values)} variables and "
                                     f"the optimizer has {len(variables)}.")
                for var, value in zip(variables, values):
                    var.assign(value.astype(var.dtype.np_dtype))
        if os.path.exists(self._training_metadata_path):
            with open(self._training_metadata_path) as f:
                self.model._initial_epoch = json.load(f)["epoch"]

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._save_model()

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save_model()

    def _save_model(self):
        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint:
            for path in self._backups:
                if os.path.exists(path):
                    shutil.copyfile(path, path + ".bkp")
        self.model.save_weights(self._weights_path, overwrite=True)
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None:
            with atomic_file(self._optimizer_path) as f:  # a file object: np.savez would append ".npz" to a path
                np.savez(f, **{f"{i:05d}": np.asarray(v.numpy()) for i, v in enumerate(optimizer.variables)})
        write_file_atomically(self._training_metadata_path,
                              json.dumps({"epoch": self._current_epoch, "batch": self._last_batch_seen}).encode())

    def _should_save_on_batch(self, batch):
        """Counts batches across epochs (a batch index not above the last one starts a new epoch)."""
        if self.save_freq == "epoch":
            return False
        add = batch + 1 if batch <= self._last_batch_seen else batch - self._last_batch_seen
        self._batches_seen_since_last_saving += add
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)
