"""`tf.TensorArray`: a list of same-dtype tensors written one at a time (typically in a loop).

Its whole state is one `variant` tensor, the `flow` (a TensorList, see ops/control/lists.py), so it can be
a `tf.while_loop` or `tf.cond` value: `core/nest.py` flattens a TensorArray to `[flow]` through
`__tf_flatten__` and rebuilds it with `__tf_unflatten__`. Every method is a TensorList op, so a
GradientTape differentiates through writes, reads, stacks, ... eagerly and in graphs alike.

Two behaviours, as in TensorFlow 2, decided once when the array is made:
- eagerly, the array is mutable (`write` updates it and returns it), indices are checked in Python
  with TensorFlow's eager messages (OutOfRangeError), and `clear_after_read` (default True) forbids
  reading an index twice;
- in a graph, `write` returns a new TensorArray (the old one is unchanged: use the result), and
  bad indices fail when the graph runs, with the TensorList kernels' messages.
Element shapes are inferred from writes (`infer_shape=True`): a write of another shape is a
ValueError, as in TensorFlow.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError, OutOfRangeError
from ..core.shape import TensorShape, as_shape
from ..core.tensor import Tensor
from ..ops.control import lists as L
from ..ops.control.list_values import encode_shape
from ..ops.array.basic import identity as _identity
from ..ops.operands import as_int_tensor
from ..ops.registry import bind, static_value
from ..ops.shape_rules import fmt_dims, tf_type_word


def _static_int(t):
    v = static_value(t) if isinstance(t, Tensor) else t
    return None if v is None or np.ndim(v) != 0 else int(v)


class TensorArray:
    """TensorFlow's `tf.TensorArray` (see the module docstring for eager vs graph behaviour)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        if handle is not None:
            raise ValueError("TensorArray handles are not supported; pass `flow` (a TensorList variant) instead.")
        self._dtype = _dt.as_dtype(dtype).base_dtype
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        self._infer_shape = infer_shape
        # A one-item list shared by every array derived from this one (writes, loop and cond
        # copies): a shape learned anywhere, even in a loop body, is known to all, as in TensorFlow.
        self._shape_cell = [TensorShape(None) if element_shape is None else as_shape(element_shape)]
        self._eager = state.graph is None
        # The size when fixed and known while tracing (shared as the shape is): stack() then has a
        # static first dimension, as TensorFlow infers it.
        self._size_cell = [None]
        self._cleared = set()  # eager only: indices read once under clear_after_read
        if flow is not None:
            self._flow = flow
            return
        if size is None:
            if self._eager:
                raise ValueError("Size must be declared for TensorArrays when eager execution is enabled.")
            if not self._dynamic_size:
                raise ValueError("Size must be provided if handle is not provided")
            size = 0
        if isinstance(size, (str, bytes)):  # TensorFlow's eager array counts with range(size)
            if self._eager:
                raise TypeError(f"'{type(size).__name__}' object cannot be interpreted as an integer")
            raise TypeError(f"Expected int32 passed to parameter 'num_elements' of op 'TensorListReserve', got "
                            f"{size!r} of type '{type(size).__name__}' instead. Error: Expected int32, but got "
                            f"{size} of type '{type(size).__name__}'.")
        size = as_int_tensor(size)
        if not self._dynamic_size and not self._eager:
            self._size_cell[0] = _static_int(size)
        if self._eager and int(size.numpy()) < 0:
            size = as_int_tensor(0)  # an eager TensorArray of negative size is empty, as in TensorFlow
        self._flow = bind(L.TensorListReserve, (self._shape_tensor(), size),
                          {"element_dtype": self._dtype})

    # --- properties ---
    @property
    def flow(self):
        """The variant tensor holding the list (what a loop carries)."""
        return self._flow

    @property
    def handle(self):
        return self._flow

    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self):
        return self._dynamic_size

    @property
    def element_shape(self):
        return self._shape_cell[0]

    @property
    def _element_shape(self):
        return self._shape_cell[0]

    def __repr__(self):
        return f"<TensorArray dtype={self._dtype.name} element_shape={self._element_shape}>"

    # --- nest protocol (a TensorArray is a structure holding one tensor) ---
    def __tf_flatten__(self):
        return [self._flow]

    def __tf_unflatten__(self, components):
        (flow,) = components
        return self._with_flow(flow)

    def _with_flow(self, flow):
        ta = TensorArray(self._dtype, dynamic_size=self._dynamic_size, clear_after_read=self._clear_after_read,
                         flow=flow, infer_shape=self._infer_shape)
        ta._shape_cell, ta._size_cell = self._shape_cell, self._size_cell
        return ta

    def _updated(self, flow, element_shape=None):
        """Eagerly the array itself, changed; in a graph a new array (this one keeps its flow)."""
        if element_shape is not None:
            self._shape_cell[0] = element_shape
        if self._eager:
            self._flow = flow
            return self
        return self._with_flow(flow)

    # --- helpers ---
    def _shape_tensor(self, shape=None):
        return convert_to_tensor(encode_shape(self._element_shape if shape is None else shape))

    def _value(self, value):
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        if value.dtype is not self._dtype:
            if not self._eager:  # the TensorList kernel's words, as a traced array fails
                raise InvalidArgumentError(None, None, f"Invalid data types; op elements {tf_type_word(value.dtype)} "
                                                       f"but list elements {tf_type_word(self._dtype)}")
            raise InvalidArgumentError(None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying to "
                                                   f"write dtype {value.dtype.name} ")
        return value

    def _merged_shape(self, shape):
        """The element shape after writing an element of `shape` (ValueError on a mismatch)."""
        if not self._infer_shape:
            return self._element_shape
        if not self._element_shape.is_compatible_with(shape):
            if self._eager:
                raise ValueError(f"Incompatible shape for value ({shape}), expected ({self._element_shape})")
            raise ValueError(f"Inconsistent shapes: saw {shape} but expected {self._element_shape} ")
        return self._element_shape.merge_with(shape)

    def _eager_size(self):
        return len(self._flow._value.payload.items)

    def _check_write_index(self, index):
        i = _static_int(index)
        if not self._eager or i is None:
            return
        if i < 0:
            raise OutOfRangeError(None, None, f"Writing to negative indices (index {i}) is not allowed.")
        size = self._eager_size()
        if i >= size and not self._dynamic_size:
            raise OutOfRangeError(None, None, f"Tried to write to index {i} but array is not resizeable and size "
                                              f"is: {size}")

    def _check_readable(self, i):
        """Eager reads: TensorFlow's index messages, clear_after_read, and unwritten items."""
        if i < 0:
            raise OutOfRangeError(None, None, f"Reading from negative indices (index {i}) is not allowed.")
        size = self._eager_size()
        if i >= size:
            raise OutOfRangeError(None, None, f"Tried to read from index {i} but array size is: {size}")
        if i in self._cleared:
            raise InvalidArgumentError(None, None, f"Could not read index {i} twice because it was cleared after a "
                                                   f"previous read (perhaps try setting clear_after_read = false?)")
        if self._flow._value.payload.items[i] is None and not self._element_shape.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {self._element_shape} to a Tensor.")

    # --- element access ---
    def write(self, index, value, name=None):
        """Writes `value` at `index`; use the returned TensorArray afterwards."""
        index = as_int_tensor(index)
        value = self._value(value)
        self._check_write_index(index)
        shape = self._merged_shape(value.shape)
        flow = bind(L.TensorListSetItem, (self._flow, index, value),
                    {"resize_if_index_out_of_bounds": True} if self._dynamic_size else {})
        if self._eager:
            self._cleared.discard(_static_int(index))
        return self._updated(flow, shape)

    def read(self, index, name=None):
        """The element at `index` (zeros for an unwritten one of known shape)."""
        index = as_int_tensor(index)
        if self._eager:
            self._check_readable(int(index))
        out = bind(L.TensorListGetItem, (self._flow, index, self._shape_tensor()), {"element_dtype": self._dtype})
        if self._eager and self._clear_after_read:
            self._cleared.add(int(index))
        return out

    def stack(self, name=None):
        """All elements stacked along a new first axis."""
        shape = self._element_shape
        if self._eager:
            size = self._eager_size()
            if size == 0 and shape.rank is None:
                shape = TensorShape([])  # TensorFlow's eager array gives an empty vector here
            for i in range(size):
                self._check_readable(i)
        out = bind(L.TensorListStack, (self._flow, self._shape_tensor(shape)), {"element_dtype": self._dtype})
        if self._size_cell[0] is not None and out.shape.rank is not None:
            out.set_shape(TensorShape([self._size_cell[0]] + out.shape.as_list()[1:]))
        return out

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        indices = as_int_tensor(indices)
        if self._eager:  # TensorFlow's eager array is a Python list, indexed as one
            size = self._eager_size()
            if any(i >= size or i < -size for i in np.ravel(indices.numpy())):
                raise IndexError("list index out of range")
        return bind(L.TensorListGather, (self._flow, indices, self._shape_tensor()), {"element_dtype": self._dtype})

    def concat(self, name=None):
        """The elements concatenated along their first axis."""
        leading = as_int_tensor(-1, _dt.int64)
        return bind(L.TensorListConcatV2, (self._flow, self._shape_tensor(), leading), {"element_dtype": self._dtype})[0]

    def unstack(self, value, name=None):
        """Replaces the contents with the slices of `value` along its first axis."""
        value = self._value(value)
        if value.shape.rank == 0:
            if not self._eager:  # the TensorList kernel's refusal, as a traced array fails
                raise InvalidArgumentError(None, None, "Tensor must be at least a vector, but saw shape: []")
            raise ValueError("Argument `axis` = 0 not in range [0, 0)")
        n = value.shape[0] if value.shape.rank is not None else None
        if self._eager and n is not None and not self._dynamic_size and n > self._eager_size():
            raise ValueError(f"Cannot unstack {n} tensors into a TensorArray of static size {self._eager_size()} ")
        shape = self._merged_shape(value.shape[1:] if value.shape.rank is not None else TensorShape(None))
        flow = bind(L.TensorListFromTensor, (value, self._shape_tensor(shape)))
        if self._eager:
            self._cleared.clear()
        return self._updated(flow, shape)

    def scatter(self, indices, value, name=None):
        """Writes the rows of `value` at `indices`."""
        indices = as_int_tensor(indices)
        value = self._value(value)
        if self._eager:
            for i in np.ravel(indices.numpy()):
                self._check_write_index(int(i))
        rows = value.shape[1:] if value.shape.rank else TensorShape(None)
        shape = self._merged_shape(rows)
        flow = bind(L.TensorListScatterIntoExistingList, (self._flow, value, indices))
        if self._eager:
            self._cleared.difference_update(int(i) for i in np.ravel(indices.numpy()))
        return self._updated(flow, shape)

    def split(self, value, lengths, name=None):
        """Replaces the contents with consecutive pieces of `value` of the given `lengths`."""
        value = self._value(value)
        lengths = as_int_tensor(lengths, _dt.int64)
        if self._eager and value.shape.rank and int(np.sum(lengths.numpy())) != value.shape[0]:
            raise InvalidArgumentError(None, None, f"Expected sum of lengths to be equal to values.shape[0], but sum "
                                                   f"of lengths is {int(np.sum(lengths.numpy()))} and value's shape "
                                                   f"is: {fmt_dims(value.shape)} ")
        rest = value.shape[1:] if value.shape.rank else TensorShape(None)
        shape = self._merged_shape(TensorShape([None]).concatenate(rest)) if rest.rank is not None else \
            self._element_shape
        flow = bind(L.TensorListSplit, (value, self._shape_tensor(shape), lengths))
        return self._updated(flow, shape)

    def size(self, name=None):
        """The number of elements (an int32 scalar)."""
        return bind(L.TensorListLength, (self._flow,))

    def identity(self):
        """The same array; in a graph its flow passes through an Identity."""
        if self._eager:
            return self
        return self._with_flow(_identity(self._flow))

    def close(self, name=None):
        """Nothing to release: the list lives in its flow tensor."""
        return None

    def mark_used(self):
        """TensorFlow's unused-TensorArray warning is not issued; kept for compatibility."""
