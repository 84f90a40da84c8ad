"""CTCUniqueLabels (tf.nn.ctc_unique_labels) written as TensorFlow ops without a loop: TensorFlow's own
function maps `unique` over the rows. Here, for labels L [batch, time]:
  eq[b, i, j]  = L[b, i] == L[b, j];  first[b, j] = no earlier j' < j with eq[b, j, j']
  rank[b, j]   = (number of first occurrences up to j) - 1: the slot of a first occurrence
  index[b, i]  = rank at the one first occurrence j with eq[b, i, j]   (int32)
  unique[b, r] = L[b, j] of the first occurrence j with rank r, 0 past the last  (int64)"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .function_def import Value
from .generic_op import emit
from .rewrites import const


def export_ctc_unique_labels(builder, op):
    unique, index = op.outputs
    n = [0]

    def node(tf_type, inputs, dtype, attrs=None, out=None):
        n[0] += 1
        out = out if out is not None else Value(dtype)
        emit(builder, op, tf_type, inputs, attrs or {}, [out],
             base=None if any(out is t for t in op.outputs) else f"{op.name}/{tf_type.lower()}_{n[0]}")
        return out

    def number(value, dtype=np.int32):
        n[0] += 1
        return const(builder, f"{op.name}/c{n[0]}", np.asarray(value, dtype))

    labels = node("Cast", [op.inputs[0]], _dt.int64)
    eq = node("Equal", [node("ExpandDims", [labels, number(2)], _dt.int64),
                        node("ExpandDims", [labels, number(1)], _dt.int64)], _dt.bool_)
    time = node("GatherV2", [node("Shape", [op.inputs[0]], _dt.int32, {"out_type": _dt.int32}), number(1), number(0)],
                _dt.int32)
    positions = node("Range", [number(0), time, number(1)], _dt.int32)
    row_positions = node("ExpandDims", [positions, number(0)], _dt.int32)
    earlier = node("Less", [row_positions, node("ExpandDims", [positions, number(1)], _dt.int32)], _dt.bool_)
    repeat = node("Any", [node("LogicalAnd", [eq, earlier], _dt.bool_), number(2)], _dt.bool_)
    first = node("LogicalNot", [repeat], _dt.bool_)
    rank = node("Sub", [node("Cumsum", [node("Cast", [first], _dt.int32), number(1)], _dt.int32), number(1)],
                _dt.int32)
    at_first = node("Cast", [node("LogicalAnd", [eq, node("ExpandDims", [first, number(1)], _dt.bool_)], _dt.bool_)],
                    _dt.int32)
    node("Sum", [node("Mul", [at_first, node("ExpandDims", [rank, number(1)], _dt.int32)], _dt.int32), number(2)],
         _dt.int32, out=index)
    slot = node("SelectV2", [first, rank, number(-1)], _dt.int32)
    in_slot = node("Cast", [node("Equal", [node("ExpandDims", [slot, number(2)], _dt.int32), row_positions],
                                 _dt.bool_)], _dt.int64)
    node("Sum", [node("Mul", [in_slot, node("ExpandDims", [labels, number(2)], _dt.int64)], _dt.int64), number(1)],
         _dt.int64, out=unique)
