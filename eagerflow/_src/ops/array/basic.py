"""The array ops every other op family builds on, under one import name: constants, shapes,
reshaping and transposing, filled tensors, identity, select, broadcast and its reverse (sum_to), and
cast. Gradient rules everywhere are made of these, so callers write `from ..array import basic as
_array` and reach them all; each op lives in the module named for its job:

    constants.py       Const (`tf.constant`)
    shape_queries.py   Shape, Size, Rank
    reshaping.py       Reshape, Squeeze, ExpandDims
    transposing.py     Transpose, InvertPermutation
    filled_tensors.py  Fill, ZerosLike, OnesLike (`tf.zeros`, `tf.ones`)
    passthrough.py     Identity, StopGradient
    where.py           SelectV2, Where (`tf.where`)
    broadcasting.py    BroadcastTo and its reverse SumToShape (`sum_to`)
    casting.py         Cast

These import no op module at module level but math/reduce.py (which imports none itself). The other
array families have their own modules: joining.py (stack, concat, split), tiling.py, padding.py (pad,
and slice: each the other's gradient), ordering.py (reverse, top_k, sort), sequences.py (range,
linspace, one_hot) and slicing.py (strided slices, gather, scatter, boolean_mask), which also serves
`tensor[key]` (getitem below).
"""
from __future__ import annotations

from ..operands import as_tensor
from .broadcasting import BroadcastTo, broadcast_to, sum_to, SumToShape  # noqa: F401
from .casting import Cast, cast  # noqa: F401
from .constants import Const, constant  # noqa: F401
from .filled_tensors import fill, Fill, ones, ones_like, OnesLike, zeros, zeros_like, ZerosLike  # noqa: F401
from .passthrough import identity, Identity, stop_gradient, StopGradient  # noqa: F401
from .reshaping import (  # noqa: F401
    expand_dims, ExpandDims, newaxis, reshape, Reshape, squeeze, Squeeze,
)
from .shape_queries import rank, Rank, shape, Shape, size, Size  # noqa: F401
from .transposing import invert_permutation, InvertPermutation, transpose, Transpose  # noqa: F401
from .where import SelectV2, where, Where  # noqa: F401


def getitem(tensor, key):
    """`tensor[key]`: TensorFlow's strided slice (ints, slices, Ellipsis, newaxis, negative strides)."""
    from .slicing import strided_slice_from_key
    return strided_slice_from_key(as_tensor(tensor), key)
