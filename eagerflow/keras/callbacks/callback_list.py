"""Keras 3's training-control callbacks: LearningRateScheduler, ReduceLROnPlateau, TerminateOnNaN,
CSVLogger, ProgbarLogger (the progress output fit prints) and CallbackList.

fit runs the callbacks in the order [user callbacks..., History, ProgbarLogger], all on the same
epoch-logs dict, so the `learning_rate` the schedulers add at the end of an epoch shows in the
history, in a CSVLogger placed after them, and in the printed progress line, as in Keras.
"""
from __future__ import annotations

import collections.abc
import csv
import os
import warnings

import numpy as np

from .callbacks import Callback, History
from .monitor_callback import MonitorCallback
from .progbar import Progbar


def _current_lr(optimizer):
    return float(np.asarray(optimizer.learning_rate.numpy() if hasattr(optimizer.learning_rate, "numpy")
                            else optimizer.learning_rate))


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate at the start of each epoch to `schedule(epoch, lr)` (or
    `schedule(epoch)` for a one-argument schedule) and logs it as `learning_rate`."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        if not hasattr(optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        try:
            lr = self.schedule(epoch, _current_lr(optimizer))
        except TypeError:  # a schedule of the epoch only
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.float32, np.float64)):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: {lr}")
        optimizer.learning_rate = lr
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = _current_lr(self.model.optimizer)


class ReduceLROnPlateau(MonitorCallback):
    """Multiplies the learning rate by `factor` (not below `min_lr`) once `monitor` has not improved
    by more than `min_delta` for `patience` epochs, then waits `cooldown` epochs before counting
    again. mode 'auto' is decided as MonitorCallback decides it, at the first epoch end."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0.0, **kwargs):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.factor, self.patience, self.verbose, self.cooldown, self.min_lr = factor, patience, verbose, cooldown, \
            min_lr
        self.wait, self.cooldown_counter = 0, 0

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_train_begin(self, logs=None):
        self.best, self.wait, self.cooldown_counter = None, 0, 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _current_lr(self.model.optimizer)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Learning rate reduction is conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs)}.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience and self._reduce(epoch):
                self.cooldown_counter, self.wait = self.cooldown, 0

    def _reduce(self, epoch):
        old_lr = _current_lr(self.model.optimizer)
        if old_lr <= np.float32(self.min_lr):
            return False
        new_lr = max(old_lr * self.factor, self.min_lr)
        self.model.optimizer.learning_rate = new_lr
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
        return True


class TerminateOnNaN(Callback):
    """Stops fit after the first batch whose loss is NaN or infinite (or raises, with raise_error)."""

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is None or not (np.isnan(loss) or np.isinf(loss)):
            return
        if self.raise_error:
            raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: {loss}. Terminating "
                               f"training immediately.")
        print(f"Batch {batch}: Invalid loss, terminating training")
        self.model.stop_training = True


class CSVLogger(Callback):
    """One CSV row per epoch: 'epoch' then the log keys in sorted order (plus their 'val_' twins
    when the first epoch has no validation keys, written as NA). With append=True the header is
    written only into an empty or new file."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.sep, self.append = os.fspath(filename), separator, append
        self.writer, self.keys, self.csv_file, self.append_header = None, None, None, True

    def on_train_begin(self, logs=None):
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as f:
                self.append_header = not f.readline()
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, "a" if self.append else "w", newline="")  # noqa: SIM115 - kept for the run
        self.writer, self.keys = None, None

    @staticmethod
    def _cell(value):
        if isinstance(value, str) or isinstance(value, np.ndarray) and value.ndim == 0:
            return value
        if isinstance(value, collections.abc.Iterable):
            return f'"[{", ".join(map(str, value))}]"'
        return value

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                self.keys += [f"val_{k}" for k in self.keys]
        if self.writer is None:
            self.writer = csv.writer(self.csv_file, delimiter=self.sep, lineterminator="\r\n")
            if self.append_header:
                self.writer.writerow(["epoch", *self.keys])
        self.writer.writerow([epoch, *(self._cell(logs.get(k, "NA")) for k in self.keys)])
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None


class ProgbarLogger(Callback):
    """fit's progress output (keras/progbar.py), driven by fit's params: nothing with verbose=0, a
    redrawn bar per step with verbose=1, one line per epoch with verbose=2; 'Epoch i/N' headers when
    there is more than one epoch."""

    def __init__(self):
        super().__init__()
        self._bar = None

    @property
    def _verbose(self):
        return self.params.get("verbose", 1)

    @property
    def _wants_batch_logs(self):
        return self._verbose == 1

    def on_epoch_begin(self, epoch, logs=None):
        epochs = self.params.get("epochs", 1)
        if self._verbose and epochs > 1:
            print(f"Epoch {epoch + 1}/{epochs}")
        self._bar = Progbar(self.params.get("steps"), self._verbose)
        self._seen = 0

    def on_train_batch_end(self, batch, logs=None):
        self._seen = batch + 1
        self._bar.update(self._seen, (logs or {}).items())

    def on_epoch_end(self, epoch, logs=None):
        # fit records the epoch's step count on the model: with verbose=2 no per-batch hook runs
        # (the step logs are not converted to floats when nothing wants them)
        steps = getattr(self.model, "_steps_in_epoch", None) or self._seen
        self._bar.update(steps, (logs or {}).items(), finalize=True)


class CallbackList(Callback):
    """Calls every hook on each of its callbacks in order; optionally adds History / ProgbarLogger."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        super().__init__()
        self.callbacks = list(callbacks or [])
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def append(self, callback):
        self.callbacks.append(callback)

    def set_model(self, model):
        super().set_model(model)
        for c in self.callbacks:
            c.set_model(model)

    def set_params(self, params):
        super().set_params(params)
        for c in self.callbacks:
            c.set_params(params)

    def __iter__(self):
        return iter(self.callbacks)


def _forward(hook):
    def call_each(self, *args, **kwargs):
        for c in self.callbacks:
            getattr(c, hook)(*args, **kwargs)
    call_each.__name__ = hook
    return call_each


for _hook in ("on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
              "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
              "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end",
              "on_batch_begin", "on_batch_end"):
    setattr(CallbackList, _hook, _forward(_hook))
