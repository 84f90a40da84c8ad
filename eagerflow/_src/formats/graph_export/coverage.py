"""Which eagerflow op types export to TensorFlow, and why the others do not.

An op type exports when op_rules.py has a rule for it, or when TensorFlow defines an op of the same
type taking the same inputs (generic_op.py). Every other op type is listed here with the reason;
tests/saved_model/test_export_coverage.py walks the op registry so a new op type must be placed."""
from __future__ import annotations

from .op_rules import RULES
from .tf_op_signatures import SIGNATURES

_SECOND_ORDER_LOOP = ("an internal op of a loop gradient's gradient: a second order exports as TensorFlow's "
                      "SymbolicGradient of the first-order gradient's function (gradient_export.py), leaving it out; "
                      "a third order does not export (control_flow/loop_history.py records the second order's "
                      "structure only, and TensorFlow 2.21 cannot run a SymbolicGradient through a While anyway)")

_UNTRACKED = ("a Python iterator over a tf.data pipeline: TensorFlow refuses to save a function holding one "
              "(AssertionError, an 'untracked' resource; iterator_export.py raises the same)")

NOT_EXPORTED = {
    "IteratorHasNext": _UNTRACKED,
    "IteratorOpenPass": _UNTRACKED,
    "LoopHistoryItem": _SECOND_ORDER_LOOP,
    "LoopHistoryItemGrad": _SECOND_ORDER_LOOP,
    "LoopHistoryLength": _SECOND_ORDER_LOOP,
    "LoopHistorySeedStacks": _SECOND_ORDER_LOOP,
    "LoopHistorySeeds": _SECOND_ORDER_LOOP,
    "LoopHistoryStack": _SECOND_ORDER_LOOP,
    "WriteSummary": "a function writing summaries holds its writer's resource, which TensorFlow refuses to save "
                    "(AssertionError; op_rules.py raises the same)",
}


def export_kind(op_type):
    """'rule', 'generic', or the reason the op type does not export."""
    if op_type in NOT_EXPORTED:
        return NOT_EXPORTED[op_type]
    if op_type in RULES:
        return "rule"
    if op_type in SIGNATURES:
        return "generic"
    return None


def exported_op_types(op_types):
    return sorted(t for t in op_types if export_kind(t) in ("rule", "generic"))
