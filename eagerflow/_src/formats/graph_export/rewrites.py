"""eagerflow-only op types written as the TensorFlow ops that compute them, and the ops whose
attributes need more than the generic conversion (Const)."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .attr_values import tensor_proto
from .function_def import Value
from .generic_op import emit


def const(builder, base, array, dtype=None):
    """A Const node holding `array`; returns its Value."""
    array = np.asarray(array)
    dtype = _dt.from_numpy(array.dtype) if dtype is None else dtype
    out = Value(dtype)
    name = builder.add_node(base, "Const", [], {"value": {"tensor": tensor_proto(array, dtype)},
                                                 "dtype": {"type": _datatype(dtype)}})
    out.ref = f"{name}:output:0"
    return out


def _datatype(dtype):
    from ..dtypes import datatype_number as datatype
    return datatype(dtype)


def export_const(builder, op):
    value = const(builder, op.name, op.attrs["value"], op.attrs["dtype"])
    builder.set_ref(op.outputs[0], value.ref)


def export_sum_to_shape(builder, op):
    """SumToShape(grad, shape): the sum of `grad` over the axes broadcasting added or stretched,
    reshaped to `shape` (BroadcastGradientArgs' first output names the axes that reduce the
    broadcast of its two shapes back to the first)."""
    grad, shape = op.inputs
    index = shape.dtype
    grad_shape = Value(index)
    emit(builder, op, "Shape", [grad], {"out_type": index}, [grad_shape], base=f"{op.name}/Shape")
    axes, _ = Value(index), Value(index)
    emit(builder, op, "BroadcastGradientArgs", [shape, grad_shape], {}, [axes, _], base=f"{op.name}/Axes")
    summed = Value(grad.dtype)
    emit(builder, op, "Sum", [grad, axes], {"keep_dims": False}, [summed], base=f"{op.name}/Sum")
    emit(builder, op, "Reshape", [summed, shape], {}, [op.outputs[0]])


def _range(builder, op, start, limit, delta):
    emit(builder, op, "Range", [start, limit, delta], {}, [op.outputs[0]])


def export_range_of_rank(builder, op):
    """RangeOfRank(rank) = Range(0, rank, 1): every axis of a tensor of unknown rank."""
    rank = op.inputs[0]
    _range(builder, op, const(builder, f"{op.name}/start", np.int32(0)), rank,
           const(builder, f"{op.name}/delta", np.int32(1)))


def export_reversed_range(builder, op):
    """ReversedRange(n) = Range(n - 1, -1, -1): the permutation reversing n axes."""
    n = op.inputs[0]
    one = const(builder, f"{op.name}/one", np.int32(1))
    start = Value(_dt.int32)
    emit(builder, op, "Sub", [n, one], {}, [start], base=f"{op.name}/start")
    _range(builder, op, start, const(builder, f"{op.name}/limit", np.int32(-1)),
           const(builder, f"{op.name}/delta", np.int32(-1)))


def export_reduced_shape(builder, op):
    """ReducedShape(input_shape, axes): input_shape with the reduced axes set to 1, stitched
    together by DynamicStitch (axes taken modulo the rank first, so negative axes count from the end)."""
    shape, axes = op.inputs
    index = shape.dtype
    rank = Value(index)
    emit(builder, op, "Size", [shape], {"out_type": index}, [rank], base=f"{op.name}/rank")
    shifted, wrapped = Value(axes.dtype), Value(axes.dtype)
    emit(builder, op, "AddV2", [axes, rank], {}, [shifted], base=f"{op.name}/shifted")
    emit(builder, op, "FloorMod", [shifted, rank], {}, [wrapped], base=f"{op.name}/axes")
    every = Value(index)
    _emit_range(builder, op, const(builder, f"{op.name}/start", np.zeros((), index.as_numpy_dtype)), rank,
                const(builder, f"{op.name}/delta", np.ones((), index.as_numpy_dtype)), every)
    axes_shape, ones = Value(_dt.int32), Value(index)
    emit(builder, op, "Shape", [wrapped], {"out_type": _dt.int32}, [axes_shape], base=f"{op.name}/axes_shape")
    emit(builder, op, "Fill", [axes_shape, const(builder, f"{op.name}/one", np.ones((), index.as_numpy_dtype))], {},
         [ones], base=f"{op.name}/ones")
    emit(builder, op, "DynamicStitch", [every, wrapped, shape, ones], {}, [op.outputs[0]])


def _emit_range(builder, op, start, limit, delta, out):
    emit(builder, op, "Range", [start, limit, delta], {}, [out], base=f"{op.name}/range")
