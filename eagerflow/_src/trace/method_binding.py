"""A tf.function used as a method: one Function per instance, holding the instance weakly.

`Function.__get__` looks the instance up in the class-level Function's WeakKeyDictionary (inline:
`obj.method` is one frame) and, the first time, calls this module's `bind`, which makes the
instance's own Function with the same options (`Function._for_instance`). That Function has
its own trace cache (traces read `self`, so two instances never share a trace) and refers to the
instance only through a weak reference: the dictionary's value must not keep its own key alive,
or every instance a method was called on would live as long as the class. A bound Function that
outlives its instance (`M().g(x)`, `f = M().g`) traces with `self` None, as TensorFlow's does
(Function.python_function).

Why a module of its own: binding is a job apart from calling (function.py) and tracing
(tracer.py), with its own error messages for instances that cannot be keys of a weak dictionary.
"""
from __future__ import annotations

import types


def bind(by_instance, python_function, instance, owner, make):
    """The Function of `python_function`'s method bound to `instance`, made by `make(function,
    instance or None)` and kept in `by_instance` (a WeakKeyDictionary) while the instance lives:
    what `Function.__get__` runs when its dictionary has no entry for the instance yet."""
    try:
        bound = by_instance.get(instance)
    except TypeError:
        raise TypeError(
            f"unhashable type: {type(instance).__name__!r}. A tf.function method keeps traces per instance, "
            f"so the instance must be hashable: make the class @dataclass(frozen=True) or @dataclass(eq=False), "
            f"or give it a __hash__.") from None
    if bound is None:
        method = python_function.__get__(instance, owner)
        if isinstance(method, types.MethodType) and method.__self__ is instance:  # held weakly
            python_function, weak_instance = method.__func__, instance
        else:  # a staticmethod or classmethod underneath: nothing of the instance to hold
            python_function, weak_instance = method, None
        del method
        bound = make(python_function, weak_instance)
        try:
            by_instance[instance] = bound
        except TypeError as err:
            raise TypeError(f"{err}: a tf.function method holds its instance weakly; add "
                            f"'__weakref__' to the __slots__ of {type(instance).__name__}.") from None
    return bound
