"""Norms and norm clipping: `tf.norm` / `tf.linalg.norm`, `tf.linalg.global_norm`, `tf.clip_by_norm`,
`tf.clip_by_global_norm`, `tf.math.l2_normalize`, `tf.math.reduce_euclidean_norm`, `tf.linalg.normalize`.

All are composed from existing ops (as in TensorFlow), so they trace and differentiate with no rule
of their own. The argument checks and their messages are TensorFlow's.
"""
from __future__ import annotations

import collections.abc

import numpy as np

from ..operands import as_tensor
from ..array import basic as _array
from . import decompositions as _decompositions
from ..math import elementwise as _math
from ..math import reduce as _reduce

_MATRIX_ORDS = ["euclidean", "fro", 1, 2, np.inf]
_VECTOR_ORDS = ["euclidean", 1, 2, np.inf]


def _bad_axis(axis):
    return ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _in(value, choices):
    """`value in choices` without NumPy's elementwise comparison of strings with numbers."""
    return any(type(value) is type(c) and value == c or (not isinstance(value, str) and not isinstance(c, str)
                                                         and value == c) for c in choices)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.norm`: vector norms (`ord` 'euclidean', 1, 2, inf or any p > 0) over all elements or one
    axis; matrix norms ('fro', 'euclidean', 1, 2, inf) over a pair of axes."""
    matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
    if matrix:
        if not (_is_int(axis[0]) and _is_int(axis[1])) or axis[0] == axis[1]:
            raise _bad_axis(tuple(axis))
        if not _in(ord, _MATRIX_ORDS):
            raise ValueError(f"'ord' must be a supported matrix norm in {_MATRIX_ORDS}, got {ord}")
        axis = tuple(int(a) for a in axis)
    else:
        if not (axis is None or _is_int(axis)):
            raise _bad_axis(axis)
        numeric = isinstance(ord, (int, float, np.integer, np.floating)) and not isinstance(ord, bool)
        if (not numeric or ord <= 0) and not _in(ord, _VECTOR_ORDS):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        axis = None if axis is None else (int(axis),)
    x = as_tensor(tensor)
    if matrix and _in(ord, [2]):
        result = _spectral_norm(x, axis)
    elif _in(ord, ["fro", "euclidean", 2]):
        result = _math.sqrt(_reduce.reduce_sum(x * x, axis, keepdims=True))
    else:
        magnitude = _math.abs(x)
        if matrix and _in(ord, [1]):  # the largest column sum
            result = _reduce.reduce_max(_reduce.reduce_sum(magnitude, axis[0], keepdims=True), axis[1], keepdims=True)
        elif matrix:  # inf: the largest row sum
            result = _reduce.reduce_max(_reduce.reduce_sum(magnitude, axis[1], keepdims=True), axis[0], keepdims=True)
        elif _in(ord, [1]):
            result = _reduce.reduce_sum(magnitude, axis, keepdims=True)
        elif _in(ord, [np.inf]):
            result = _reduce.reduce_max(magnitude, axis, keepdims=True)
        else:
            p = as_tensor(float(ord), x.dtype)
            result = _math.pow(_reduce.reduce_sum(_math.pow(magnitude, p), axis, keepdims=True),
                               as_tensor(1.0 / float(ord), x.dtype))
    if not keepdims:
        result = _array.squeeze(result, axis)
    return result


def _spectral_norm(x, axis):
    """The largest singular value over the two `axis` dimensions, kept as size-1 axes."""
    rank = x.shape.rank
    if rank is None:
        raise NotImplementedError("the 2-norm of a matrix of unknown rank")
    a0, a1 = (a % rank for a in axis)
    rest = [i for i in range(rank) if i not in (a0, a1)]
    moved = _array.transpose(x, rest + [a0, a1])
    s = _decompositions.svd(moved, compute_uv=False)
    largest = _reduce.reduce_max(s, axis=-1)
    for a in sorted((a0, a1)):
        largest = _array.expand_dims(largest, a)
    return largest


def global_norm(t_list, name=None):
    """`tf.linalg.global_norm`: sqrt of the sum of squares of every element of every tensor (None
    entries are skipped; an IndexedSlices counts its rows as they are, repeated rows apart, as in TensorFlow)."""
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    values = [as_tensor(_values_of(t)) for t in t_list if t is not None]
    squares = [_reduce.reduce_sum(v * v) for v in values]
    return _math.sqrt(_math.add_n(squares) if len(squares) > 1 else squares[0])


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`tf.clip_by_norm`: rescales `t` so its L2 norm (over `axes`) is at most `clip_norm`; a zero
    norm leaves it as it is (and its gradient finite). An IndexedSlices has its rows clipped by
    their own norm and stays an IndexedSlices, as in TensorFlow."""
    if _is_slices(t):
        return _with_values(t, clip_by_norm(t.values, clip_norm, axes))
    values = as_tensor(t)
    clip = as_tensor(clip_norm, values.dtype)
    l2sum = _reduce.reduce_sum(values * values, axes, keepdims=True)
    positive = _math.greater(l2sum, _array.zeros_like(l2sum))
    safe = _array.where(positive, l2sum, _array.ones_like(l2sum))
    l2norm = _array.where(positive, _math.sqrt(safe), l2sum)
    return _array.identity(values * clip / _math.maximum(l2norm, clip))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """`tf.clip_by_global_norm`: returns (the clipped list, the global norm). Every tensor is scaled
    by clip_norm / max(global_norm, clip_norm); an infinite norm gives NaN tensors, as in TensorFlow."""
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    t_list = list(t_list)
    norm_value = global_norm(t_list) if use_norm is None else as_tensor(use_norm)
    clip = as_tensor(clip_norm, norm_value.dtype)
    one = as_tensor(1.0, norm_value.dtype)
    scale = clip * _math.minimum(one / norm_value, one / clip)
    scale = scale + (norm_value - norm_value)  # NaN when the norm is infinite
    clipped = [None if t is None else _with_values(t, _scaled(t.values, scale)) if _is_slices(t)
               else _scaled(t, scale) for t in t_list]
    return clipped, norm_value


def _scaled(t, scale):
    t = as_tensor(t)
    return _array.identity(t * _math.cast(scale, t.dtype))


def _is_slices(t):
    from ...composite.indexed_slices import IndexedSlices  # composite/ shares this floor
    return isinstance(t, IndexedSlices)


def _values_of(t):
    """What a norm measures: a tensor, or an IndexedSlices' rows."""
    return t.values if _is_slices(t) else t


def _with_values(slices, values):
    return type(slices)(values, slices.indices, slices.dense_shape)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """`tf.math.l2_normalize`: x / sqrt(max(sum(x**2), epsilon)) along `axis`."""
    x = as_tensor(x)
    axis = dim if axis is None else axis
    square_sum = _reduce.reduce_sum(_math.square(x), axis, keepdims=True)
    return x * _math.rsqrt(_math.maximum(square_sum, as_tensor(epsilon, x.dtype)))


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """`tf.math.reduce_euclidean_norm`: sqrt(sum(x**2)) over `axis`; integers are computed in float64
    and truncated back, as TensorFlow's kernel does."""
    x = as_tensor(input_tensor)
    if x.dtype.is_integer:
        from ...core import dtypes as _dt
        out = reduce_euclidean_norm(_math.cast(x, _dt.float64), axis, keepdims)
        return _math.cast(out, x.dtype)
    return _math.sqrt(_reduce.reduce_sum(x * x, axis, keepdims=keepdims))


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.linalg.normalize`: (tensor / its norm, the norm kept with size-1 axes)."""
    x = as_tensor(tensor)
    value = norm(x, ord=ord, axis=axis, keepdims=True)
    return x / value, value
