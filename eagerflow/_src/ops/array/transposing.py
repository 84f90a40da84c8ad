"""Transpose and InvertPermutation (`tf.transpose`, `tf.math.invert_permutation`): a transpose's
gradient is the transpose by the inverted permutation, so the two live together.

ReversedRange is the default permutation of a transpose whose rank is known only when running.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..lazy_jax import jnp, static_dims  # callables that import JAX on first use only
from ..operands import as_int_tensor, as_tensor, static_ints
from ..registry import NO_GRADIENT, Spec, bind, defop
from .shape_queries import rank


def _transpose_infer(inputs, attrs):
    x, perm = inputs
    p = static_ints(perm)
    if x.shape.rank is None or p is None:
        return [Spec(TensorShape(None if p is None else [None] * len(p)), x.dtype)]
    n = x.shape.rank
    if len(p) != n:
        R.refuse(f"transpose expects a vector of size {n}. But input(1) is a vector of size {len(p)}",
                 f"Dimension must be {n} but is {len(p)}")
    outside = next((d for d in p if not 0 <= d < n), None)
    if outside is not None:  # (TensorFlow's shape function leaves this to the kernel too)
        R.refuse(f"{outside} is out of range [0 .. {n})")
        return [Spec(TensorShape([None] * n), x.dtype)]
    missing = next((d for d in range(n) if d not in p), None)
    if missing is not None:
        R.refuse(f"{missing} is missing from {{{','.join(str(d) for d in p)}}}.")
    return [Spec(TensorShape([x.shape[i] for i in p]), x.dtype)]


Transpose = defop("Transpose", inputs=("x", "perm"), infer=_transpose_infer,
                  kernel=lambda x, p: np.transpose(x, tuple(int(i) for i in p)),
                  grad=lambda op, g: (transpose(g, invert_permutation(op.inputs[1])), None))
InvertPermutation = defop("InvertPermutation", grad=NO_GRADIENT,
                          infer=lambda inputs, attrs: [Spec(inputs[0].shape, inputs[0].dtype)],
                          kernel=lambda p: np.argsort(p).astype(p.dtype))


def invert_permutation(x, name=None):
    return bind(InvertPermutation, (as_int_tensor(x),))


def transpose(a, perm=None, conjugate=False, name="transpose"):
    x = as_tensor(a)
    if perm is None:
        r = x.shape.rank
        if r is None:
            perm = bind(_Range_rev, (rank(x),))
        else:
            perm = list(range(r - 1, -1, -1))
    out = bind(Transpose, (x, as_int_tensor(perm)))
    if conjugate and x.dtype.is_complex:  # TensorFlow: the conjugate transpose (adjoint)
        from ..math.elementwise import conj
        out = conj(out)
    return out


_Range_rev = defop("ReversedRange", grad=NO_GRADIENT,
                   infer=lambda inputs, attrs: [Spec(TensorShape([None]), _dt.int32)],
                   kernel=lambda n: np.arange(int(n) - 1, -1, -1, dtype=np.int32),
                   doc="perm for a transpose of unknown rank (TensorFlow builds it from Range and Sub).")

Transpose.jax = lambda x, p: jnp.transpose(x, static_dims(p))
InvertPermutation.jax = lambda p: jnp.argsort(p).astype(p.dtype)
_Range_rev.jax = lambda n: np.arange(int(n) - 1, -1, -1, dtype=np.int32)  # n is a rank: known under XLA
