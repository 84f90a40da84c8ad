"""Every registered op type either exports to TensorFlow (a rule, or TensorFlow's op of the same type
with the same inputs) or is listed with the reason it does not, so a new op cannot silently break
tf.saved_model.save's TensorFlow format."""
from eagerflow._src.formats.graph_export.coverage import NOT_EXPORTED, export_kind
from eagerflow._src.formats.graph_export.op_rules import RULES
from eagerflow._src.formats.graph_export.tf_op_signatures import SIGNATURES
from eagerflow._src.ops.registry import OPS
from eagerflow.saved_model.graph_io import register_every_op


def _all_ops():
    register_every_op()
    return dict(OPS)


def test_every_op_type_exports_or_says_why_not():
    unplaced = [name for name in _all_ops() if export_kind(name) is None]
    assert unplaced == [], f"op types with neither an export nor a reason in coverage.NOT_EXPORTED: {unplaced}"


def test_a_generic_export_has_tensorflows_inputs():
    # The generic export passes the op's inputs to TensorFlow's op of the same type: their number must
    # agree (an op declaring no input names takes a variadic list).
    mismatched = []
    for name, opdef in _all_ops().items():
        if export_kind(name) != "generic" or not opdef.inputs:
            continue
        tf_inputs = SIGNATURES[name][0]
        if len(opdef.inputs) != len(tf_inputs):
            mismatched.append((name, list(opdef.inputs), [a[0] for a in tf_inputs]))
    assert mismatched == []


def test_the_lists_name_only_registered_op_types():
    ops = _all_ops()
    assert sorted(set(NOT_EXPORTED) - set(ops)) == []
    assert sorted(set(RULES) - set(ops)) == []
    assert all(reason and isinstance(reason, str) for reason in NOT_EXPORTED.values())


def test_the_recorded_signatures_are_tensorflows():
    # Recorded from TensorFlow 2.21's op registry (tools/gen_tf_op_signatures.py).
    ins, outs, attrs, stateful = SIGNATURES["AddV2"]
    assert ins == (("x", "attr", "T", ""), ("y", "attr", "T", "")) and outs == (("z", "attr", "T", ""),)
    assert SIGNATURES["ConcatV2"][0] == (("values", "attr", "T", "N"), ("axis", "attr", "Tidx", ""))
    assert SIGNATURES["StatelessWhile"][0] == (("input", "list", "T", ""),)
    assert ("data_format", "string", True) in SIGNATURES["Conv2D"][2]
    assert SIGNATURES["VarHandleOp"][3] is True and SIGNATURES["MatMul"][3] is False
    assert SIGNATURES["Shape"][1] == (("output", "attr", "out_type", ""),)
