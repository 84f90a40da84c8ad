"""A hashed feature cross (keras.layers.HashedCrossing, FeatureSpace's crosses), which eagerflow computes
as a chain of HashedCrossStep ops folding one feature each into the running value, written as the one
TensorFlow op Keras' HashedCrossing runs on TensorFlow (through tf.sparse.cross_hashed): SparseCross with
`hashed_output` over the features as dense [n, 1] columns (one crossed value per row, in row order), reshaped to the features' shape.

For TensorFlow, the chain's last step (the one with `num_buckets` >= 0) is that SparseCross; each
step before it is only an Identity of its running value, which nothing TensorFlow runs reads. For
eagerflow's loader, every step's node records the step (`_eagerflow_op`, its inputs, and its
`num_buckets` in `_eagerflow_int_attrs`), so the loaded function folds the same chain."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...ops.strings.hashed_cross import CROSS_KEY
from .attr_values import ExportError
from .generic_op import emit
from .node_chain import NodeChain


def _record(builder, op, before, inputs):
    for node in builder.nodes[before:-1]:
        node["attr"]["_eagerflow_part"] = {"b": True}
    attrs = builder.nodes[-1]["attr"]
    attrs["_eagerflow_op"] = {"s": op.type.encode()}
    attrs["_eagerflow_inputs"] = {"list": {"s": [r.encode() for r in inputs]}}
    attrs["_eagerflow_int_attrs"] = {"list": {"s": [f"num_buckets={int(op.attrs['num_buckets'])}".encode()]}}


def _steps(op):
    """The chain's steps, first to last, and the features they fold in; ExportError for a chain that does
    not start from the cross key or whose running value something else reads."""
    steps = [op]
    running = op.inputs[0]
    while running._op.type == "HashedCrossStep":
        steps.insert(0, running._op)
        running = running._op.inputs[0]
    start = running._op
    if start.type != "Const" or np.asarray(start.attrs["value"]).shape != () or \
            int(start.attrs["value"]) != CROSS_KEY:
        raise ExportError(f"op {op.name!r} (HashedCrossStep) crosses from a value other than the cross key, "
                          f"which TensorFlow's SparseCross cannot start from")
    for step, following in zip(steps, steps[1:]):
        if step.attrs.get("num_buckets", -1) >= 0 or step.outputs[0].consumers() != [following]:
            raise ExportError(f"op {step.name!r} (HashedCrossStep): a part of a hashed cross is read by another "
                              f"op, which TensorFlow's SparseCross cannot give")
    return steps, [s.inputs[1] for s in steps]


def export_hashed_cross_step(builder, op):
    accumulated, feature = op.inputs
    inputs = [builder.ref(accumulated), builder.ref(feature)]
    before = len(builder.nodes)
    if op.attrs.get("num_buckets", -1) < 0:  # a step before the last: the last writes the cross
        emit(builder, op, "Identity", [accumulated], {}, [op.outputs[0]])
        _record(builder, op, before, inputs)
        return
    _, features = _steps(op)
    node = NodeChain(builder, op)
    i64 = _dt.int64
    shape = node("Shape", [features[0]], i64, {"out_type": i64})
    for other in features[1:]:
        shape = node("BroadcastArgs", [shape, node("Shape", [other], i64, {"out_type": i64})], i64)
    column = node.const([-1, 1], i64)
    columns = [node("Reshape", [node("BroadcastTo", [f, shape], f.dtype), column], f.dtype) for f in features]
    internal = _dt.string if all(f.dtype is _dt.string for f in features) else i64
    _, values, _ = node("SparseCross", columns, [i64, i64, i64],
                        {"N": 0, "sparse_types": [], "dense_types": [f.dtype for f in features], "hashed_output": True,
                         "num_buckets": int(op.attrs["num_buckets"]), "hash_key": CROSS_KEY, "out_type": i64,
                         "internal_type": internal})
    node("Reshape", [values, shape], i64, out=op.outputs[0])
    _record(builder, op, before, inputs)
