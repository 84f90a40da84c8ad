"""`tf.tile` (Tile): the whole tensor repeated multiples[i] times along each dimension i. Its gradient
sums the copies back: g viewed as [m0, d0, m1, d1, ...], reduced over the even axes."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..math import elementwise as _math
from ..math import reduce as _reduce
from ..operands import as_int_tensor, as_tensor, static_ints
from ..registry import Spec, bind, defop
from . import basic as _array
from . import sequences as _sequences
from .joining import stack


def _tile_check(rank, multiples):
    """Tile's checks; while building a graph only the length's (TensorFlow's shape function lets a
    negative multiple through to the kernel)."""
    if len(multiples) != rank:
        R.refuse(f"Expected multiples argument to be a vector of length {rank} but got length {len(multiples)}",
                 f"Shape must be rank {rank} but is rank {len(multiples)}")
    for i, m in enumerate(multiples):
        if m < 0:
            R.refuse(f"Expected multiples[{i}] >= 0, but got {m}")


def _tile_kernel(x, multiples):
    m = [int(v) for v in multiples]
    _tile_check(x.ndim, m)
    return np.tile(x, m) if m else x.copy()


def _tile_infer(inputs, attrs):
    x, multiples = inputs
    m = static_ints(multiples)
    if x.shape.rank is None:
        n = multiples.shape[0] if multiples.shape.rank == 1 else None
        return [Spec(TensorShape(None if n is None else [None] * n), x.dtype)]
    if m is None:
        return [Spec(TensorShape([None] * x.shape.rank), x.dtype)]
    _tile_check(x.shape.rank, m)
    return [Spec(TensorShape([None if d is None or k < 0 else d * k for d, k in zip(x.shape, m)]), x.dtype)]


def _tile_grad(op, g):
    """View g as [m0, d0, m1, d1, ...] and sum over the copies (the even axes)."""
    x, multiples = op.inputs
    interleaved = _array.reshape(_array.transpose(stack([_math.cast(multiples, _dt.int32), _array.shape(x)])), [-1])
    axes = _sequences.range(0, _array.size(interleaved), 2)
    return _reduce.reduce_sum(_array.reshape(g, interleaved), axes), None


Tile = defop("Tile", inputs=("input", "multiples"), kernel=_tile_kernel, infer=_tile_infer, grad=_tile_grad,
             doc="Repeats the whole tensor multiples[i] times along each dim i.")


def tile(input, multiples, name=None):
    return bind(Tile, (as_tensor(input), as_int_tensor(multiples)))


Tile.jax = lambda x, multiples: jnp.tile(x, tuple(int(v) for v in multiples))
