"""Who is told when a function's graph is traced: `tf.summary.trace_on` listens here.

Called once per ConcreteFunction, when it is built (never on the cached-call path). A listener is a
callable `(graph, name)`; it is held until removed.
"""
from __future__ import annotations

import threading

_listeners = []
_lock = threading.Lock()


def add(listener):
    with _lock:
        if listener not in _listeners:
            _listeners.append(listener)


def remove(listener):
    with _lock:
        if listener in _listeners:
            _listeners.remove(listener)


def traced(graph, name):
    """Tells every listener that `graph` (of function `name`) was traced."""
    for listener in list(_listeners):
        listener(graph, name)
