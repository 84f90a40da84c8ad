"""`tf.searchsorted`: for each value, the insertion point in its row of a sorted sequence that
keeps the row sorted (LowerBound: before equal entries, side="left"; UpperBound: after them).

As in TensorFlow, the sequences and values are viewed as matrices [rows, n] and [rows, m] (the
leading dimensions must match), and the result has the values' shape. Integer results: no gradient.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop


def _bound_kernel(side):
    def kernel(sorted_inputs, values, out_type=_dt.int32):
        if sorted_inputs.shape[0] != values.shape[0]:
            raise InvalidArgumentError(None, None, "Leading dim_size of both tensors must match.")
        out = np.empty(values.shape, out_type.np_dtype)
        for row in range(values.shape[0]):
            out[row] = np.searchsorted(sorted_inputs[row], values[row], side=side)
        return out
    return kernel


def _bound_infer(name):
    def infer(inputs, attrs):
        sorted_inputs, values = inputs
        R.check_same_dtype(name, inputs)
        b = values.shape  # the leading dims are compared by the kernel, when running (as TensorFlow does)
        return [Spec(b if b.rank is not None else TensorShape([None, None]), attrs.get("out_type", _dt.int32))]
    return infer


LowerBound = defop("LowerBound", inputs=("sorted_inputs", "values"), kernel=_bound_kernel("left"),
                   infer=_bound_infer("LowerBound"), grad=NO_GRADIENT,
                   doc="Per row, the first position whose entry is >= the value.")
UpperBound = defop("UpperBound", inputs=("sorted_inputs", "values"), kernel=_bound_kernel("right"),
                   infer=_bound_infer("UpperBound"), grad=NO_GRADIENT,
                   doc="Per row, the first position whose entry is > the value.")


def searchsorted(sorted_sequence, values, side="left", out_type=_dt.int32, name=None):
    """`tf.searchsorted`: sorted_sequence [..., n] and values [..., m] with the same leading dims."""
    from .basic import reshape, shape
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = '{side}'.")
    seq, vals = as_tensor(sorted_sequence), as_tensor(values)
    if seq.shape.rank == 0 or vals.shape.rank == 0:
        raise InvalidArgumentError(None, None, "slice index -1 of dimension 0 out of bounds. [Op:StridedSlice]")
    seq_last = seq.shape[-1] if seq.shape.rank is not None and seq.shape[-1] is not None else shape(seq)[-1]
    val_last = vals.shape[-1] if vals.shape.rank is not None and vals.shape[-1] is not None else shape(vals)[-1]
    seq2 = reshape(seq, [-1, seq_last]) if seq.shape.rank != 2 else seq
    vals2 = reshape(vals, [-1, val_last]) if vals.shape.rank != 2 else vals
    op = LowerBound if side == "left" else UpperBound
    out = bind(op, (seq2, vals2), {"out_type": _dt.as_dtype(out_type)}, name=name)
    return out if vals.shape.rank == 2 else reshape(out, shape(vals) if not vals.shape.is_fully_defined()
                                                     else vals.shape.as_list())


# --- JAX lowerings: one jnp.searchsorted per row, vectorised with vmap ---
def _jax_bound(side):
    def lower(sorted_inputs, values, out_type=_dt.int32):
        import jax
        from jax import numpy as jnp
        rows = jax.vmap(lambda a, v: jnp.searchsorted(a, v, side=side))(sorted_inputs, values)
        return rows.astype(out_type.np_dtype)
    return lower


LowerBound.jax = _jax_bound("left")
UpperBound.jax = _jax_bound("right")


# --- Bucketize ---------------------------------------------------------------------------------------

def _bucketize_kernel(input, boundaries=()):
    """How many boundaries are <= each value (TensorFlow's Bucketize, a Keras Discretization's op)."""
    edges = np.asarray(boundaries, np.float64)
    return np.searchsorted(edges, np.asarray(input, np.float64), side="right").astype(np.int32).reshape(
        np.shape(input))


def _bucketize_infer(inputs, attrs):
    x = inputs[0]
    R.check_dtype_in("Bucketize", x.dtype, (_dt.int32, _dt.int64, _dt.float32, _dt.float64))
    edges = list(attrs.get("boundaries", ()))
    if edges != sorted(edges):
        raise InvalidArgumentError(None, None, "Expected sorted boundaries")
    return [Spec(x.shape, _dt.int32)]


Bucketize = defop("Bucketize", inputs=("input",), kernel=_bucketize_kernel, infer=_bucketize_infer,
                  grad=NO_GRADIENT, doc="The index of the bucket among sorted `boundaries` each value falls in.")


def bucketize(input, boundaries, name=None):
    """TensorFlow's raw Bucketize: int32 bucket indices of `input` among the sorted float `boundaries`."""
    return bind(Bucketize, (as_tensor(input),), {"boundaries": [float(b) for b in boundaries]}, name=name)
