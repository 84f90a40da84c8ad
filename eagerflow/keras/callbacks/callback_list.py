"""CallbackList: the callbacks of one fit/evaluate/predict call, run in order as one callback."""
from __future__ import annotations

from .callback import Callback
from .history import History
from .progbar_logger import ProgbarLogger



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
