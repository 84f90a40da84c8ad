"""Which strategy is in force and where the running code stands: in a replica (inside `Strategy.run`)
or in the cross-replica context (inside `strategy.scope()`, or a `merge_call`'s function).

Per thread, as in TensorFlow: `Strategy.run` starts one thread per local replica and sets each one's
state. Outside every scope the default strategy (one replica, no distribution) is in force, and code
is in its default replica context.
"""
from __future__ import annotations

import threading

from ..core import context as _core_context
from ..core.context import state as _core_state


class _DistributionState(threading.local):
    def __init__(self):
        self.scopes = []              # strategies whose scope() this thread is in, innermost last
        self.replica_context = None   # the ReplicaContext of the replica this thread runs, if any
        self.cross_replica = False    # True while a merge_call's function runs


_state = _DistributionState()
_default = {"strategy": None, "replica_context": None}


def _default_strategy():
    if _default["strategy"] is None:
        from .default import DefaultStrategy
        _default["strategy"] = DefaultStrategy()
    return _default["strategy"]


def current_scope_strategy():
    """The strategy whose scope this thread is in, or None (the default strategy)."""
    return _state.scopes[-1] if _state.scopes else None


def get_strategy():
    """`tf.distribute.get_strategy`: the strategy whose scope is entered, else the default one."""
    return current_scope_strategy() or _default_strategy()


def has_strategy():
    """`tf.distribute.has_strategy`: whether a strategy other than the default is in force."""
    return current_scope_strategy() is not None


def get_replica_context():
    """`tf.distribute.get_replica_context`: the replica this code runs in; None in the cross-replica
    context (inside a strategy's scope, or a merge_call); the default replica outside every scope."""
    if _state.cross_replica:
        return None
    if _state.replica_context is not None:
        return _state.replica_context
    if current_scope_strategy() is not None:
        return None
    if _default["replica_context"] is None:
        from .replica_context import DefaultReplicaContext
        _default["replica_context"] = DefaultReplicaContext(_default_strategy())
    return _default["replica_context"]


def in_cross_replica_context():
    """`tf.distribute.in_cross_replica_context`: inside a scope (or a merge_call), not in a replica."""
    return _state.cross_replica or (_state.replica_context is None and current_scope_strategy() is not None)


def _replica_info():
    """(num_replicas_in_sync, in_cross_replica_context) for the losses of ops/ (core.context.replica_info)."""
    context = get_replica_context()
    if context is None:
        return get_strategy().num_replicas_in_sync, True
    return context.num_replicas_in_sync, False


_core_context.replica_info = _replica_info


class enter_scope:
    """Pushes `strategy` as this thread's strategy (and its variable hook); TensorFlow's refusal to
    nest two different strategies' scopes."""

    def __init__(self, strategy):
        self._strategy = strategy

    def __enter__(self):
        outer = current_scope_strategy()
        if outer is not None and outer is not self._strategy:
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: {outer} is not {self._strategy}")
        _state.scopes.append(self._strategy)
        hook = self._strategy.extended._variable_created
        if hook is not None:
            _core_state.variable_hooks.append(hook)
        return self._strategy

    def __exit__(self, *exc):
        _state.scopes.pop()
        hook = self._strategy.extended._variable_created
        if hook is not None:
            _core_state.variable_hooks.remove(hook)
        return False


def experimental_set_strategy(strategy):
    """`tf.distribute.experimental_set_strategy`: enter `strategy`'s scope for good (None leaves it)."""
    while _state.scopes:
        enter_scope(_state.scopes[-1]).__exit__()
    if strategy is not None:
        enter_scope(strategy).__enter__()


class replica_state:
    """Makes this thread run as `replica_context`'s replica of its strategy (inside `Strategy.run`)."""

    def __init__(self, replica_context):
        self._context = replica_context

    def __enter__(self):
        self._saved = (_state.replica_context, _state.cross_replica, list(_state.scopes))
        _state.replica_context, _state.cross_replica = self._context, False
        if not _state.scopes or _state.scopes[-1] is not self._context.strategy:
            _state.scopes.append(self._context.strategy)
        return self._context

    def __exit__(self, *exc):
        _state.replica_context, _state.cross_replica, _state.scopes[:] = self._saved
        return False


class cross_replica_state:
    """Makes this thread run in the cross-replica context (a merge_call's function)."""

    def __enter__(self):
        self._saved = _state.cross_replica
        _state.cross_replica = True

    def __exit__(self, *exc):
        _state.cross_replica = self._saved
        return False
