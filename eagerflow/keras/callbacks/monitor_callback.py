"""The base of EarlyStopping, ModelCheckpoint and ReduceLROnPlateau: which way is "better" for the
monitored quantity, and whether a value improves on a reference.

Why a shared base: Keras 3 decides `mode="auto"` in one place (MonitorCallback._set_monitor_op), at
the first epoch end, once the compiled metrics exist: 'loss' / 'val_loss' is minimised; otherwise
the compiled metric whose *name* equals the monitor without its 'val_' prefix decides by its
`_direction` ('up' -> maximise). A metric without a direction (a plain function, TruePositives, a
name that matches nothing) is a ValueError, not a guess from the spelling of the name.
"""
from __future__ import annotations

import operator
import warnings

from .callbacks import Callback


def compiled_metrics_by_name(model):
    """(name, metric) for each metric compile() made, named as Keras 3's CompileMetrics names them:
    a weighted metric by its name before any 'weighted_' prefix the logs give it."""
    pairs = [(m.name, m) for m in getattr(model, "_compiled_metrics", ())]
    weighted = getattr(model, "_weighted_metrics", ())
    names = getattr(model, "_weighted_metric_names", [m.name for m in weighted])
    pairs.extend(zip(names, weighted))
    return pairs


class MonitorCallback(Callback):
    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=3)
            mode = "auto"
        self.monitor, self.mode, self.best = monitor, mode, baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None  # operator.lt (minimise) or operator.gt (maximise), set at the first epoch end

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = operator.lt
        elif self.mode == "max":
            self.monitor_op = operator.gt
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = operator.lt
            for metric_name, metric in compiled_metrics_by_name(self.model):
                direction = getattr(metric, "_direction", None)
                if metric_name == name and direction is not None:
                    self.monitor_op = operator.gt if direction == "up" else operator.lt
            if self.monitor_op is None:
                raise ValueError(
                    f"{type(self).__name__} callback received monitor={self.monitor}, but Keras isn't able to "
                    f"automatically determine whether that metric should be maximized or minimized. Pass "
                    f"`mode='max'` in order to monitor based on the highest metric value, or pass `mode='min'` "
                    f"in order to use the lowest value.")
        if self.monitor_op is operator.lt:
            self.min_delta = -abs(self.min_delta)

    def _is_improvement(self, value, reference):
        if reference is None:
            return True
        if self.monitor_op is None:
            self._set_monitor_op()
        return bool(self.monitor_op(value - self.min_delta, reference))


class EarlyStopping(MonitorCallback):
    """Stops fit when `monitor` has not improved by more than `min_delta` for `patience` epochs.
    With restore_best_weights, the best epoch's weights are put back when training ends, whether or
    not it stopped early (Keras 3)."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience, self.verbose, self.baseline = patience, verbose, baseline
        self.restore_best_weights, self.start_from_epoch = restore_best_weights, start_from_epoch
        self.wait, self.stopped_epoch, self.best_weights, self.best_epoch = 0, 0, None, 0

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best, self.best_weights, self.best_epoch = 0, 0, None, None, 0

    def get_monitor_value(self, logs):
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not available. "
                          f"Available metrics are: {','.join(logs)}", stacklevel=2)
        return value

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0  # only a value that beats the baseline as well restarts the count
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


class ModelCheckpoint(MonitorCallback):
    """Saves the model (`.keras`) or its weights (`save_weights_only=True`, `.weights.h5`) at the end
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
            from .saving import check_weights_path
            check_weights_path(self.filepath, "ModelCheckpoint")
        elif self.filepath.endswith(".h5"):
            raise ValueError(f"Saving a whole model in the legacy HDF5 format (.h5) is not supported: use a "
                             f"filepath ending in `.keras` (Keras model format). Received: filepath={self.filepath}")
        elif not self.filepath.endswith(".keras"):
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
        if self.save_weights_only:
            self.model.save_weights(path)
        else:
            self.model.save(path)
