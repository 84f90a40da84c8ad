"""Variable ops: reading and writing through a resource handle (TensorFlow's resource variables).

A variable is reached through its handle, a tensor of dtype `resource` whose value is the Variable
object itself. Reads and writes are ordinary ops on that handle, so the same definitions serve
eager execution, tapes (a read's gradient flows to the handle) and traced graphs (the handle is
captured, and writes are stateful ops kept in program order).
A write replaces the variable's array instead of mutating it: a tensor read earlier keeps its value.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import EagerTensor
from ...core.update_locks import update_lock
from ..registry import NO_GRADIENT, Spec, defop


class ResourceHandle(EagerTensor):
    """The eager handle of a variable: a scalar `resource` tensor whose value is the variable."""

    __slots__ = ()

    @property
    def shape(self):
        return TensorShape([])

    @property
    def ndim(self):
        return 0

    def numpy(self):
        raise ValueError("Cannot convert a resource handle to a NumPy array")

    def __repr__(self):
        return f"<tf.Tensor: shape=(), dtype=resource, value=<handle of {self._value.name}>>"

    __str__ = __repr__


def make_handle(variable) -> ResourceHandle:
    h = object.__new__(ResourceHandle)
    h._value = variable
    h._dtype = _dt.resource
    return h


def _var_spec(handle):
    """The (shape, dtype) a handle's variable holds; graph placeholders for handles carry it too."""
    var = getattr(handle, "_value", None)
    if var is not None and hasattr(var, "_array"):
        return var.shape, var.dtype
    return handle.variable_spec  # a captured handle in a graph (graph/ provides it)


def _check_assign(var, value):
    if value.dtype != var._array.dtype:
        raise InvalidArgumentError(
            None, None, f"Trying to assign variable with wrong dtype. Expected {var.dtype.name} got "
                        f"{_dt.from_numpy(value.dtype).name}")
    if var._validate_shape and value.shape != var._array.shape:
        raise InvalidArgumentError(
            None, None, f"Cannot update variable with shape {list(var._array.shape)} using a Tensor with shape "
                        f"{list(value.shape)}, shapes must be equal.")


def _assign(var, value):
    _check_assign(var, value)
    try:
        lock = var._update_lock  # every Variable has one; another holder gets one on first use
    except AttributeError:
        lock = update_lock(var)
    lock.acquire()  # one store, but not in the middle of another thread's assign_add (TensorFlow locks it too)
    try:
        var._array = value
    finally:
        lock.release()
    return []


def _assign_add(var, delta):
    _check_assign(var, np.asarray(delta))  # TF 2.21 does not broadcast: a scalar delta needs a scalar variable
    try:
        lock = var._update_lock  # every Variable has one; another holder gets one on first use
    except AttributeError:
        lock = update_lock(var)
    lock.acquire()  # read, add and store as one update (core/update_locks.py); inline: the hot path
    try:
        var._array = np.asarray(var._array + delta, dtype=var._array.dtype)
    finally:
        lock.release()
    return []


def _assign_sub(var, delta):
    _check_assign(var, np.asarray(delta))
    try:
        lock = var._update_lock  # every Variable has one; another holder gets one on first use
    except AttributeError:
        lock = update_lock(var)
    lock.acquire()
    try:
        var._array = np.asarray(var._array - delta, dtype=var._array.dtype)
    finally:
        lock.release()
    return []


def _update_infer(inputs, attrs):
    """assign_add/assign_sub while tracing: TensorFlow's shape-inference ValueError for a delta whose
    static shape cannot match the variable's (graph/ adds "for '{{node ...}}' with input shapes").
    Eagerly TensorFlow runs no shape inference: the kernel refuses the call in its own words."""
    if hasattr(inputs[0], "_value"):
        return []
    var_shape, _ = _var_spec(inputs[0])
    delta_shape = inputs[1].shape
    if var_shape.rank is not None and delta_shape.rank is not None:
        if var_shape.rank != delta_shape.rank:
            raise ValueError(f"Shapes must be equal rank, but are {var_shape.rank} and {delta_shape.rank}")
        for i, (a, b) in enumerate(zip(var_shape.as_list(), delta_shape.as_list())):
            if a is not None and b is not None and a != b:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                                 f"{_listed(var_shape)} and {_listed(delta_shape)}.")
    return []


def _listed(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


def _read_infer(inputs, attrs):
    shape, dtype = _var_spec(inputs[0])
    return [Spec(shape, dtype)]


ReadVariableOp = defop("ReadVariableOp", inputs=("resource",), kernel=lambda var: var._array,
                       infer=_read_infer, grad=lambda op, g: g,
                       doc="Reads a variable's current value; the gradient flows to the handle.")
AssignVariableOp = defop("AssignVariableOp", inputs=("resource", "value"), kernel=_assign, multi_output=True,
                         infer=lambda inputs, attrs: [], grad=NO_GRADIENT, stateful=True)
AssignAddVariableOp = defop("AssignAddVariableOp", inputs=("resource", "value"), kernel=_assign_add,
                            multi_output=True, infer=_update_infer, grad=NO_GRADIENT, stateful=True)
AssignSubVariableOp = defop("AssignSubVariableOp", inputs=("resource", "value"), kernel=_assign_sub,
                            multi_output=True, infer=_update_infer, grad=NO_GRADIENT, stateful=True)
