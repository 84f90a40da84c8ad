"""`tf.name_scope` and `tf.init_scope`: context managers over the ambient state of core/context.py.

A name scope prefixes the names of the ops a graph builds inside it, as TensorFlow forms them:
`with tf.name_scope("layer1"): tf.matmul(...)` gives the node `layer1/MatMul`; entering the same
scope again in one graph gives `layer1_1/`; a name ending in "/" re-enters that exact scope, and ""
returns to the root. The prefix lives on the graph (`Graph.name_scope`), so scopes of one trace never
leak into another. Eagerly there are no node names: the scope only returns its accumulated name.

`init_scope` steps out of every graph being built into eager execution, with the gradient tapes
paused, as TensorFlow does (variables and constants made inside it live outside the function).
"""
from __future__ import annotations

import re
import threading

from .context import state


class _EagerScopes(threading.local):
    def __init__(self):
        self.prefix = ""


_eager = _EagerScopes()


# The names TensorFlow accepts for a scope in a graph (at the root, and nested).
_ROOT_SCOPE = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_SCOPE = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


def check_scope_name(name, root):
    """TensorFlow's refusal, while building a graph, of a scope (or op) name its node names cannot hold."""
    if not (_ROOT_SCOPE if root else _SCOPE).match(name):
        kind = "root scope" if root else "scope"
        raise ValueError(f"'{name}' is not a valid {kind} name. A {'root scope' if root else 'scope'} name has to "
                         f"match the following pattern: {(_ROOT_SCOPE if root else _SCOPE).pattern}")


def current_scope():
    """The name scope in effect ("" at the root, else "outer/inner/"): the graph's while one is being
    built, the eager one otherwise. A variable's name starts with it, as in TensorFlow."""
    graph = state.graph
    if graph is not None and hasattr(graph, "name_scope"):
        return graph.name_scope
    return _eager.prefix


class name_scope:
    """`tf.name_scope(name)`: `with` it to prefix op names in graphs; `as` gives the full scope."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._exit = None

    @property
    def name(self):
        return self._name

    def __enter__(self):
        graph = state.graph
        owner = graph if graph is not None and hasattr(graph, "name_scope") else None
        current = owner.name_scope if owner is not None else _eager.prefix
        if not self._name:
            scope = ""
        elif self._name.endswith("/"):  # an absolute scope, entered again as it is
            scope = self._name
        elif owner is not None:
            check_scope_name(self._name, root=not current)
            scope = owner.unique_name(current + self._name) + "/"
        else:
            scope = current + self._name + "/"
        if owner is not None:
            owner.name_scope = scope
            self._exit = (owner, current)
        else:
            _eager.prefix = scope
            self._exit = (None, current)
        return scope

    def __exit__(self, *exc):
        owner, previous = self._exit
        if owner is not None:
            owner.name_scope = previous
        else:
            _eager.prefix = previous
        return False


class init_scope:
    """`tf.init_scope()`: run the block eagerly (outside every graph being traced), tapes paused."""

    def __enter__(self):
        state.graph_stack.append(state.graph)
        state.graph = None
        self._tapes = state.tapes
        state.tapes = []
        return None

    def __exit__(self, *exc):
        state.graph = state.graph_stack.pop()
        state.tapes = self._tapes
        return False


def get_current_name_scope() -> str:
    """`tf.get_current_name_scope`: the scope ops would be named under now, without the final "/"
    ("a/b"; "" at the root). Variables can prefix their names with it, as TensorFlow's do."""
    graph = state.graph
    prefix = graph.name_scope if graph is not None and hasattr(graph, "name_scope") else _eager.prefix
    return prefix[:-1] if prefix.endswith("/") else prefix
