"""ReduceLROnPlateau: a smaller learning rate once the monitored quantity stops improving."""
from __future__ import annotations

import warnings

import numpy as np

from .learning_rate_scheduler import current_learning_rate
from .monitor_callback import MonitorCallback


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
        logs["learning_rate"] = current_learning_rate(self.model.optimizer)
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
        old_lr = current_learning_rate(self.model.optimizer)
        if old_lr <= np.float32(self.min_lr):
            return False
        new_lr = max(old_lr * self.factor, self.min_lr)
        self.model.optimizer.learning_rate = new_lr
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
        return True
