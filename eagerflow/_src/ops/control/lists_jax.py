"""TensorList ops under jit_compile=True: a list as one dense buffer of fixed size, as TensorFlow's XLA.

The NumPy kernels (ops/control/lists.py) hold a tuple of items, any of them unset. XLA needs shapes known at
compile time, so under jit a list is a `JaxList`: a buffer [length, *element_shape] (unwritten
rows are zeros, which is what an unset item reads as), its static length and element dtype. A list
reserved before its element shape is known (`tf.TensorArray(tf.float32, size=4)`, the shape comes
from the first write) has no buffer yet: the first write makes one. When that write happens inside
a loop or a branch, the carry must have the buffer before the loop starts: codegen/xla_lists.py
looks ahead into the body to find it (TensorFlow's XLA compiles the body twice for the same reason).

Where the NumPy kernel checks an index or a length against the data, the lowering does it at trace
time when the value is known then; a traced index is clamped into range (XLA's dynamic slices), as
in TensorFlow's XLA. A size or split lengths that come from an argument must be known at trace
time: reading them raises JAX's concretization error, on which codegen/xla.py retries with the
integer arguments compiled in as constants (TensorFlow's XLA does the same).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError, UnimplementedError
from ..array import basic as _array
from ..math import elementwise as _math
from ..lazy_jax import jnp, lax
from .list_shapes import compatible_shapes, decode_shape, format_shape, merge_shapes


class JaxList:
    """A TensorList under jit: `buffer` ([length, *element_shape], or None before the element shape
    is known), the static `length`, the element `dtype` (NumPy), and while there is no buffer the
    `declared` element shape (a tuple with None dims, or None for an unknown rank). A pytree
    (codegen/xla_lists.py registers it): the buffer is its one leaf, so lax.scan, lax.cond and
    jax.eval_shape carry lists like arrays."""
    __slots__ = ("buffer", "length", "dtype", "declared")

    def __init__(self, buffer, length, dtype, declared=None):
        self.buffer, self.length, self.dtype = buffer, int(length), np.dtype(dtype)
        self.declared = None if buffer is not None else declared

    @property
    def element_shape(self):
        return tuple(self.buffer.shape[1:]) if self.buffer is not None else self.declared

    def with_buffer(self, buffer):
        return JaxList(buffer, self.length, self.dtype)

    def zeros(self, element_shape):
        """This list with a buffer of zeros of `element_shape`."""
        return self.with_buffer(jnp.zeros((self.length, *element_shape), self.dtype))

    def known_shape(self, requested=None):
        """The element shape, fully known from the buffer, the declared shape and `requested` (an op's
        element_shape), or None."""
        if self.buffer is not None:
            return self.element_shape
        shape = merge_shapes(self.declared, requested) if compatible_shapes(self.declared, requested) else None
        return None if shape is None or any(d is None for d in shape) else shape

    def dense(self, requested, what):
        """The buffer, zeros when nothing was written and the element shape is known."""
        if self.buffer is not None:
            return self.buffer
        shape = self.known_shape(requested)
        if shape is None:
            raise _not_initialized(what, merge_shapes(self.declared, requested))
        return jnp.zeros((self.length, *shape), self.dtype)

    # --- what generic code does to a value, done to a list (gradients, loop carries) ---

    def __add__(self, other):
        """Gradients from two consumers of one list meet in AddN: item by item, no buffer = zeros."""
        if self.length != other.length:
            raise InvalidArgumentError(None, None, f"Trying to add two lists of tensors with different lengths. One "
                                                   f"is {self.length} and the other is {other.length}")
        if other.buffer is None:
            return self
        if self.buffer is None:
            return other
        return self.with_buffer(self.buffer + other.buffer)

    __radd__ = __add__

    def zeros_like(self):
        return self if self.buffer is None else self.with_buffer(jnp.zeros_like(self.buffer))

    def like(self, old):
        """This list as a loop carry shaped as `old`: a buffer where `old` has one."""
        if isinstance(old, JaxList) and old.length != self.length:
            raise InvalidArgumentError(
                None, None, f"XLA compilation requires a fixed tensor list size: a TensorArray carried by a loop "
                            f"has {old.length} elements entering an iteration and {self.length} leaving it (a "
                            f"dynamic_size=True array written past its end, at indices XLA cannot know before the "
                            f"loop runs). Give the TensorArray size= (the number of elements it will hold).")
        if self.buffer is None and isinstance(old, JaxList) and old.buffer is not None:
            return self.zeros(old.element_shape)
        if self.buffer is not None and self.buffer.dtype != self.dtype:
            return self.with_buffer(self.buffer.astype(self.dtype))
        return self

    def select(self, pred, other):
        """`jnp.where(pred, self, other)` for lists (a masked loop step)."""
        a, b = self, other
        if a.buffer is None and b.buffer is None:
            return a
        a, b = a.like(b), b.like(a)
        return a.with_buffer(jnp.where(pred, a.buffer, b.buffer))

    def __repr__(self):
        shape = format_shape(self.element_shape)
        return f"<JaxList length={self.length} element_shape={shape} {'dense' if self.buffer is not None else 'empty'}>"


class SizeNeedsConstants(InvalidArgumentError):
    """A list's size depends on values known only at run time. codegen/xla.py retries the compile
    once with the integer arguments as constants (`for t in tf.range(n)` writing a dynamic_size
    array, n an argument: then the trip count and the indices are known); raised again, it stands."""


def _not_initialized(what, shape):
    """TensorFlow's XLA: InvalidArgumentError "TensorList is not initialized" (a list whose element
    shape neither a write nor the op gives)."""
    return InvalidArgumentError(None, None, f"TensorList is not initialized: trying to {what} a list with no element "
                                            f"written and element shape {format_shape(shape)} not fully defined, so XLA "
                                            f"cannot size its buffer. Give the TensorArray an element_shape.")


def _known(value):
    return isinstance(value, (np.ndarray, np.generic))


def _check_known_index(index, length, verb):
    if _known(index):
        i = int(index)
        if i < 0 or i >= length:
            raise InvalidArgumentError(None, None, f"Trying to {verb} element {i} in a list with {length} elements.")


def _item_for(lst, item):
    """`item` checked against the list (the NumPy kernel's messages), as a jax array."""
    item = jnp.asarray(item)
    if item.dtype != lst.dtype:
        raise InvalidArgumentError(None, None, f"Invalid data types; list elements {_dt.from_numpy(lst.dtype).name} "
                                               f"but tried to append {_dt.from_numpy(item.dtype).name}")
    if not compatible_shapes(lst.element_shape, tuple(item.shape)):
        raise InvalidArgumentError(None, None, f"Tried to set a tensor with incompatible shape at a list index. Item "
                                               f"element shape: {format_shape(item.shape)} list shape: "
                                               f"{format_shape(lst.element_shape)}")
    return item


def grown(lst, length):
    """The list with `length` items (a write past the end of a dynamic_size list, index known)."""
    if length <= lst.length:
        return lst
    if lst.buffer is None:
        return JaxList(None, length, lst.dtype, lst.declared)
    pad = jnp.zeros((length - lst.length, *lst.buffer.shape[1:]), lst.dtype)
    return JaxList(jnp.concatenate([lst.buffer, pad]), length, lst.dtype)


def reserve(element_shape, num_elements, element_dtype):
    n = int(num_elements)  # a traced size: JAX's concretization error, retried with it as a constant
    if n < 0:
        raise InvalidArgumentError(None, None, f"The num_elements to reserve must be a non negative number, but "
                                               f"got {n}")
    lst = JaxList(None, n, element_dtype.np_dtype, decode_shape(np.asarray(element_shape)))
    shape = lst.known_shape()
    return lst if shape is None else lst.zeros(shape)


def set_item(lst, index, item, resize_if_index_out_of_bounds=False):
    if resize_if_index_out_of_bounds:
        if _known(index):
            lst = grown(lst, int(index) + 1)
        elif lst.length == 0:
            raise SizeNeedsConstants(
                None, None, "XLA compilation requires a fixed tensor list size. Set the number of elements: this "
                            "TensorArray(dynamic_size=True) starts empty and is written at an index known only when "
                            "the function runs, which a buffer sized at compile time cannot grow to hold. Give it "
                            "size= (the number of elements it will hold), or write it outside jit_compile=True.")
        # else: a fixed buffer of the reserved size, as TensorFlow's XLA (an index past it is clamped)
    _check_known_index(index, lst.length, "modify")
    item = _item_for(lst, item)
    if lst.buffer is None:
        lst = lst.zeros(tuple(item.shape))
    return lst.with_buffer(lax.dynamic_update_index_in_dim(lst.buffer, item, index, 0))


def get_item(lst, index, element_shape, element_dtype):
    _check_known_index(index, lst.length, "access")
    if lst.buffer is None:
        shape = lst.known_shape(decode_shape(np.asarray(element_shape)))
        if shape is None:
            raise _not_initialized("read an item of", merge_shapes(lst.declared, decode_shape(np.asarray(element_shape))))
        return jnp.zeros(shape, lst.dtype)
    return lax.dynamic_index_in_dim(lst.buffer, index, 0, keepdims=False)


def stack(lst, element_shape, element_dtype, num_elements=-1):
    if num_elements >= 0 and num_elements != lst.length:
        raise InvalidArgumentError(None, None, f"Operation expected a list with {num_elements} elements but got a list "
                                               f"with {lst.length} elements.")
    requested = decode_shape(np.asarray(element_shape))
    if lst.length == 0 and lst.known_shape(requested) is None:
        raise InvalidArgumentError(None, None, f"Tried to stack elements of an empty list with non-fully-defined "
                                               f"element_shape: {format_shape(merge_shapes(lst.declared, requested))}")
    return lst.dense(requested, "stack")


def from_tensor(tensor, element_shape):
    tensor = jnp.asarray(tensor)
    if tensor.ndim == 0:
        raise InvalidArgumentError(None, None, "Tensor must be at least a vector, but saw shape: []")
    shape = decode_shape(np.asarray(element_shape))
    if not compatible_shapes(shape, tuple(tensor.shape[1:])):
        raise InvalidArgumentError(None, None, f"Incompatible shapes during merge: {format_shape(shape)} vs. "
                                               f"{format_shape(tensor.shape[1:])}")
    return JaxList(tensor, tensor.shape[0], tensor.dtype)


def gather(lst, indices, element_shape, element_dtype):
    flat = jnp.reshape(indices, (-1,)) if not _known(indices) else np.reshape(indices, -1)
    if _known(flat):
        for i in flat:
            _check_known_index(i, lst.length, "gather")
    requested = decode_shape(np.asarray(element_shape))
    if lst.buffer is None:
        shape = lst.known_shape(requested)
        if shape is None:
            raise _not_initialized("gather from", merge_shapes(lst.declared, requested))
        return jnp.zeros((flat.shape[0], *shape), lst.dtype)
    return jnp.take(lst.buffer, flat, axis=0, mode="clip")


def scatter(lst, tensor, indices):
    tensor = jnp.asarray(tensor)
    flat = np.reshape(indices, -1) if _known(indices) else jnp.reshape(indices, (-1,))
    if tensor.ndim == 0 or tensor.shape[0] != flat.shape[0]:
        raise InvalidArgumentError(None, None, f"Invalid number of rows in input tensor. Expected: {flat.shape[0]} "
                                               f"Actual: {tensor.shape[0] if tensor.ndim else 'scalar'}")
    if _known(flat) and flat.size:
        if flat.min() < 0:
            raise InvalidArgumentError(None, None, f"Trying to scatter at negative index {int(flat.min())}")
        lst = grown(lst, int(flat.max()) + 1)
    rows = tensor[0] if tensor.shape[0] else jnp.zeros(tensor.shape[1:], tensor.dtype)
    _item_for(lst, rows)
    if lst.buffer is None:
        lst = lst.zeros(tuple(tensor.shape[1:]))
    return lst.with_buffer(lst.buffer.at[flat].set(tensor))  # a traced index past the end: dropped


def concat(lst, element_shape, leading_dims, element_dtype):
    requested = decode_shape(np.asarray(element_shape))
    shape = lst.known_shape(requested)
    if lst.length == 0 and (shape is None or len(shape) == 0):
        full = merge_shapes(lst.declared, requested)
        if full is None or len(full) == 0 or any(d is None for d in full[1:]):
            raise InvalidArgumentError(None, None, "All except the first dimension must be fully defined when "
                                                   "concating an empty tensor list. element_shape: " + format_shape(full))
    buffer = lst.dense(requested, "concat")
    if buffer.ndim < 2:
        raise InvalidArgumentError(None, None, "Concat saw a scalar shape at index 0 but requires at least vectors.")
    n, lead = buffer.shape[0], buffer.shape[1]
    return jnp.reshape(buffer, (n * lead, *buffer.shape[2:])), np.full(n, lead, np.int64)


def split(tensor, element_shape, lengths):
    tensor = jnp.asarray(tensor)
    lengths = np.asarray(lengths).reshape(-1)  # traced: retried with the lengths as constants
    if tensor.ndim == 0:
        raise InvalidArgumentError(None, None, "Tensor must be at least a vector, but saw shape: []")
    if int(lengths.sum()) != tensor.shape[0]:
        raise InvalidArgumentError(None, None, f"Unused values in tensor. Length of tensor: {tensor.shape[0]} Values "
                                               f"used: {int(lengths.sum())}")
    if lengths.size == 0:
        return JaxList(None, 0, tensor.dtype, decode_shape(np.asarray(element_shape)))
    if (lengths != lengths[0]).any():
        # TensorFlow's XLA: UnimplementedError "All lengths have to be the same" (a list is one buffer)
        raise UnimplementedError(None, None, f"All lengths have to be the same: XLA keeps a list as one buffer of "
                                             f"same-shape items, and the lengths are {lengths.tolist()}. Split into "
                                             f"equal pieces, or split outside jit_compile=True.")
    k = lengths.size
    return JaxList(jnp.reshape(tensor, (k, int(lengths[0]), *tensor.shape[1:])), k, tensor.dtype)




def _list_aware(lowering, on_lists):
    """`lowering`, with lists taken by `on_lists`: gradients reach ZerosLike and AddN with lists, as
    the NumPy kernels reach ListValue's `zeros_like` and `+` hooks (ops/control/lists.py)."""
    def lowered(*xs, **attrs):
        return on_lists(*xs) if isinstance(xs[0], JaxList) else lowering(*xs, **attrs)
    lowered.__doc__ = lowering.__doc__
    return lowered


_array.ZerosLike.jax = _list_aware(_array.ZerosLike.jax, JaxList.zeros_like)
_math.AddN.jax = _list_aware(_math.AddN.jax, lambda *xs: sum(xs[1:], xs[0]))
