"""`tf.train.CheckpointOptions`: how a checkpoint is written or read.

eagerflow writes and reads on the calling thread and on the host, so the device and asynchronous options are
recorded and have no further effect; `experimental_write_callbacks` run after each write, given the prefix when
they take an argument, as in TensorFlow.
"""
from __future__ import annotations

import inspect


class CheckpointOptions:
    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False, experimental_skip_slot_variables=False,
                 experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.enable_async = bool(experimental_enable_async_checkpoint or enable_async)
        self.experimental_enable_async_checkpoint = self.enable_async
        self.experimental_write_callbacks = list(experimental_write_callbacks or [])
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback

    def __copy__(self):
        return CheckpointOptions(self.experimental_io_device, self.enable_async, self.experimental_write_callbacks,
                                 self.enable_async, self.experimental_skip_slot_variables,
                                 self.experimental_sharding_callback)


def check_options(options) -> None:
    """TensorFlow's error (an AttributeError, before anything is written) for options of another type."""
    if options is not None and not isinstance(options, CheckpointOptions):
        raise AttributeError(f"'{type(options).__name__}' object has no attribute "
                             f"'experimental_enable_async_checkpoint'")


def run_write_callbacks(options, save_path) -> None:
    """The options' write callbacks, after a write: with the prefix when they take an argument."""
    if options is None:
        return
    for callback in options.experimental_write_callbacks:
        try:
            takes_path = len(inspect.signature(callback).parameters) > 0
        except (TypeError, ValueError):
            takes_path = True
        callback(save_path) if takes_path else callback()
