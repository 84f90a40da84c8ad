"""How each op type that needs more than the generic export is written (the rest: generic_op.py)."""
from __future__ import annotations

from .control_flow_export import export_if, export_while
from .generic_op import emit
from .rewrites import (export_const, export_range_of_rank, export_reduced_shape, export_reversed_range,
                       export_sum_to_shape)


def export_call(builder, op):
    """A tf.function called inside another: StatefulPartitionedCall/PartitionedCall of its FunctionDef."""
    name = builder.library.called_function(op.attrs["f"])
    emit(builder, op, op.type, list(op.inputs), {"f": name, "Tout": [t.dtype for t in op.outputs]},
         list(op.outputs))


def export_logical_xor(builder, op):
    """LogicalXor(x, y) = NotEqual(x, y) on booleans."""
    emit(builder, op, "NotEqual", list(op.inputs), {}, list(op.outputs))


RULES = {
    "LogicalXor": export_logical_xor,
    "Const": export_const,
    "If": export_if,
    "StatelessIf": export_if,
    "While": export_while,
    "StatelessWhile": export_while,
    "PartitionedCall": export_call,
    "StatefulPartitionedCall": export_call,
    "SumToShape": export_sum_to_shape,
    "ReducedShape": export_reduced_shape,
    "RangeOfRank": export_range_of_rank,
    "ReversedRange": export_reversed_range,
}
