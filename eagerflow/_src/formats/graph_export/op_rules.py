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


# eagerflow-only ops written as several TensorFlow nodes. The last node records the op and its inputs
# (`_eagerflow_op`, `_eagerflow_inputs`: attributes TensorFlow ignores, their names starting with `_`)
# and the others are marked `_eagerflow_part`, so eagerflow's loader rebuilds the one op.
REWRITTEN = frozenset({"SumToShape", "ReducedShape", "RangeOfRank", "ReversedRange"})


def _recorded(rule):
    def export(builder, op):
        inputs = [builder.ref(t) for t in op.inputs]
        before = len(builder.nodes)
        rule(builder, op)
        for node in builder.nodes[before:-1]:
            node["attr"]["_eagerflow_part"] = {"b": True}
        builder.nodes[-1]["attr"]["_eagerflow_op"] = {"s": op.type.encode()}
        builder.nodes[-1]["attr"]["_eagerflow_inputs"] = {"list": {"s": [r.encode() for r in inputs]}}
    return export


RULES = {
    "LogicalXor": export_logical_xor,
    "Const": export_const,
    "If": export_if,
    "StatelessIf": export_if,
    "While": export_while,
    "StatelessWhile": export_while,
    "PartitionedCall": export_call,
    "StatefulPartitionedCall": export_call,
    "SumToShape": _recorded(export_sum_to_shape),
    "ReducedShape": _recorded(export_reduced_shape),
    "RangeOfRank": _recorded(export_range_of_rank),
    "ReversedRange": _recorded(export_reversed_range),
}
