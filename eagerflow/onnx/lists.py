"""TensorLists (tf.TensorArray, a Keras RNN's collected outputs, a tf.range loop's writes) as ONNX
sequences of tensors.

A list is an ONNX Sequence whose elements are the items: Reserve makes `num_elements` placeholder
items (zeros of the element shape, a dimension it leaves unknown 0), SetItem replaces one (SequenceErase + SequenceInsert at the index),
GetItem is SequenceAt, Stack is ConcatFromSequence on a new first axis, FromTensor is
SplitToSequence, Length is SequenceLength. ONNX Loops and Ifs carry sequences as they carry tensors.
What differs from TensorFlow: when the element shape is not fully known at export, a list stacked
with items never written (TensorFlow reads them as zeros of the written items' shape) fails in the
runtime on the placeholder's shape.

The element dtype of every sequence value is recorded by its ONNX name (`Builder.sequence_dtypes`):
a sub-graph's inputs and outputs must declare it, and a variant tensor carries none.
"""
from __future__ import annotations

import numpy as np


def _sequence(b, name, np_dtype):
    b.root.sequence_dtypes[name] = np.dtype(np_dtype)
    return name


def _element_dtype(b, op, handle_index=0):
    dtype = op.attrs.get("element_dtype")
    if dtype is not None:
        return dtype.np_dtype
    return b.root.sequence_dtypes[b.name(op.inputs[handle_index])]


def _placeholder_shape(op):
    """The shape of Reserve's unwritten items: the element shape when it is a constant, its unknown
    dimensions 0 (so the items have the rank the written ones will have); [0] when the rank is unknown."""
    source = op.inputs[0].op
    if source.type != "Const":
        return np.array([0], np.int64)
    shape = np.asarray(source.attrs["value"]).astype(np.int64)
    return np.array([0], np.int64) if shape.ndim == 0 else np.maximum(shape, 0)


def _reserve(b, op):
    dtype = op.attrs["element_dtype"].np_dtype
    count = b.add("Reshape", [b.add("Cast", [b.name(op.inputs[1])], to=b.onnx_type(np.int64)),
                              b.constant(np.array([1], np.int64))])
    tail = _placeholder_shape(op)
    if op.inputs[0].op.type != "Const" or np.ndim(op.inputs[0].op.attrs["value"]) == 0:
        # Unknown rank: [0] sliced to a length ONNX's shape inference cannot see, so it infers no rank
        # for the items (a rank it inferred would conflict with the written items' rank downstream).
        length = b.add("Reshape", [b.add("Size", [count]), b.constant(np.array([1], np.int64))])
        tail = b.add("Slice", [b.constant(tail), b.constant(np.array([0], np.int64)), length])
    else:
        tail = b.constant(tail)
    shape = b.add("Concat", [count, tail], axis=0)
    empty = b.add("ConstantOfShape", [shape], value=b.onnx.numpy_helper.from_array(np.zeros([1], dtype)))
    return [_sequence(b, b.add("SplitToSequence", [empty], axis=0, keepdims=0), dtype)]


def _set_item(b, op):
    dtype = _element_dtype(b, op)
    index = b.name(op.inputs[1])
    erased = b.add("SequenceErase", [b.name(op.inputs[0]), index])
    return [_sequence(b, b.add("SequenceInsert", [erased, b.name(op.inputs[2]), index]), dtype)]


def _get_item(b, op):
    return [b.add("SequenceAt", [b.name(op.inputs[0]), b.name(op.inputs[1])])]


def _stack(b, op):
    return [b.add("ConcatFromSequence", [b.name(op.inputs[0])], axis=0, new_axis=1)]


def _from_tensor(b, op):
    tensor = op.inputs[0]
    return [_sequence(b, b.add("SplitToSequence", [b.name(tensor)], axis=0, keepdims=0), tensor.dtype.np_dtype)]


def _length(b, op):
    return [b.add("Cast", [b.add("SequenceLength", [b.name(op.inputs[0])])], to=b.onnx_type(np.int32))]


CONVERTERS = {
    "TensorListReserve": _reserve, "TensorListSetItem": _set_item, "TensorListGetItem": _get_item,
    "TensorListStack": _stack, "TensorListFromTensor": _from_tensor, "TensorListLength": _length,
}
