"""Restorations waiting for their objects: what a checkpoint holds for an object that does not exist yet.

A checkpoint is matched to objects by path (eagerflow/train/restore.py). When a saved path leads through an
object that does not yet have the named child (a layer not built yet, an optimizer before its first step, an
attribute assigned later), the restoration waits on the nearest existing object, and resumes when that object
gets new state: `notify(owner)` is called by `tf.Module.__setattr__`, Keras' `Layer.__setattr__` and an
optimizer's `build`. Waiting entries hold their owner weakly, so a waiting restoration never keeps a model alive.

Why here, below train/: the objects that notify live on lower floors than the checkpoint code, and must not
import it; the checkpoint code registers its resume function through `wait`.
"""
from __future__ import annotations

import weakref

# id(owner) -> (weak reference to owner, [resume callables]); the weak reference's callback removes the entry
# when the owner dies, so an id is never read for another object.
_WAITING: dict = {}


def wait(owner, resume) -> bool:
    """Call `resume(owner)` each time `owner` gets new state, while `owner` lives. False if `owner` cannot be
    referenced weakly (it cannot be waited on)."""
    key = id(owner)
    entry = _WAITING.get(key)
    if entry is None or entry[0]() is not owner:
        try:
            ref = weakref.ref(owner, lambda _, key=key: _WAITING.pop(key, None))
        except TypeError:
            return False
        entry = (ref, [])
        _WAITING[key] = entry
    if all(r is not resume for r in entry[1]):
        entry[1].append(resume)
    return True


def stop_waiting(owner, resume) -> None:
    entry = _WAITING.get(id(owner))
    if entry is not None and entry[0]() is owner:
        entry[1][:] = [r for r in entry[1] if r is not resume]
        if not entry[1]:
            _WAITING.pop(id(owner), None)


def notify(owner) -> None:
    """`owner` has new state (an attribute set, weights built): resume what waits on it."""
    if not _WAITING:
        return
    entry = _WAITING.get(id(owner))
    if entry is None or entry[0]() is not owner:
        return
    for resume in list(entry[1]):
        resume(owner)
