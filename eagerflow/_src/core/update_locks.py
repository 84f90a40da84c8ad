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


def locked_updates(count):
    """For a kernel that updates its first `count` arguments (a fused optimizer step: the variable and its
    slots): run it holding each one's lock, taken in a fixed order (by id) so that two such kernels sharing
    holders cannot deadlock."""
    def wrap(kernel):
        @functools.wraps(kernel)
        def run_locked(*args, **kwargs):
            locks = []
            for holder in sorted(args[:count], key=id):  # (Variables are unhashable: no set)
                try:
                    lock = holder._update_lock
                except AttributeError:
                    lock = update_lock(holder)
                if not locks or locks[-1] is not lock:  # one holder passed twice is locked once
                    locks.append(lock)
            for lock in locks:
                lock.acquire()
            try:
                return kernel(*args, **kwargs)
            finally:
                for lock in reversed(locks):
                    lock.release()
        return run_locked
    return wrap
