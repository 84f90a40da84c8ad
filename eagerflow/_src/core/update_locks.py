"""One lock per piece of state that ops read, change and write back: a variable's value, a random
generator's state, a mutable hash table.

Why: `v.assign_add(1)` reads the array, adds and stores the result. Two threads doing it at once both
read the old array and one update is lost (8 threads x 2,000 `assign_add` lost about a sixth of them).
TensorFlow's resource-variable kernels hold the variable's mutex for the whole update; the kernels
here do the same through `locked_update`, so an update is atomic eagerly, inside a `tf.function` (the
generated code calls the same kernels) and in fused optimizer steps. Reads take no lock: a read
sees the array before or after an update, never a half-made one, because an update stores a whole
new array (or, for the fused optimizers, updates in place an array nothing else holds).

A Variable makes its lock when it is made; any other holder gets one on first use, under one module
lock, so objects built without their constructor get theirs too. An uncontended lock costs a few
percent of an eager `assign_add`; the hottest kernels (assign, assign_add, assign_sub) take it inline
rather than through `locked_update`'s extra call.
"""
from __future__ import annotations

import functools
import threading

_making = threading.Lock()


def update_lock(holder) -> threading.Lock:
    """The lock that serialises updates of `holder`'s state (made on first use, once)."""
    try:
        return holder._update_lock
    except AttributeError:
        with _making:
            try:
                return holder._update_lock
            except AttributeError:
                lock = holder._update_lock = threading.Lock()
                return lock


def locked_update(kernel):
    """A kernel whose first argument is the state holder, run while holding that holder's lock."""
    @functools.wraps(kernel)
    def run_locked(holder, *args, **kwargs):
        try:
            lock = holder._update_lock
        except AttributeError:
            lock = update_lock(holder)
        lock.acquire()  # NOTE: acquire/release cost half of `with lock:` on CPython 3.11
        try:
            return kernel(holder, *args, **kwargs)
        finally:
            lock.release()
    return run_locked


class UpdateLocks:
    """Holds the update locks of several holders at once (a fused optimizer step's variable and slots, the
    variables a jit_compile=True call reads and writes back), taken in a fixed order (by id) so that two
    updates sharing holders cannot deadlock; a holder passed twice is locked once."""

    __slots__ = ("_locks",)

    def __init__(self, holders):
        locks = []
        for holder in sorted(holders, key=id):  # (Variables are unhashable: no set)
            try:
                lock = holder._update_lock
            except AttributeError:
                lock = update_lock(holder)
            if not locks or locks[-1] is not lock:
                locks.append(lock)
        self._locks = locks

    def __enter__(self):
        for lock in self._locks:
            lock.acquire()
        return self

    def __exit__(self, *exc):
        for lock in reversed(self._locks):
            lock.release()


def locked_updates(count):
    """For a kernel that updates its first `count` arguments: run it holding their locks (UpdateLocks)."""
    def wrap(kernel):
        @functools.wraps(kernel)
        def run_locked(*args, **kwargs):
            with UpdateLocks(args[:count]):
                return kernel(*args, **kwargs)
        return run_locked
    return wrap
