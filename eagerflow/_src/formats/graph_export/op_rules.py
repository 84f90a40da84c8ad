"""How each op type that needs more than the generic export is written (the rest: generic_op.py)."""
from __future__ import annotations

from .attr_input_export import (export_fingerprint, export_matrix_diag, export_matrix_diag_part,
                                export_matrix_set_diag)
from .composite_export import export_is_jpeg, export_unicode_char_split
from .cond_gradient_export import export_kept_gradient, export_kept_seed, export_kept_value
from .traced_call_export import export_ctc_loss_dense, export_nms_padded, export_shuffle_order
from .ctc_unique_export import export_ctc_unique_labels
from .custom_gradient_export import export_saved_custom_gradient
from .control_flow_export import export_if, export_while
from .generic_op import emit, export_generic
from .hashed_cross_export import export_hashed_cross_step
from .image_batch_export import export_load_image_batch
from .iterator_export import export_iterator_op
from .gradient_export import export_kept_while, export_while_grad
from .optimizer_export import export_adam_update
from .optional_gradient_export import export_optional_gradient
from .parse_example_export import export_parse_example
from .variable_init_export import export_initialize_variable
from .table_export import (export_mutable_find, export_mutable_size, export_mutable_write, export_summary_write,
                           export_table_export, export_table_find, export_vocabulary_lookup)
from .prod_gradient_export import export_prod_of_others
from .python_call_export import export_python_call
from .rewrites import (export_const, export_range_of_rank, export_reduced_shape, export_reversed_range,
                       export_sum_to_shape)


def export_call(builder, op):
    """A tf.function called inside another: StatefulPartitionedCall/PartitionedCall of its FunctionDef."""
    name = builder.library.called_function(op.attrs["f"])
    emit(builder, op, op.type, list(op.inputs), {"f": name, "Tout": [t.dtype for t in op.outputs]},
         list(op.outputs))


# Where a saved PrintV2 may print: a loader refuses any other stream (a model file writing files).
PRINT_STREAMS = frozenset({"stdout", "stderr"})


def export_print(builder, op):
    """PrintV2 to stdout or stderr; a file stream is refused when saving, as every load would refuse it."""
    stream = op.attrs.get("output_stream")
    if stream not in PRINT_STREAMS:
        raise ValueError(f"Cannot save op {op.name!r} (type PrintV2) of graph {op.graph.name!r}: it prints to "
                         f"{stream!r}, and a loaded model may print to stdout or stderr only (a file stream "
                         f"would let a model file write files).")
    export_generic(builder, op)


def export_logical_xor(builder, op):
    """LogicalXor(x, y) = NotEqual(x, y) on booleans."""
    emit(builder, op, "NotEqual", list(op.inputs), {}, list(op.outputs))


# eagerflow-only ops written as several TensorFlow nodes. The last node records the op and its inputs
# (`_eagerflow_op`, `_eagerflow_inputs`: attributes TensorFlow ignores, their names starting with `_`)
# and the others are marked `_eagerflow_part`, so eagerflow's loader rebuilds the one op.
REWRITTEN = frozenset({"SumToShape", "ReducedShape", "RangeOfRank", "ReversedRange", "AdamUpdate", "VocabularyLookup",
                       "MutableHashTableInsert", "MutableHashTableRemove", "MutableHashTableFind",
                       "MutableHashTableSize", "ProdOfOthers",
                       "HashedCrossStep", "CTCLossDense", "NonMaxSuppressionPaddedV2",
                       "OptionalGradientComponents", "ShuffleOrder"})


def _ints(value):
    return ",".join(str(int(v)) for v in value) if isinstance(value, tuple) else str(int(value))


def _recorded(rule, int_attrs=()):
    """`rule`, its nodes marked as above; `int_attrs`: the op's integer or boolean attributes (or tuples
    of them) the loader needs, recorded as `_eagerflow_int_attrs` ("name=value" or "name=v1,v2,...")."""
    def export(builder, op):
        inputs = [builder.ref(t) for t in op.inputs]
        before = len(builder.nodes)
        rule(builder, op)
        for node in builder.nodes[before:-1]:
            node["attr"]["_eagerflow_part"] = {"b": True}
        builder.nodes[-1]["attr"]["_eagerflow_op"] = {"s": op.type.encode()}
        builder.nodes[-1]["attr"]["_eagerflow_inputs"] = {"list": {"s": [r.encode() for r in inputs]}}
        kept = [f"{k}={_ints(op.attrs[k])}".encode() for k in int_attrs if k in op.attrs]
        if kept:
            builder.nodes[-1]["attr"]["_eagerflow_int_attrs"] = {"list": {"s": kept}}
    return export


def export_lookup(builder, op):
    """A VocabularyLookup: in a table the SavedModel holds as a resource (its handle an argument of this
    function, or of the branch or loop body the lookup is in), else in a table made for the call."""
    from .function_export import static_table_of
    if op in builder.table_handles:
        export_table_find(builder, op)
        return
    table = static_table_of(builder.library, op) if builder.table_refs else None
    if table is not None and id(table) in builder.table_refs:
        export_table_find(builder, op, builder.table_refs[id(table)])
    else:
        _recorded(export_vocabulary_lookup)(builder, op)


RULES = {
    "LogicalXor": export_logical_xor,
    "PrintV2": export_print,
    "Const": export_const,
    "If": export_if,
    "StatelessIf": export_if,
    "While": export_kept_while,
    "StatelessWhile": export_kept_while,
    "PartitionedCall": export_call,
    "StatefulPartitionedCall": export_call,
    "WhileGrad": export_while_grad,
    "IfKeptValue": export_kept_value,
    "IfKeptGradient": export_kept_gradient,
    "IfKeptSeed": export_kept_seed,
    "SumToShape": _recorded(export_sum_to_shape),
    "ReducedShape": _recorded(export_reduced_shape),
    "RangeOfRank": _recorded(export_range_of_rank),
    "ReversedRange": _recorded(export_reversed_range),
    "AdamUpdate": _recorded(export_adam_update),
    "ParseExampleV2": export_parse_example,
    "VocabularyLookup": export_lookup,
    "MutableHashTableInsert": export_mutable_write,
    "MutableHashTableRemove": export_mutable_write,
    "MutableHashTableExport": export_table_export,
    "MutableHashTableFind": export_mutable_find,
    "MutableHashTableSize": export_mutable_size,
    "WriteSummary": export_summary_write,
    "MatrixDiagPartV3": export_matrix_diag_part,
    "MatrixDiagV3": export_matrix_diag,
    "MatrixSetDiagV3": export_matrix_set_diag,
    "Fingerprint": export_fingerprint,
    "IsJpeg": export_is_jpeg,
    "UnicodeCharSplit": export_unicode_char_split,
    "EagerPyFunc": export_python_call,
    "PyFunc": export_python_call,
    "PyFuncStateless": export_python_call,
    "CTCUniqueLabels": export_ctc_unique_labels,
    "ProdOfOthers": _recorded(export_prod_of_others),
    "IteratorOpenPass": export_iterator_op,
    "IteratorHasNext": export_iterator_op,
    "IteratorGetNext": export_iterator_op,
    "AssignVariableIfUninitialized": export_initialize_variable,
    "HashedCrossStep": export_hashed_cross_step,
    "CTCLossDense": _recorded(export_ctc_loss_dense),
    "SavedCustomGradient": export_saved_custom_gradient,
    "NonMaxSuppressionPaddedV2": _recorded(export_nms_padded,
                                           ("tile_size", "sorted_input", "canonicalized_coordinates")),
    "OptionalGradientComponents": _recorded(export_optional_gradient),
    "ShuffleOrder": _recorded(export_shuffle_order, ("seeds",)),
    "LoadImageBatch": export_load_image_batch,
}
