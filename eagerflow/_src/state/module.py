"""tf.Module: a container whose variables are found by walking its attributes.

Why walk instead of register: TensorFlow users just assign `self.w = tf.Variable(...)` or keep
lists and dicts of layers; `trainable_variables` must find them all, once each, in TensorFlow's
order (attributes sorted by name, depth first).
"""
from __future__ import annotations

import contextlib
import re

from .deferred_restore import notify as _notify_new_state
from .variables import Variable

_NO_STATE = (bool, int, float, str, bytes, tuple, type(None))  # values no checkpoint restores into
_VALID_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-/]*$")


def _camel_to_snake(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


class Module:
    """Base class for objects that own variables and sub-modules."""

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not _VALID_NAME.match(name):
            raise ValueError(f"'{name}' is not a valid module name. Module names must be valid Python identifiers "
                             f"(e.g. a valid class name).")
        self._name = name

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if not isinstance(value, _NO_STATE):
            _notify_new_state(self)  # a checkpoint restored earlier may hold this attribute's values

    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self):
        return contextlib.nullcontext(self._name + "/")

    @property
    def variables(self):
        return tuple(self._flatten(lambda v: isinstance(v, Variable)))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and v.trainable))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and not v.trainable))

    @property
    def submodules(self):
        return tuple(self._flatten(lambda v: isinstance(v, Module)))

    def _flatten(self, predicate, recursive=True):
        """Every value below this module's attributes that satisfies `predicate`, each once."""
        seen = {id(self)}
        out = []
        _walk(self, predicate, recursive, seen, out)
        return out

    @classmethod
    def with_name_scope(cls, method):
        return method

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} object at {id(self):#x}>"


def _attributes(module):
    d = vars(module)
    return [d[k] for k in sorted(d) if not k.startswith("_self_")]


def _walk(module, predicate, recursive, seen, out):
    """TensorFlow's order: the matches among this module's own attributes (sorted by name, lists
    and dicts entered in place) first, then each sub-module in turn."""
    submodules = []
    _collect(_attributes(module), predicate, seen, out, submodules)
    if recursive:
        for sub in submodules:
            _walk(sub, predicate, recursive, seen, out)


def _collect(values, predicate, seen, out, submodules):
    for value in values:
        if isinstance(value, (Variable, Module)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            if predicate(value):
                out.append(value)
            if isinstance(value, Module):
                submodules.append(value)
        elif isinstance(value, dict):
            _collect([value[k] for k in sorted(value, key=str)], predicate, seen, out, submodules)
        elif isinstance(value, (list, tuple)):
            _collect(value, predicate, seen, out, submodules)
