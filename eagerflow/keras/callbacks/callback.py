"""`keras.callbacks.Callback`: the hooks fit/evaluate/predict call at the begin and end of training,
epochs and batches. `model.stop_training = True` ends fit after the current epoch."""
from __future__ import annotations


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
