"""`jnp` and `lax` for the JAX lowerings written beside the kernels, imported only when one runs.

A lowering is usually one line next to its op's `defop`: `Exp.jax = lambda x: jnp.exp(x)`. The ops
modules are loaded with `import eagerflow`, which must not import JAX (it is an optional extra,
and its import costs about half a second): these stand-ins resolve `jnp.exp` on first use.
`jnp.exp` is a callable that imports `jax.numpy` when called; only codegen/xla.py calls lowerings,
and it has imported JAX already.
"""
from __future__ import annotations

import importlib

import numpy as np


class _LazyFunction:
    __slots__ = ("_module", "_name", "_fn")

    def __init__(self, module, name):
        self._module, self._name, self._fn = module, name, None

    def __call__(self, *args, **kwargs):
        fn = self._fn
        if fn is None:
            fn = self._fn = getattr(importlib.import_module(self._module), self._name)
        return fn(*args, **kwargs)

    def __repr__(self):
        return f"<lazy {self._module}.{self._name}>"


class _LazyModule:
    """`jnp.name` -> a lazy callable for `jax.numpy.name` (functions only: dtypes come from NumPy)."""

    def __init__(self, module):
        self._module = module
        self._functions = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        fn = self._functions.get(name)
        if fn is None:
            fn = self._functions[name] = _LazyFunction(self._module, name)
        return fn

    def module(self):
        """The real module (imports it): for what is not a function, e.g. `jnp.module().linalg`."""
        return importlib.import_module(self._module)


jnp = _LazyModule("jax.numpy")
lax = _LazyModule("jax.lax")
jsp = _LazyModule("jax.scipy.special")
jnn = _LazyModule("jax.nn")


def jax_module():
    """The `jax` module itself (jax.vjp, jax.vmap): for lowerings that need a transformation.
    Called only while codegen/xla.py compiles, when JAX is imported already."""
    return importlib.import_module("jax")


class _OnHost:
    """`OpDef.jax = ON_HOST`: the op runs its NumPy kernel on the host during each compiled call
    (jax.experimental.io_callback). Random ops use it: their draws continue eagerflow's seeded
    streams (ops/random/draws.py), so a compiled function draws what the plain one would."""

    def __repr__(self):
        return "ON_HOST"


ON_HOST = _OnHost()


def static_dims(sizes) -> tuple:
    """A shape or permutation operand of a lowering as a tuple of Python ints: shapes are static under
    XLA, so Shape gives a NumPy array there and Reshape, Transpose, Fill and BroadcastTo read it."""
    return tuple(int(d) for d in np.ravel(sizes))
