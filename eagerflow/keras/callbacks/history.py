"""History: the record of every epoch's logs that fit returns."""
from __future__ import annotations

from .callback import Callback


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
