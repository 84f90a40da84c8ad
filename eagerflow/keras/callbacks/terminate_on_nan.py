"""TerminateOnNaN: stops fit at the first non-finite batch loss."""
from __future__ import annotations

import numpy as np

from .callback import Callback


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
