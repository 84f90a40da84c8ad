"""`keras.callbacks`: hooks fit/evaluate/predict call at the begin and end of training, epochs and
batches. `model.stop_training = True` ends fit after the current epoch."""
from __future__ import annotations

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


def _floats(logs):
    return {k: float(np.asarray(v)) for k, v in logs.items()}


from .monitor_callback import EarlyStopping, ModelCheckpoint, MonitorCallback  # noqa: E402,F401
from .backup_and_restore import BackupAndRestore  # noqa: E402,F401
from .tensorboard_callback import TensorBoard  # noqa: E402,F401  (built on tf.summary; imports Callback)
from .more_callbacks import (  # noqa: E402,F401 - they subclass Callback
    CallbackList, CSVLogger, LearningRateScheduler, ProgbarLogger, ReduceLROnPlateau, TerminateOnNaN)
