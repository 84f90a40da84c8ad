"""ModelCheckpoint: saves the model or its weights as training goes."""
from __future__ import annotations

import os
import warnings

from .monitor_callback import MonitorCallback


class ModelCheckpoint(MonitorCallback):
    """Saves the model (`.keras`, or Keras' legacy HDF5 file for `.h5`) or its weights (`save_weights_only=True`, `.weights.h5`) at the end
    of each epoch, or every `save_freq` batches when it is an integer; with `save_best_only`, only
    when `monitor` improves (and, as Keras 3 does, also when `monitor` is missing from the logs,
    with a warning). `filepath` may hold format fields: "ckpt-{epoch:02d}-{val_loss:.2f}.keras"
    (and `{batch}` with an integer save_freq)."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__(monitor, mode, baseline=initial_value_threshold)
        self.filepath, self.verbose = str(filepath), verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        if save_freq != "epoch" and (isinstance(save_freq, bool) or not isinstance(save_freq, int)):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' or integer values")
        self.save_freq = save_freq
        self._epoch = 0
        self._batches_since_saving = 0
        if save_weights_only:
            from ..saving import check_weights_path
            check_weights_path(self.filepath, "ModelCheckpoint")
        elif not self.filepath.endswith((".keras", ".h5")):  # .h5: Keras' legacy HDF5 model file
            raise ValueError(f"The filepath provided must end in `.keras` (Keras model format). Received: "
                             f"filepath={self.filepath}")

    @property
    def _wants_batch_logs(self):
        return self.save_freq != "epoch"

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        """An integer save_freq counts batches across epochs, as Keras does."""
        if self.save_freq == "epoch":
            return
        self._batches_since_saving += 1
        if self._batches_since_saving >= self.save_freq:
            self._batches_since_saving = 0
            self._save(self._epoch, batch, logs or {})

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save(epoch, None, logs or {})

    def _should_save(self, epoch, logs, path):
        if not self.save_best_only:
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.", stacklevel=3)
            return True
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to {current:.5f}, "
                      f"saving model to {path}")
            self.best = current
            return True
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
        return False

    def _save(self, epoch, batch, logs):
        if batch is None:
            path = self.filepath.format(epoch=epoch + 1, **logs)
        else:
            path = self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        if not self._should_save(epoch, logs, path):
            return
        # Keras 3 makes the checkpoint's folder (save_weights and save themselves do not).
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(path)
        else:
            self.model.save(path)
