"""tf.Variable: state that lives across calls, read and written through its resource handle.

Why a handle: a traced function captures the handle (by reference), so a graph reads the live
value on every call and its `assign*` ops change the same state the eager code sees. Tapes watch
the handle; `tape.gradient(y, variable)` looks up the handle's gradient.
"""
from __future__ import annotations

import copy as _copy
import threading

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.shape import TensorShape, as_shape
from ..core.tensor import DeviceValue, Tensor, TensorOperators
from ..core.tensor_printing import numpy_text
from ..ops.variables import resource as _ops
from ..ops.registry import bind
from .initial_value import initial_array, initialize_in_graph
from .slice_assign import slice_of
from .sparse_updates import SparseUpdates
from .variable_options import (VariableAggregation, VariableSynchronization, check_aggregation, check_constraint,
                               check_synchronization, default_trainable)


class Variable(SparseUpdates, TensorOperators):
    """A mutable tensor: `v = tf.Variable(1.0); v.assign_add(1.0)`. Not a `tf.Tensor` subclass (as in
    TensorFlow), but accepted by every op, where it is read at that moment."""

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, caching_device=None,
                 name=None, variable_def=None, dtype=None, import_scope=None, constraint=None,
                 synchronization=None, aggregation=None, shape=None, experimental_enable_variable_lifting=True):
        if initial_value is None:
            raise ValueError("The `initial_value` arg (None) must be specified as a Tensor or a Python callable.")
        if name is not None and not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._update_lock = threading.Lock()  # updates are atomic per variable (core/update_locks.py)
        self._synchronization = check_synchronization(synchronization, name)
        self._aggregation = check_aggregation(aggregation, name)
        self._constraint = check_constraint(constraint)
        if callable(initial_value):
            initial_value = initial_value()
        if dtype is not None:
            dtype = _dt.as_dtype(dtype)
        value, pending = initial_array(initial_value, dtype)
        # NOTE: TF 2.21 ignores validate_shape=False here (a later assign of another shape still
        # raises); only a `shape` with unknown dimensions lets the variable take new shapes.
        if pending is None:
            self._array = value
            self._dtype = _dt.from_numpy(value.dtype)
            value_shape = TensorShape._from_tuple(value.shape)
        else:  # computed from the traced function's inputs: set by the first call (see initial_value.py)
            self._array = None
            self._dtype = pending.dtype
            value_shape = pending.shape
        self._shape = value_shape if shape is None else as_shape(shape)
        if not self._shape.is_compatible_with(value_shape):
            raise ValueError(f"In this `tf.Variable` creation, the initial value's shape ({value_shape}) is not "
                             f"compatible with the explicitly supplied `shape` argument ({shape}).")
        self._validate_shape = pending is None and self._shape.is_fully_defined()
        self._trainable = default_trainable(trainable, self._synchronization)
        from ..core.scopes import current_scope
        self._name = current_scope() + ("Variable" if name is None else name) + ":0"  # TF: foo/var:0 in scope foo
        self._handle = _ops.make_handle(self)
        self._pending_init = pending is not None
        if pending is not None:
            initialize_in_graph(self, pending)
        if state.created_variables is not None:
            state.created_variables.append(self)
        for hook in state.variable_hooks:
            hook(self)

    # The value: `_held` is the NumPy array (None before a pending initialisation), or the XLA array
    # a compiled function assigned (core/tensor.py's DeviceValue), made NumPy here on first read.
    @property
    def _array(self):
        array = self._held
        if type(array) is DeviceValue:
            array = self._held = np.asarray(array.array)
        return array

    @_array.setter
    def _array(self, value):
        self._held = value

    @classmethod
    def _symbolic(cls, handle, shape, dtype, trainable, name):
        """The stand-in a traced function receives for a Variable argument: the same methods,
        reading and writing through a placeholder handle (the real variable is fed at call time)."""
        v = object.__new__(cls)
        v._handle = handle
        v._shape = as_shape(shape)
        v._dtype = dtype
        v._validate_shape = False
        v._trainable = trainable
        v._name = name
        v._constraint = None
        v._synchronization, v._aggregation = VariableSynchronization.AUTO, VariableAggregation.NONE
        v._pending_init = False
        register = getattr(getattr(handle, "graph", None), "register_variable_standin", None)
        if register is not None:  # so a tape can find this argument from its handle (variable_of)
            register(handle, v)
        return v

    # --- identity and metadata ---
    @property
    def handle(self):
        return self._handle

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self):
        return self.shape.rank

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def constraint(self):
        return self._constraint

    @property
    def synchronization(self):
        return self._synchronization

    @property
    def aggregation(self):
        return self._aggregation

    @property
    def device(self) -> str:
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    # --- reading ---
    def _as_tensor(self):
        """Reads the variable: an eager snapshot, or a ReadVariableOp in the graph being traced.
        A trainable variable read while a tape records is watched by that tape."""
        if state.tapes and self._trainable:
            for tape in state.tapes:
                if tape.recording:
                    tape._watch_variable(self)
        return bind(_ops.ReadVariableOp, (self._handle,))

    def value(self):
        return self._as_tensor()

    def read_value(self):
        return self._as_tensor()

    def numpy(self):
        a = self._array
        return a[()] if a.ndim == 0 else a.copy()

    def __array__(self, dtype=None, copy=None):
        return np.array(self._array, dtype=dtype)

    # --- writing ---
    def _write(self, opdef, value, read_value):
        value = convert_to_tensor(value, dtype=self._dtype)  # TF's ValueError for a tensor of another dtype
        if opdef is _ops.AssignVariableOp and value.shape.rank is not None \
                and not self.shape.is_compatible_with(value.shape):
            raise ValueError(f"Cannot assign value to variable ' {self._name}': Shape mismatch.The variable shape "
                             f"{self.shape}, and the assigned value shape {value.shape} are incompatible.")
        bind(opdef, (self._handle, value))
        return self if read_value else _written_op()

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._write(_ops.AssignVariableOp, value, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._write(_ops.AssignAddVariableOp, delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._write(_ops.AssignSubVariableOp, delta, read_value)

    def __getitem__(self, key):
        """A slice of the current value that can be written back: `v[1:3].assign([0., 0.])`."""
        return slice_of(self, key)

    # --- Python protocol ---
    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    def __len__(self):
        return len(self._as_tensor())

    def __iter__(self):
        return iter(self._as_tensor())

    def __bool__(self):
        return bool(self._as_tensor())

    def __index__(self):
        return self._as_tensor().__index__()

    def __int__(self):
        return int(self._as_tensor())

    def __float__(self):
        return float(self._as_tensor())

    def __format__(self, spec):
        return format(self.numpy(), spec)

    def __deepcopy__(self, memo):
        return Variable(self._array.copy(), trainable=self._trainable, name=self._name[:-2],
                        dtype=self._dtype, constraint=_copy.deepcopy(self._constraint, memo), shape=self._shape,
                        synchronization=self._synchronization, aggregation=self._aggregation)

    def __repr__(self):
        if not state.graph is None:
            return f"<tf.Variable '{self._name}' shape={self.shape} dtype={self._dtype.name}>"
        return (f"<tf.Variable '{self._name}' shape={self.shape} dtype={self._dtype.name}, "
                f"numpy={numpy_text(self, is_repr=True)}>")

    __str__ = __repr__


def _written_op():
    """What `assign(..., read_value=False)` returns: None eagerly, the write's Operation in a graph
    (as TensorFlow returns them)."""
    ops = getattr(state.graph, "_ops", None)
    return ops[-1] if ops else None


def variable_of(handle):
    """The Variable a resource handle stands for: the variable itself for an eager handle, the
    traced function's stand-in for a Variable-argument placeholder; None when unknown."""
    value = getattr(handle, "_value", None)
    if isinstance(value, Variable):
        return value
    lookup = getattr(getattr(handle, "graph", None), "variable_standin", None)
    return lookup(handle) if lookup is not None else None
