"""TensorList ops: an immutable list of same-dtype tensors carried by one `variant` tensor.

Why: a `tf.TensorArray` in a graph must be a single tensor so that `tf.while_loop` and `tf.cond`
can carry it like any loop variable. Each op here takes a list and returns a *new* list (the
payload is copied on write, items are never mutated), so a value seen by one op never changes
under another, and gradients can be written with the same ops: the gradient of a list is a list
of the gradients of its items (an unset item stands for zeros).

Element shapes travel as int32 tensors, TensorFlow's encoding: `-1` (a scalar) for an unknown
rank, and `-1` for an unknown dimension of a known rank.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..array.basic import shape as _shape_of, zeros_like
from ..operands import as_int_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from . import lists_jax as _jax
from .list_shapes import compatible_shapes, decode_shape, format_shape, merge_shapes
from .list_values import (ListValue, TensorList, _check_index, _check_item, _dense_items, _new_list,
                          _static_element_shape, _variant_spec, _zero_item)


# --- TensorListReserve / TensorListLength -------------------------------------------------------------


def _reserve_kernel(element_shape, num_elements, element_dtype):
    n = int(num_elements)
    if n < 0:
        raise InvalidArgumentError(None, None, f"The num_elements to reserve must be a non negative number, but "
                                               f"got {n}")
    return _new_list([None] * n, decode_shape(element_shape), element_dtype.np_dtype)


TensorListReserve = defop(
    "TensorListReserve", inputs=("element_shape", "num_elements"), kernel=_reserve_kernel,
    infer=lambda inputs, attrs: _variant_spec(), grad=NO_GRADIENT,
    doc="A list of `num_elements` unset items (they read as zeros once their shape is known).")

TensorListLength = defop(
    "TensorListLength", inputs=("input_handle",), kernel=lambda lst: np.array(len(lst.payload.items), np.int32),
    infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.int32)], grad=NO_GRADIENT,
    doc="The number of items of a list, set or not.")


# --- TensorListSetItem / TensorListGetItem -----------------------------------------------------------


def _set_item_kernel(lst, index, item, resize_if_index_out_of_bounds=False):
    lst, i = lst.payload, int(index)
    items = list(lst.items)
    if resize_if_index_out_of_bounds and i >= len(items):
        items.extend([None] * (i + 1 - len(items)))
    _check_index(i, len(items), "modify")
    item = np.asarray(item)
    _check_item(lst, item)
    items[i] = item
    return lst.replace(items)  # the list keeps its declared element shape, as TensorFlow's does


def _set_item_grad(op, g):
    lst, index, item = op.inputs
    return (bind(TensorListSetItem, (g, index, zeros_like(item))), None,
            bind(TensorListGetItem, (g, index, _shape_of(item)), {"element_dtype": item.dtype}))


TensorListSetItem = defop(
    "TensorListSetItem", inputs=("input_handle", "index", "item"), kernel=_set_item_kernel,
    infer=lambda inputs, attrs: _variant_spec(), grad=_set_item_grad,
    doc="A copy of the list with one item replaced.")


def _get_item_kernel(lst, index, element_shape, element_dtype):
    lst, i = lst.payload, int(index)
    _check_index(i, len(lst.items), "access")
    item = lst.items[i]
    return item if item is not None else _zero_item(lst, decode_shape(element_shape), "read")


def _get_item_grad(op, g):
    lst, index, _ = op.inputs
    return bind(TensorListSetItem, (zeros_like(lst), index, g)), None, None


TensorListGetItem = defop(
    "TensorListGetItem", inputs=("input_handle", "index", "element_shape"), kernel=_get_item_kernel,
    infer=lambda inputs, attrs: [Spec(_static_element_shape(inputs[2]), attrs["element_dtype"])],
    grad=_get_item_grad, doc="One item of a list (zeros for an unset item of known shape).")


# --- TensorListStack / TensorListFromTensor ------------------------------------------------------------


def _stack_kernel(lst, element_shape, element_dtype, num_elements=-1):
    lst = lst.payload
    shape = decode_shape(element_shape)
    if not lst.items:
        full = merge_shapes(lst.element_shape, shape)
        if full is None or any(d is None for d in full):
            raise InvalidArgumentError(None, None, f"Tried to stack elements of an empty list with non-fully-defined "
                                                   f"element_shape: {format_shape(full)}")
        return np.zeros((0, *full), lst.element_dtype)
    if num_elements >= 0 and num_elements != len(lst.items):
        raise InvalidArgumentError(None, None, f"Operation expected a list with {num_elements} elements but got a "
                                               f"list with {len(lst.items)} elements.")
    items = _dense_items(lst, shape, "read")
    first = items[0].shape
    for k, a in enumerate(items):
        if a.shape != first:
            raise InvalidArgumentError(None, None, f"Incompatible shapes during merge: {format_shape(first)} vs. "
                                                   f"{format_shape(a.shape)}")
    return np.stack(items).astype(lst.element_dtype, copy=False)


def _stack_infer(inputs, attrs):
    n = attrs.get("num_elements", -1)
    return [Spec(TensorShape([None if n < 0 else n]).concatenate(_static_element_shape(inputs[1])),
                 attrs["element_dtype"])]


def _stack_grad(op, g):
    return bind(TensorListFromTensor, (g, op.inputs[1])), None


TensorListStack = defop(
    "TensorListStack", inputs=("input_handle", "element_shape"), kernel=_stack_kernel, infer=_stack_infer,
    grad=_stack_grad, doc="The items stacked along a new first axis (unset items as zeros).")


def _from_tensor_kernel(tensor, element_shape):
    tensor = np.asarray(tensor)
    if tensor.ndim == 0:
        raise InvalidArgumentError(None, None, "Tensor must be at least a vector, but saw shape: []")
    shape = decode_shape(element_shape)
    if not compatible_shapes(shape, tensor.shape[1:]):
        raise InvalidArgumentError(None, None, f"Incompatible shapes during merge: {format_shape(shape)} vs. "
                                               f"{format_shape(tensor.shape[1:])}")
    return _new_list(list(tensor), shape, tensor.dtype)


def _from_tensor_grad(op, g):
    tensor = op.inputs[0]
    return bind(TensorListStack, (g, op.inputs[1]), {"element_dtype": tensor.dtype}), None


TensorListFromTensor = defop(
    "TensorListFromTensor", inputs=("tensor", "element_shape"), kernel=_from_tensor_kernel,
    infer=lambda inputs, attrs: _variant_spec(), grad=_from_tensor_grad,
    doc="A list of the slices of a tensor along its first axis.")


# --- TensorListGather / TensorListScatterIntoExistingList ------------------------------------------------


def _gather_kernel(lst, indices, element_shape, element_dtype):
    lst = lst.payload
    indices = np.asarray(indices).reshape(-1)
    for i in indices:
        if not 0 <= int(i) < len(lst.items):  # (TensorFlow's kernel words it so, "o" included)
            raise InvalidArgumentError(None, None, f"Index {int(i)} out o range; list only has {len(lst.items)} "
                                                   f"elements.")
    shape = decode_shape(element_shape)
    picked = TensorList([lst.items[int(i)] for i in indices], lst.element_shape, lst.element_dtype)
    if not len(indices):
        return _stack_kernel(ListValue(picked), element_shape, element_dtype)
    items = [a if a is not None else _zero_item(lst, shape, "read") for a in picked.items]
    return np.stack(items).astype(lst.element_dtype, copy=False)


def _gather_infer(inputs, attrs):
    return [Spec(TensorShape([inputs[1].shape.num_elements()]).concatenate(_static_element_shape(inputs[2])),
                 attrs["element_dtype"])]


def _gather_grad(op, g):
    """Indices may repeat, so the rows of `g` are summed per index (a one-hot product) into a full
    list: scattering them would keep only the last row of a repeated index."""
    from ..array.basic import reshape
    from ..array.joining import concat
    from ..linalg.matmul import matmul
    from ..array.sequences import one_hot
    lst, indices, _ = op.inputs
    n = bind(TensorListLength, (lst,))
    hot = one_hot(reshape(indices, [-1]), n, dtype=g.dtype)  # [k, n]
    rows = reshape(g, concat([_shape_of(g)[:1], [-1]], 0))  # [k, prod(element shape)]
    dense = reshape(matmul(hot, rows, transpose_a=True), concat([[-1], _shape_of(g)[1:]], 0))
    return bind(TensorListFromTensor, (dense, op.inputs[2])), None, None


TensorListGather = defop(
    "TensorListGather", inputs=("input_handle", "indices", "element_shape"), kernel=_gather_kernel,
    infer=_gather_infer, grad=_gather_grad, doc="The items at `indices`, stacked.")


def _scatter_kernel(lst, tensor, indices):
    lst = lst.payload
    tensor, indices = np.asarray(tensor), np.asarray(indices).reshape(-1)
    if tensor.ndim == 0 or tensor.shape[0] != len(indices):
        raise InvalidArgumentError(None, None, f"Invalid number of rows in input tensor. Expected: {len(indices)} "
                                               f"Actual: {tensor.shape[0] if tensor.ndim else 'scalar'}")
    items = list(lst.items)
    for row, i in zip(tensor, indices):
        i = int(i)
        if i < 0:
            raise InvalidArgumentError(None, None, f"Trying to scatter at negative index {i}")
        if i >= len(items):
            items.extend([None] * (i + 1 - len(items)))
        _check_item(lst, row)
        items[i] = row
    return lst.replace(items)


def _scatter_grad(op, g):
    lst, tensor, indices = op.inputs
    return (bind(TensorListScatterIntoExistingList, (g, zeros_like(tensor), indices)),
            bind(TensorListGather, (g, indices, _shape_of(tensor)[1:]), {"element_dtype": tensor.dtype}), None)


TensorListScatterIntoExistingList = defop(
    "TensorListScatterIntoExistingList", inputs=("input_handle", "tensor", "indices"), kernel=_scatter_kernel,
    infer=lambda inputs, attrs: _variant_spec(), grad=_scatter_grad,
    doc="A copy of the list with the rows of `tensor` written at `indices` (growing it as needed).")


# --- TensorListConcatV2 / TensorListSplit ---------------------------------------------------------------


def _concat_kernel(lst, element_shape, leading_dims, element_dtype):
    lst = lst.payload
    shape = decode_shape(element_shape)
    if not lst.items:
        full = merge_shapes(lst.element_shape, shape)
        if full is None or len(full) == 0 or any(d is None for d in full[1:]):
            raise InvalidArgumentError(None, None, "All except the first dimension must be fully defined when "
                                                   "concating an empty tensor list. element_shape: " + format_shape(full))
        return np.zeros((0, *full[1:]), lst.element_dtype), np.zeros(0, np.int64)
    items = _dense_items(lst, shape, "read")
    for k, a in enumerate(items):
        if a.ndim == 0:
            raise InvalidArgumentError(None, None, f"Concat saw a scalar shape at index {k} but requires at least "
                                                   f"vectors.")
        if a.shape[1:] != items[0].shape[1:]:
            raise InvalidArgumentError(None, None, f"Incompatible shapes during merge: {format_shape(items[0].shape[1:])} "
                                                   f"vs. {format_shape(a.shape[1:])}")
    lengths = np.array([a.shape[0] for a in items], np.int64)
    return np.concatenate(items).astype(lst.element_dtype, copy=False), lengths


def _concat_infer(inputs, attrs):
    inner = _static_element_shape(inputs[1])
    rest = TensorShape(None) if inner.rank is None else TensorShape(inner.as_list()[1:])
    return [Spec(TensorShape([None]).concatenate(rest), attrs["element_dtype"]),
            Spec(TensorShape([None]), _dt.int64)]


def _concat_grad(op, g, _lengths_grad):
    return bind(TensorListSplit, (g, op.inputs[1], op.outputs[1])), None, None


TensorListConcatV2 = defop(
    "TensorListConcatV2", inputs=("input_handle", "element_shape", "leading_dims"), kernel=_concat_kernel,
    infer=_concat_infer, grad=_concat_grad, multi_output=True, sparse_output_grads=True,
    doc="The items concatenated along their first axis, and each item's length there.")


def _split_kernel(tensor, element_shape, lengths):
    tensor, lengths = np.asarray(tensor), np.asarray(lengths).reshape(-1)
    if tensor.ndim == 0:
        raise InvalidArgumentError(None, None, "Tensor must be at least a vector, but saw shape: []")
    if int(lengths.sum()) != tensor.shape[0]:
        raise InvalidArgumentError(None, None, f"Unused values in tensor. Length of tensor: {tensor.shape[0]} Values "
                                               f"used: {int(lengths.sum())}")
    cuts = np.cumsum(lengths)[:-1]
    return _new_list(np.split(tensor, cuts), decode_shape(element_shape), tensor.dtype)


def _split_grad(op, g):
    tensor = op.inputs[0]
    leading = as_int_tensor(-1, _dt.int64)
    out = bind(TensorListConcatV2, (g, op.inputs[1], leading), {"element_dtype": tensor.dtype})
    return out[0], None, None


TensorListSplit = defop(
    "TensorListSplit", inputs=("tensor", "element_shape", "lengths"), kernel=_split_kernel,
    infer=lambda inputs, attrs: _variant_spec(), grad=_split_grad,
    doc="A list of consecutive pieces of a tensor along its first axis, of the given lengths.")


# --- JAX lowerings (jit_compile=True): a list is one dense buffer there (lists_jax.py) ---
TensorListReserve.jax = _jax.reserve
TensorListLength.jax = lambda lst: np.array(lst.length, np.int32)
TensorListSetItem.jax = _jax.set_item
TensorListGetItem.jax = _jax.get_item
TensorListStack.jax = _jax.stack
TensorListFromTensor.jax = _jax.from_tensor
TensorListGather.jax = _jax.gather
TensorListScatterIntoExistingList.jax = _jax.scatter
TensorListConcatV2.jax = _jax.concat
TensorListSplit.jax = _jax.split
