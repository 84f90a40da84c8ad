"""`keras.callbacks`: hooks fit/evaluate/predict call at the begin and end of training, epochs and
batches. `model.stop_training = True` ends fit after the current epoch."""
from __future__ import annotations

import math
import warnings

import numpy as np


class Callback:
    def __init__(self):
        self.model = None
        self.params = {}

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_train_begin(self, logs=None): pass  # noqa: E704
    def on_train_end(self, logs=None): pass  # noqa: E704
    def on_epoch_begin(self, epoch, logs=None): pass  # noqa: E704
    def on_epoch_end(self, epoch, logs=None): pass  # noqa: E704
    def on_batch_begin(self, batch, logs=None): pass  # noqa: E704
    def on_batch_end(self, batch, logs=None): pass  # noqa: E704

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)  # Keras' older hook names still work for training batches

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_begin(self, logs=None): pass  # noqa: E704
    def on_test_end(self, logs=None): pass  # noqa: E704
    def on_test_batch_begin(self, batch, logs=None): pass  # noqa: E704
    def on_test_batch_end(self, batch, logs=None): pass  # noqa: E704
    def on_predict_begin(self, logs=None): pass  # noqa: E704
    def on_predict_end(self, logs=None): pass  # noqa: E704
    def on_predict_batch_begin(self, batch, logs=None): pass  # noqa: E704
    def on_predict_batch_end(self, batch, logs=None): pass  # noqa: E704

    @property
    def _wants_batch_logs(self):
        """Whether this callback overrides a per-batch hook (fit only then converts step logs to floats)."""
        cls = type(self)
        return any(getattr(cls, n) is not getattr(Callback, n)
                   for n in ("on_train_batch_begin", "on_train_batch_end", "on_test_batch_end", "on_batch_begin",
                             "on_batch_end"))


class History(Callback):
    """Records each epoch's logs: `history.history['loss']`, `history.epoch`."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self


class LambdaCallback(Callback):
    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None, on_train_end=None,
                 on_train_batch_begin=None, on_train_batch_end=None, on_batch_begin=None, on_batch_end=None,
                 **kwargs):
        super().__init__()
        fns = dict(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end, on_train_begin=on_train_begin,
                   on_train_end=on_train_end, on_train_batch_begin=on_train_batch_begin or on_batch_begin,
                   on_train_batch_end=on_train_batch_end or on_batch_end, **kwargs)
        for name, fn in fns.items():
            if fn is not None:
                setattr(self, name, fn)

    @property
    def _wants_batch_logs(self):
        return "on_train_batch_begin" in vars(self) or "on_train_batch_end" in vars(self)


def _monitor_mode(monitor, mode):
    if mode not in ("auto", "min", "max"):
        warnings.warn(f"Mode {mode} is unknown, fallback to auto mode.", stacklevel=3)
        mode = "auto"
    if mode == "auto":
        mode = "max" if monitor.endswith("acc") or monitor.endswith("accuracy") or monitor.endswith("auc") else "min"
    return mode


class EarlyStopping(Callback):
    """Stops fit when `monitor` has not improved by more than `min_delta` for `patience` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.verbose, self.baseline = monitor, patience, verbose, baseline
        self.min_delta = abs(min_delta)
        self.mode = _monitor_mode(monitor, mode)
        self.restore_best_weights, self.start_from_epoch = restore_best_weights, start_from_epoch
        self.wait, self.stopped_epoch, self.best, self.best_weights, self.best_epoch = 0, 0, None, None, 0

    def _improved(self, value, reference):
        if reference is None:
            return True
        if self.mode == "max":
            return value - self.min_delta > reference
        return value + self.min_delta < reference

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best_weights, self.best_epoch = 0, 0, None, 0
        self.best = self.baseline

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not available. "
                          f"Available metrics are: {','.join(logs or {})}", stacklevel=2)
            return
        if epoch < self.start_from_epoch:
            return
        self.wait += 1
        if self._improved(current, self.best):
            self.best, self.best_epoch, self.wait = current, epoch, 0
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._improved(current, self.baseline):
                return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None and self.stopped_epoch > 0:
            if self.verbose > 0:
                print(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


class ModelCheckpoint(Callback):
    """Saves the model (`.keras`) or its weights (`save_weights_only=True`, `.weights.h5`) at the end
    of each epoch, or every `save_freq` batches when it is an integer; with `save_best_only`, only
    when `monitor` improves. `filepath` may hold format fields: "ckpt-{epoch:02d}-{val_loss:.2f}.keras"
    (and `{batch}` with an integer save_freq)."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__()
        self.filepath, self.monitor, self.verbose = str(filepath), monitor, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        self.mode = _monitor_mode(monitor, mode)
        self.best = initial_value_threshold
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
        if self.save_freq == "epoch":
            self._save(epoch, None, logs or {})

    def _save(self, epoch, batch, logs):
        if batch is None:
            path = self.filepath.format(epoch=epoch + 1, **logs)
        else:
            path = self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None or (isinstance(current, float) and math.isnan(current)):
                warnings.warn(f"Can save best model only with {self.monitor} available, skipping.", stacklevel=2)
                return
            better = self.best is None or (current > self.best if self.mode == "max" else current < self.best)
            if not better:
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best} to {current:.5f}, "
                      f"saving model to {path}")
            self.best = current
        if self.save_weights_only:
            self.model.save_weights(path)
        else:
            self.model.save(path)


def _floats(logs):
    return {k: float(np.asarray(v)) for k, v in logs.items()}


from .tensorboard_callback import TensorBoard  # noqa: E402,F401  (built on tf.summary; imports Callback)
from .more_callbacks import (  # noqa: E402,F401 - they subclass Callback
    CallbackList, CSVLogger, LearningRateScheduler, ProgbarLogger, ReduceLROnPlateau, TerminateOnNaN)
