"""A tf.function used as a method: one Function per instance, holding the instance weakly.

`Function.__get__` is this module's `bind_to_instance` (assigned in the class body, so no extra
call frame): `obj.method` looks the instance up in the class-level Function's WeakKeyDictionary
and, the first time, makes the instance's own Function with the same options. That Function has
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


def bind_to_instance(function, instance, owner):
    """`function.__get__(instance, owner)`: the Function of `function`'s method bound to `instance`
    (made on first access and kept while the instance lives), or `function` itself on the class."""
    if instance is None:
        return function
    try:
        bound = function._bound.get(instance)
    except TypeError:
        raise TypeError(
            f"unhashable type: {type(instance).__name__!r}. A tf.function method keeps traces per instance, "
            f"so the instance must be hashable: make the class @dataclass(frozen=True) or @dataclass(eq=False), "
            f"or give it a __hash__.") from None
    if bound is None:
        method = function._python_function.__get__(instance, owner)
        if isinstance(method, types.MethodType) and method.__self__ is instance:  # held weakly
            python_function, weak_instance = method.__func__, instance
        else:  # a staticmethod or classmethod underneath: nothing of the instance to hold
            python_function, weak_instance = method, None
        del method
        bound = type(function)(python_function, function._input_signature, function._autograph,
                               function._jit_compile, function._reduce_retracing, function._name,
                               experimental_max_traces=function._max_traces, _instance=weak_instance,
                               experimental_check_parity=function._check_parity,
                               experimental_retrace_on_stale_captures=function._retrace_on_stale)
        try:
            function._bound[instance] = bound
        except TypeError as err:
            raise TypeError(f"{err}: a tf.function method holds its instance weakly; add "
                            f"'__weakref__' to the __slots__ of {type(instance).__name__}.") from None
    return bound
