"""keras.mixed_precision: dtype policies (Keras 3.15's DTypePolicy) and variable autocasting.

A policy names two dtypes: the one a layer computes in and the one its weights are stored in.
"mixed_bfloat16" computes in bfloat16 and keeps float32 weights; "mixed_float16" the same with
float16; a float dtype's name ("float32") uses that dtype for both. A layer made without `dtype`
takes the global policy (`set_global_policy`), as Keras does.

How a mixed layer computes: `Layer.__call__` casts floating inputs to the compute dtype and, for
the length of the call, makes each float weight read as the compute dtype (`autocast`): the
float32 variable is read and cast, so the gradient flows back through the Cast into float32 and
the optimizer updates float32 weights. Outside layer calls (the optimizer, `layer.kernel.numpy()`)
weights read as themselves. The scope is per thread.
"""
from __future__ import annotations

import threading

from .._src.core import dtypes as _dt

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_MIXED = {"mixed_float16": ("float16", "float32"), "mixed_bfloat16": ("bfloat16", "float32")}


class DTypePolicy:
    """A dtype policy: `compute_dtype` and `variable_dtype` (names, as Keras gives them)."""

    def __init__(self, name=None):
        from .backend_settings import floatx
        name = floatx() if name is None else name
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name} "
                            f"(of type {type(name)})")
        if name in _MIXED:
            compute, variable = _MIXED[name]
        elif name in _FLOATS:
            compute = variable = name
        else:
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies include "
                             f"'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as 'float32'.")
        self._name, self._compute_dtype, self._variable_dtype = name, compute, variable

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> str:
        return self._compute_dtype

    @property
    def variable_dtype(self) -> str:
        return self._variable_dtype

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other._name == self._name

    def __hash__(self):
        return hash(self._name)

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


Policy = DTypePolicy  # tf.keras.mixed_precision.Policy (Keras 2's name), the same class in Keras 3

_GLOBAL: list = []  # one process-wide policy, as Keras keeps it


def set_global_policy(policy):
    """The policy of layers made from now on without a `dtype` (None: back to floatx())."""
    if policy is None:
        _GLOBAL.clear()
        return
    policy = policy if isinstance(policy, DTypePolicy) else DTypePolicy(getattr(policy, "name", policy))
    _GLOBAL[:] = [policy]


def global_policy() -> DTypePolicy:
    return _GLOBAL[0] if _GLOBAL else DTypePolicy()


def get(identifier) -> DTypePolicy:
    """A layer's policy from its `dtype` argument: None (the global policy), a name, a DType, a
    DTypePolicy or the config dict Keras 3 writes ({"class_name": "DTypePolicy", "config": {...}})."""
    if identifier is None:
        return global_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        identifier = (identifier.get("config") or {}).get("name")
        if identifier is None:
            return global_policy()
    if isinstance(identifier, _dt.DType):
        identifier = identifier.name
    if isinstance(identifier, str) and identifier not in _MIXED and identifier not in _FLOATS:
        name = _dt.as_dtype(identifier).name  # an int or other dtype: both halves that dtype, as Keras allows
        policy = DTypePolicy.__new__(DTypePolicy)
        policy._name = policy._compute_dtype = policy._variable_dtype = name
        return policy
    return DTypePolicy(getattr(identifier, "name", identifier))


# --- variable autocasting inside a mixed layer's call ---
_autocast = threading.local()


def autocast_dtype():
    """The dtype float weights read as now (a mixed layer's compute dtype), or None."""
    return getattr(_autocast, "dtype", None)


class autocast:
    """`with autocast(dtype):` float weights read in the block are cast to `dtype` (None: as stored)."""

    def __init__(self, dtype):
        self._dtype = dtype

    def __enter__(self):
        self._previous = getattr(_autocast, "dtype", None)
        _autocast.dtype = self._dtype
        return self

    def __exit__(self, *exc):
        _autocast.dtype = self._previous
        return False


def call_scope(compute, variable, enabled):
    """The autocast scope a layer's call runs in, as Keras 3 chooses it: inside another layer's scope,
    one of its own when its compute dtype differs from that scope's (None for a layer that does not
    autocast or computes in a non-float dtype), so a float32 layer in a mixed model reads float32
    weights; outside any scope, one only when its policy is mixed. None: no new scope."""
    current = autocast_dtype()
    if current is not None:
        if not enabled or not compute.is_floating:
            return autocast(None)
        return autocast(compute) if compute is not current else None
    return autocast(compute) if enabled and compute is not variable else None


def __getattr__(name):
    if name == "LossScaleOptimizer":
        from .optimizers.loss_scale_optimizer import LossScaleOptimizer as cls  # Keras exports it here too
        return cls
    raise AttributeError(f"module 'eagerflow.keras.mixed_precision' has no attribute {name!r}")
