"""A function pulling elements from a tf.data pipeline through a Python iterator (`next(it)`, or a
`for` over a dataset eagerflow streams) is refused at save time, as TensorFlow 2.21 refuses it: the
function holds the iterator's (or the dataset's) resource, which no object of the SavedModel tracks, and
TensorFlow's save raises AssertionError "Tried to export a function which references an 'untracked'
resource" (also when the iterator is an attribute of the saved object)."""
from __future__ import annotations

from .generic_op import export_generic

UNTRACKED = ("Tried to export a function which references an 'untracked' resource. TensorFlow objects (e.g. "
             "tf.Variable) captured by functions must be 'tracked' by assigning them to an attribute of a tracked "
             "object or assigned to an attribute of the main object directly.")


def refuse_untracked(op, what):
    raise AssertionError(f"{UNTRACKED} Function {op.graph.name!r} {what} (op {op.name!r}, type {op.type}), which a "
                         f"SavedModel cannot hold.")


def export_iterator_op(builder, op):
    """IteratorOpenPass / IteratorHasNext, and an IteratorGetNext bound to a Python iterator: refused.
    An IteratorGetNext without one (none eagerflow traces today) is TensorFlow's op."""
    if op.type == "IteratorGetNext" and "holder" not in op.attrs:
        export_generic(builder, op)
        return
    refuse_untracked(op, "reads a tf.data pipeline through a Python iterator")
