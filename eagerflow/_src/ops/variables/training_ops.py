"""Fused optimizer updates (like TensorFlow's training ops): one op updates a variable and its slots.

Why fused: written with assign ops, one Adam step on a 784x128 kernel allocates a dozen fresh
arrays of that size (every write replaces the variable's array), and allocating large arrays
costs more than the arithmetic. The fused kernel updates in place when nothing but the variable
holds the array (copy-on-write, as TensorFlow's resource variables do): a tensor read earlier
still holds its own array, so it keeps its value.
"""
from __future__ import annotations

import sys

import numpy as np

from ...core.errors import InvalidArgumentError
from ...core.update_locks import locked_updates
from ..registry import NO_GRADIENT, defop
from ..lazy_jax import jnp  # callables that import JAX on first use only

# References to an array held by nothing but `holder._array`, seen from `_owned_array`:
# the attribute, the local name and getrefcount's own argument.
_SOLE_OWNER_REFCOUNT = 3


def _owned_array(holder):
    """`holder._array`, made safe to update in place: copied first when anything else holds it (or a view of it)."""
    arr = holder._array
    if sys.getrefcount(arr) > _SOLE_OWNER_REFCOUNT or arr.base is not None or not arr.flags.writeable:
        arr = arr.copy()
        holder._array = arr
    return arr


def _check(var, name, like):
    if var._array.shape != like.shape or var._array.dtype != like.dtype:
        raise InvalidArgumentError(
            None, None, f"{name} and grad do not have the same shape or dtype: {list(var._array.shape)} "
                        f"{var._array.dtype} vs {list(like.shape)} {like.dtype}")


@locked_updates(3)  # var, m and v change together: one step at a time
def _apply_adam_kernel(var, m, v, beta1_power, beta2_power, lr, one_minus_beta1, one_minus_beta2, epsilon, grad):
    """m += (g - m)(1 - b1); v += (g^2 - v)(1 - b2); var -= lr sqrt(1 - b2^t)/(1 - b1^t) * m / (sqrt(v) + eps).
    `1 - b1` comes in computed in double precision, as Keras' `(g - m) * (1 - beta_1)` has it (1 - 0.9f in
    float32 would be 0.10000002, not 0.1)."""
    for holder, name in ((var, "var"), (m, "m"), (v, "v")):
        _check(holder, name, grad)
    dtype = grad.dtype.type
    alpha = dtype(lr * np.sqrt(1 - beta2_power) / (1 - beta1_power))
    m_arr, v_arr, var_arr = _owned_array(m), _owned_array(v), _owned_array(var)
    tmp = np.subtract(grad, m_arr)
    tmp *= one_minus_beta1
    m_arr += tmp
    np.square(grad, out=tmp)
    tmp -= v_arr
    tmp *= one_minus_beta2
    v_arr += tmp
    np.sqrt(v_arr, out=tmp)
    tmp += dtype(epsilon)
    step = np.multiply(m_arr, alpha)
    step /= tmp
    var_arr -= step
    return []


def _apply_adam_infer(inputs, attrs):
    grad = inputs[-1]
    for t in inputs[3:9]:
        if t.dtype is not grad.dtype:
            raise InvalidArgumentError(None, None, f"AdamUpdate: all scalar inputs must have the grad's dtype "
                                                   f"{grad.dtype.name}, got {t.dtype.name}")
    return []


AdamUpdate = defop(
    "AdamUpdate",
    inputs=("var", "m", "v", "beta1_power", "beta2_power", "lr", "one_minus_beta1", "one_minus_beta2", "epsilon",
            "grad"),
    kernel=_apply_adam_kernel, infer=_apply_adam_infer, grad=NO_GRADIENT, multi_output=True, stateful=True,
    doc="One Adam step on a variable and its two moment slots (Keras 3's formula, epsilon outside the bias "
        "correction). Like TensorFlow's ResourceApplyAdam, but fed 1 - beta as Keras computes it.")

# --- JAX lowering (jit_compile=True, codegen/xla.py): the same step as new values for the three
# variables (XLA updates them in place when it can). ---


def _jax_adam(var, m, v, beta1_power, beta2_power, lr, one_minus_beta1, one_minus_beta2, epsilon, grad):
    alpha = lr * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
    m = m + (grad - m) * one_minus_beta1
    v = v + (jnp.square(grad) - v) * one_minus_beta2
    return [], {0: var - m * alpha / (jnp.sqrt(v) + epsilon), 1: m, 2: v}


_jax_adam.updates_variables = True
AdamUpdate.jax = _jax_adam
