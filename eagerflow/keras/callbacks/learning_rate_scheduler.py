"""LearningRateScheduler: the learning rate set per epoch by a schedule function.

fit runs the callbacks in the order [user callbacks..., History, ProgbarLogger], all on the same
epoch-logs dict, so the `learning_rate` the schedulers add at the end of an epoch shows in the
history, in a CSVLogger placed after them, and in the printed progress line, as in Keras.
"""
from __future__ import annotations

import numpy as np

from .callback import Callback


def current_learning_rate(optimizer):
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
            lr = self.schedule(epoch, current_learning_rate(optimizer))
        except TypeError:  # a schedule of the epoch only
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.float32, np.float64)):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: {lr}")
        optimizer.learning_rate = lr
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = current_learning_rate(self.model.optimizer)
