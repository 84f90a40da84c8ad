"""Tensor (the common base), EagerTensor (wraps an ndarray) and DeviceTensor (an XLA output read on
first use). TensorSpec (core/tensor_spec.py) is imported from here too; the printed text of a
value is core/tensor_printing.py's.

Every Python operator is spelled out here as one line that calls an op function through
`op_table`, a table of operator functions that ops/ fills when it is imported
(ops/tensor_methods.py). The table is why core/ never imports ops/: ops/ builds on these classes,
so an import in the other direction would make the two floors one import cycle. Graph mode's
symbolic tensor (graph/symbolic_tensor.py) subclasses Tensor and so gets the same operators. Variables reuse
the operators through `TensorOperators` without being Tensors (as in TensorFlow).
"""
from __future__ import annotations

import numpy as np

from . import dtypes as _dt
from .shape import TensorShape, as_shape
from .tensor_printing import numpy_text
from .tensor_spec import TensorSpec  # noqa: F401 - imported from here across the package

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


class OpTable:
    """The op functions that core/ calls but ops/ defines: one slot per Python operator, plus
    `unstack` (iterating a tensor) and `stack` (core/convert.py auto-packs a list of tensors).

    ops/tensor_methods.py fills every slot when ops/ is imported (eagerflow/__init__.py does that
    first). A slot is a plain attribute, so an operator costs one global load and one slot load,
    as the module attribute it replaces did. Until ops/ is imported a slot raises a clear error
    instead of AttributeError from deep inside `a + b`."""

    __slots__ = ("add", "subtract", "multiply", "truediv", "floordiv", "floormod", "pow", "matmul",
                 "negative", "abs", "invert", "and_", "or_", "xor", "less", "less_equal", "greater",
                 "greater_equal", "equals", "not_equals", "getitem", "unstack", "stack")

    def __init__(self):
        for slot in self.__slots__:
            setattr(self, slot, _unregistered(slot))

    def register(self, **functions) -> None:
        """Fills slots by name; an unknown name is a typo in the registration, so it raises."""
        unknown = sorted(set(functions) - set(self.__slots__))
        if unknown:
            raise KeyError(f"OpTable has no slot named {', '.join(unknown)}")
        for slot, fn in functions.items():
            setattr(self, slot, fn)

    def missing(self) -> list:
        """Slots that no op function has been registered for (empty once ops/ is imported)."""
        return [slot for slot in self.__slots__ if getattr(getattr(self, slot), "_unregistered", False)]


def _unregistered(slot):
    def fn(*args, **kwargs):
        raise RuntimeError(f"Tensor operator '{slot}' has no op function: eagerflow._src.ops.tensor_methods "
                           f"fills the operator table and has not been imported (import eagerflow first)")
    fn._unregistered = True
    return fn


op_table = OpTable()


class TensorOperators:
    """Python operators shared by tensors and variables; each one calls one op function of `op_table`."""

    __slots__ = ()
    __array_priority__ = 100  # so `ndarray + tensor` defers to Tensor.__radd__

    def __add__(self, other): return op_table.add(self, other, name="add")
    def __radd__(self, other): return op_table.add(other, self, name="add")
    def __sub__(self, other): return op_table.subtract(self, other, name="sub")
    def __rsub__(self, other): return op_table.subtract(other, self, name="sub")
    def __mul__(self, other): return op_table.multiply(self, other, name="mul")
    def __rmul__(self, other): return op_table.multiply(other, self, name="mul")
    def __truediv__(self, other): return op_table.truediv(self, other, name="truediv")
    def __rtruediv__(self, other): return op_table.truediv(other, self, name="truediv")
    def __floordiv__(self, other): return op_table.floordiv(self, other, name="floordiv")
    def __rfloordiv__(self, other): return op_table.floordiv(other, self, name="floordiv")
    def __mod__(self, other): return op_table.floormod(self, other, name="mod")
    def __rmod__(self, other): return op_table.floormod(other, self, name="mod")
    def __pow__(self, other): return op_table.pow(self, other, name="pow")
    def __rpow__(self, other): return op_table.pow(other, self, name="pow")
    def __matmul__(self, other): return op_table.matmul(self, other, name="matmul")
    def __rmatmul__(self, other): return op_table.matmul(other, self, name="matmul")
    def __neg__(self): return op_table.negative(self)
    def __pos__(self): return self
    def __abs__(self): return op_table.abs(self)
    def __invert__(self): return op_table.invert(self)
    def __and__(self, other): return op_table.and_(self, other)
    def __rand__(self, other): return op_table.and_(other, self)
    def __or__(self, other): return op_table.or_(self, other)
    def __ror__(self, other): return op_table.or_(other, self)
    def __xor__(self, other): return op_table.xor(self, other)
    def __rxor__(self, other): return op_table.xor(other, self)
    def __lt__(self, other): return op_table.less(self, other)
    def __le__(self, other): return op_table.less_equal(self, other)
    def __gt__(self, other): return op_table.greater(self, other)
    def __ge__(self, other): return op_table.greater_equal(self, other)
    def __eq__(self, other): return op_table.equals(self, other)
    def __ne__(self, other): return op_table.not_equals(self, other)
    def __getitem__(self, key): return op_table.getitem(self, key)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self):
        """A hashable reference to this object (TF: `tensor.ref()`), usable as a dict key."""
        return Reference(self)

    experimental_ref = ref


class Reference:
    """Hashable wrapper around a tensor or variable, compared by identity."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __eq__(self, other):
        return isinstance(other, Reference) and other._obj is self._obj

    def __hash__(self):
        return id(self._obj)

    def __repr__(self):
        return f"<Reference wrapping {self._obj!r}>"


class Tensor(TensorOperators):
    """The base class of eager and symbolic tensors (`isinstance(x, tf.Tensor)` holds for both)."""

    __slots__ = ()

    @property
    def dtype(self) -> _dt.DType:
        return self._dtype

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self) -> int:
        return self.shape.rank


class EagerTensor(Tensor):
    """A tensor with a concrete value: an ndarray (or NumPy scalar for rank 0) and its DType."""

    __slots__ = ("_value", "_dtype", "__weakref__")

    def __init__(self, value, dtype=None):
        value = np.asarray(value)
        self._value = value
        self._dtype = _dt.from_numpy(value.dtype) if dtype is None else dtype

    # --- values ---
    def numpy(self):
        """A NumPy copy of the value (a NumPy scalar for rank 0), as TensorFlow returns."""
        v = self._value
        if v.ndim == 0:
            return v[()] if isinstance(v, np.ndarray) else v
        return v.copy()

    _numpy = numpy

    def __array__(self, dtype=None, copy=None):
        v = np.asarray(self._value)
        return v if dtype is None else v.astype(dtype, copy=False)

    def _static_value(self):
        return self._value

    @property
    def shape(self) -> TensorShape:
        return TensorShape._from_tuple(self._value.shape)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    def set_shape(self, shape):
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied shape {as_shape(shape)}.")

    @property
    def device(self) -> str:
        return _CPU

    @property
    def backing_device(self) -> str:
        return _CPU

    def cpu(self):
        return self

    @property
    def is_symbolic(self) -> bool:
        return False

    @property
    def graph(self):
        raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")

    @property
    def op(self):
        raise AttributeError("Tensor.op is undefined when eager execution is enabled.")

    @property
    def name(self):
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    # --- Python protocol (eager only: graph tensors refuse these) ---
    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        return iter(op_table.unstack(self))

    def __bool__(self):
        return bool(self._value)

    def __index__(self):
        """An integer scalar tensor where Python wants an int (`list[t]`, `tf.train.Int64List(value=[t])`);
        anything else is refused with the error its NumPy value gives, as TensorFlow's tensors do."""
        if self._value.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        scalar = self._value[()]
        if not isinstance(scalar, np.integer):
            kind = type(scalar)
            where = "" if kind.__module__ == "builtins" else kind.__module__ + "."
            raise AttributeError(f"'{where}{kind.__name__}' object has no attribute '__index__'")
        return int(scalar)

    def __int__(self):
        return int(self._value)

    def __float__(self):
        return float(self._value)

    def __complex__(self):
        return complex(self._value)

    def __format__(self, spec):
        return format(self.numpy(), spec)

    def __reduce__(self):
        return EagerTensor, (self.numpy(),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # --- printing, in TensorFlow's exact format ---
    def __str__(self):
        return f"tf.Tensor({numpy_text(self)}, shape={self.shape}, dtype={self._dtype.name})"

    def __repr__(self):
        return (f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, "
                f"numpy={numpy_text(self, is_repr=True)}>")


class DeviceTensor(EagerTensor):
    """An output of a `jit_compile=True` function still in the XLA buffer the executable wrote:
    the NumPy array is made on first use (`numpy()`, an op, printing).

    Why: turning an XLA buffer into a NumPy array costs a few microseconds inside jaxlib, about
    what a small compiled step spends on one of its ops. A training step's loss and gradients
    are often never looked at on the host (they go straight into the next compiled call), so
    each output pays only when it is read. The value is complete when the tensor is made (the
    call waits for the executable), so timing and errors are as for any eager tensor.

    `_value` is a property here over EagerTensor's slot: the first read stores the array in the
    slot, later reads take it from there. The XLA array stays (`_device`): the NumPy array is a
    view of its buffer, and a later compiled call takes it as it is (codegen/xla.py)."""

    __slots__ = ("_device",)

    @property
    def _value(self):
        try:
            return _read_value_slot(self)
        except AttributeError:  # not read yet: its one conversion (two threads racing make equal views)
            value = np.asarray(self._device)
            _write_value_slot(self, value)
            return value

    @_value.setter
    def _value(self, value):
        _write_value_slot(self, value)

    @property
    def shape(self) -> TensorShape:
        return TensorShape._from_tuple(self._device.shape)

    @property
    def ndim(self) -> int:
        return self._device.ndim

    def __reduce__(self):
        return EagerTensor, (self.numpy(),)


class DeviceValue:
    """A variable's value as a compiled function wrote it: the XLA array, made a NumPy array on
    the variable's first read (state/variables.py), so a training loop of compiled steps never
    copies its weights and optimizer slots out of XLA between steps (codegen/xla.py)."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array


_read_value_slot = EagerTensor._value.__get__
_write_value_slot = EagerTensor._value.__set__

_new_object = object.__new__


def make_eager(value, dtype) -> EagerTensor:
    """Wraps an ndarray (or NumPy scalar) of a known dtype without any checks: the eager hot path."""
    t = _new_object(EagerTensor)
    t._value = value
    t._dtype = dtype
    return t


def wrap_array(value) -> EagerTensor:
    """An EagerTensor for a kernel's result (an ndarray, a NumPy scalar, or anything array-like)."""
    t = _new_object(EagerTensor)
    try:
        t._dtype = _BY_NP[value.dtype]
    except (KeyError, AttributeError):
        value = np.asarray(value)
        t._dtype = _dt.from_numpy(value.dtype)
    t._value = value
    return t


def wrap_output(value, dtype) -> EagerTensor:
    """A compiled function's output as a tensor of the trace's `dtype`: a DeviceTensor for an XLA
    array (converted on first use), an EagerTensor for a NumPy array (a large output's recycled view)."""
    if isinstance(value, np.ndarray):
        return make_eager(value, dtype)
    t = _new_object(DeviceTensor)
    t._device = value
    t._dtype = dtype
    return t


_BY_NP = _dt._BY_NP
