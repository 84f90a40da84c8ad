"""LambdaCallback: a callback made of plain functions, one per hook."""
from __future__ import annotations

from .callback import Callback


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
