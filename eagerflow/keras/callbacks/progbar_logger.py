"""ProgbarLogger: the progress output fit prints (the last callback fit runs)."""
from __future__ import annotations

from ..progbar import Progbar
from .callback import Callback


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
