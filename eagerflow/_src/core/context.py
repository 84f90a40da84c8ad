"""Ambient execution state: which graph (if any) is being built, which tapes are recording, and
the random seeds.

Why one module: the architecture keeps every "am I in a graph?" question in one place.
`ops/registry.py:bind` reads `state.graph` once per op; nothing else in ops/ asks.
State is per thread (as in TensorFlow, tapes and graph-building are thread-local), except the
user-facing `run_functions_eagerly` switch and the global random seed, which are process-wide.
"""
from __future__ import annotations

import random as _pyrandom
import threading


class _ThreadState(threading.local):
    def __init__(self):
        # The graph being traced into, or None when executing eagerly. Duck-typed: anything with
        # `add_operation(opdef, inputs, attrs)` (graph/graph.py provides it).
        self.graph = None
        self.graph_stack = []
        # GradientTapes that are active in this thread (innermost last).
        self.tapes = []
        # While a tf.function traces, the Variables created by its Python code (a trace may create
        # variables on its first run only); None otherwise.
        self.created_variables = None
        # Called with each Variable made in this thread (a tf.distribute scope broadcasts its initial
        # value from the chief so every worker starts alike); innermost scope last.
        self.variable_hooks = []
        # While a gradient rule runs: for each input of the op, whether its gradient is needed.
        self.grad_needs = None


state = _ThreadState()


def _no_distribution():
    return 1, False


# tf.distribute's answer to "how many replicas share this step, and is this the cross-replica
# context?": (num_replicas_in_sync, in_cross_replica_context). distribute/context.py installs its own
# when it loads; tf.nn.compute_average_loss and scale_regularization_loss ask it.
replica_info = _no_distribution

_run_functions_eagerly = False


def executing_eagerly() -> bool:
    return state.graph is None


def get_graph():
    return state.graph


class graph_scope:
    """`with graph_scope(g):` makes ops record into `g` (None: execute eagerly)."""

    __slots__ = ("_graph",)

    def __init__(self, graph):
        self._graph = graph

    def __enter__(self):
        state.graph_stack.append(state.graph)
        state.graph = self._graph
        return self._graph

    def __exit__(self, *exc):
        state.graph = state.graph_stack.pop()
        return False


def run_functions_eagerly(run_eagerly: bool) -> None:
    global _run_functions_eagerly
    _run_functions_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _run_functions_eagerly


class _RandomSeeds:
    """TensorFlow's global seed (`tf.random.set_seed`) and the sequence of op seeds it drives.

    Process-wide, as in TensorFlow: a seed set in one thread applies to every thread. The lock makes
    "read the global seed, take the next op seed" one step, so threads drawing at the same time get
    distinct op seeds from the one sequence `set_seed` restarts, and never a global seed paired
    with an op seed of the sequence it replaced."""

    def __init__(self):
        self._lock = threading.Lock()
        self._global_seed = None
        self._op_seeds = _pyrandom.Random()

    @property
    def global_seed(self):
        """The seed `tf.random.set_seed` last set, or None."""
        return self._global_seed

    def reset(self, seed) -> None:
        with self._lock:
            self._global_seed = None if seed is None else int(seed)
            self._op_seeds = _pyrandom.Random(self._global_seed)

    def pair(self, op_seed, high: int):
        """(global seed or None, op seed): the given op seed, or with a global seed and no op seed,
        the next one of the sequence (in [0, high]); (None, None) when neither is set."""
        with self._lock:
            if op_seed is None and self._global_seed is not None:
                op_seed = self._op_seeds.randint(0, high)
            return self._global_seed, op_seed


random_seeds = _RandomSeeds()
