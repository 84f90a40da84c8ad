"""Whether a `jit_compile=True` call waits for XLA: `tf.config.experimental.set_synchronous_execution`
and `tf.test.experimental.sync_devices`, as TensorFlow has them.

Synchronous (the default, as TensorFlow's on CPU): the call returns once the executable has run,
so a timer around it measures the work. Asynchronous: the call returns as soon as XLA has the
work queued; the outputs are DeviceTensors (core/tensor.py) that wait when first read, so the
Python of the next step overlaps the computation of this one (a chain of small compiled calls
feeding each other runs about 1.6x faster here). `sync_devices()` waits for everything queued,
which is what a benchmark needs before it reads the clock. Ops outside compiled functions run
on NumPy and are always synchronous.

Kept apart from codegen/xla.py so the switch and `sync_devices()` never import JAX.
"""
from __future__ import annotations

import threading

from ..core.context import state

synchronous = True  # read by codegen/xla.py on every compiled call

_pending = []  # one output of each asynchronous call that may still be running
_lock = threading.Lock()
_PRUNE_AT = 64  # past this many pending outputs, forget the finished ones


def set_synchronous_execution(enable):
    """`True`: a compiled call returns when its work is done; `False`: as soon as it is queued;
    `None`: the default (synchronous)."""
    global synchronous
    synchronous = True if enable is None else bool(enable)


def get_synchronous_execution():
    return synchronous


def queued(output):
    """An asynchronous call's output (any of them: one executable computes them all), kept until
    `sync_devices` waits for it."""
    with _lock:
        _pending.append(output)
        if len(_pending) > _PRUNE_AT:
            _pending[:] = [a for a in _pending if not a.is_ready()]


def sync_devices():
    """Blocks until every compiled call made so far has finished (TensorFlow's
    `tf.test.experimental.sync_devices`: for benchmarks under asynchronous execution)."""
    if state.graph is not None:
        raise RuntimeError("sync_devices() must only be called in Eager mode, outside tf.functions")
    with _lock:
        waiting = list(_pending)
        _pending.clear()
    for output in waiting:
        output.block_until_ready()
