"""tf.IndexedSlices in backpropagation: how sparse row gradients (a gather's) meet the rest.

Why a module of its own: TensorFlow keeps a gather's gradient sparse until something needs it dense,
and the tape follows the same three rules. Gradients arriving at one tensor are summed as TensorFlow
aggregates them: all dense, AddN; all IndexedSlices, one IndexedSlices of their rows concatenated (in
the order the ops ran); a mix, AddN of their dense forms. A few ops hand a sparse gradient on as it
is (Identity, ReadVariableOp; Cast casts its values); every other rule receives it dense.
"""
from __future__ import annotations

from ..composite.indexed_slices import IndexedSlices
from ..core import dtypes as _dt


def is_slices(g) -> bool:
    return isinstance(g, IndexedSlices)


def dense(g):
    """A gradient as a tensor (an IndexedSlices scattered into zeros, repeated rows summed)."""
    return g._as_tensor() if isinstance(g, IndexedSlices) else g


def aggregate(grads):
    """The sum of the gradients reaching one tensor, listed in the order they arrived (backward,
    so the last op to run comes first)."""
    from ..ops.math.elementwise import add_n
    if not any(isinstance(g, IndexedSlices) for g in grads):
        return add_n(grads)
    if not all(isinstance(g, IndexedSlices) for g in grads):
        return add_n([dense(g) for g in grads])
    return concat_slices(list(reversed(grads)))


def concat_slices(parts):
    """One IndexedSlices holding every part's rows (indices as int64 when their dtypes differ)."""
    from ..ops.array.joining import concat
    from ..ops.array.basic import cast
    index_dtypes = {p.indices.dtype for p in parts}
    indices = [p.indices if len(index_dtypes) == 1 else cast(p.indices, _dt.int64) for p in parts]
    return IndexedSlices(concat([p.values for p in parts], 0), concat(indices, 0), parts[0].dense_shape)


def _cast_through(op, g):
    from ..ops.array.basic import cast
    source = op.inputs[0].dtype
    if not (source.is_floating or source.is_complex):
        return (None,)
    return (IndexedSlices(cast(g.values, source), g.indices, g.dense_shape),)


_PASS_THROUGH = {
    "Identity": lambda op, g: (g,),
    "ReadVariableOp": lambda op, g: (g,),
    "Cast": _cast_through,
}


def through(op, out_grads):
    """The input gradients of `op` when it hands a sparse gradient on unchanged; else None (the rule
    then runs on the dense gradients)."""
    rule = _PASS_THROUGH.get(op.opdef.name)
    if rule is None or len(out_grads) != 1 or not isinstance(out_grads[0], IndexedSlices):
        return None
    return rule(op, out_grads[0])
