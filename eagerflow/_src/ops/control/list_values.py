"""The value a TensorList op works on: `TensorList` (items, element shape, dtype) inside a `ListValue`
variant, whose hooks let generic gradient code (ZerosLike, AddN) work on lists, and the element-shape
and item checks every list op (lists.py) shares, with TensorFlow's messages."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.variant import VariantValue
from ..registry import Spec, static_value
from .list_shapes import compatible_shapes, decode_shape, format_shape, merge_shapes


class TensorList:
    """The list itself: `items` (a tuple of ndarrays, None where nothing was written), the
    element shape known so far (a tuple with None dims, or None for an unknown rank), the dtype."""
    __slots__ = ("items", "element_shape", "element_dtype")

    def __init__(self, items, element_shape, element_dtype):
        self.items, self.element_shape, self.element_dtype = tuple(items), element_shape, element_dtype

    def replace(self, items, element_shape=None):
        return ListValue(TensorList(items, self.element_shape if element_shape is None else element_shape,
                                    self.element_dtype))


class ListValue(VariantValue):
    """A variant holding a TensorList. Two hooks make generic gradient code work on lists as
    TensorFlow's variant registry does: `zeros_like` (NumPy's `__array_function__`, which the
    ZerosLike kernel reaches) gives a list of zeros, and `+` (what AddN applies when gradients from
    two consumers of one list meet) adds lists item by item, an unset item counting as zeros."""
    __slots__ = ()

    def __add__(self, other):
        a, b = self.payload, other.payload
        if len(a.items) != len(b.items):
            raise InvalidArgumentError(None, None, f"Trying to add two lists of tensors with different lengths. "
                                                   f"One is {len(a.items)} and the other is {len(b.items)}")
        items = [y if x is None else x if y is None else x + y for x, y in zip(a.items, b.items)]
        return a.replace(items)

    def __array_function__(self, func, types, args, kwargs):
        if func is np.zeros_like:
            lst = self.payload
            return lst.replace([None if a is None else np.zeros_like(a) for a in lst.items])
        return NotImplemented


def _new_list(items, element_shape, dtype):
    return ListValue(TensorList(items, element_shape, dtype))


# --- element shapes --------------------------------------------------------------------------------


def _static_element_shape(t) -> TensorShape:
    v = static_value(t)
    if v is None:
        op = getattr(t, "_op", None)
        if op is not None and op.type == "Shape":  # tf.shape(item) (SetItem's gradient): item's static shape,
            return op.inputs[0].shape  # as TensorFlow's shape inference reads a Shape op's input
        return TensorShape(None)
    dims = decode_shape(v)
    return TensorShape(None if dims is None else list(dims))


def encode_shape(shape) -> np.ndarray:
    """A TensorShape (or None) as TensorFlow's int32 element-shape value."""
    shape = TensorShape(None) if shape is None else shape
    if shape.rank is None:
        return np.array(-1, np.int32)
    return np.array([-1 if d is None else d for d in shape.as_list()], np.int32)


def _zero_item(lst, element_shape, what):
    """Zeros standing for an unset item: the shape must be known from the op's `element_shape`,
    the list's, or an item that is set."""
    shape = merge_shapes(lst.element_shape, element_shape) if compatible_shapes(lst.element_shape, element_shape) else None
    if shape is None or any(d is None for d in shape):
        for a in lst.items:
            if a is not None:
                return np.zeros_like(a)
        raise InvalidArgumentError(None, None, f"Trying to {what} an uninitialized tensor but element_shape is not "
                                               f"fully defined: {format_shape(shape)} and no list element is set.")
    return np.zeros(shape, lst.element_dtype)


def _dense_items(lst, element_shape, what):
    return [a if a is not None else _zero_item(lst, element_shape, what) for a in lst.items]


def _check_index(i, n, verb):
    if i < 0 or i >= n:
        raise InvalidArgumentError(None, None, f"Trying to {verb} element {i} in a list with {n} elements.")


def _check_item(lst, item):
    if item.dtype != lst.element_dtype:
        raise InvalidArgumentError(None, None, f"Invalid data types; list elements {_dt.from_numpy(lst.element_dtype).name}"
                                               f" but tried to append {_dt.from_numpy(item.dtype).name}")
    if not compatible_shapes(lst.element_shape, item.shape):
        raise InvalidArgumentError(None, None, f"Tried to set a tensor with incompatible shape at a list index. Item "
                                               f"element shape: {format_shape(item.shape)} list shape: "
                                               f"{format_shape(lst.element_shape)}")


def _variant_spec():
    return [Spec(TensorShape([]), _dt.variant)]
