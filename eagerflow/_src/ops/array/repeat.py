"""`tf.repeat` and `tf.meshgrid`: compositions of existing ops (gather, broadcast_to), so their
gradients, graphs and jit lowerings are those ops'.

repeat: the output gathers the input along `axis` at the indices np.repeat(arange(n), repeats);
those indices are a constant when `repeats` and the axis length are known at trace time, else
computed in the graph (the true cells of a [n, max(repeats)] mask, in row order).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt

from ..operands import as_tensor
from ..registry import static_value


def repeat(input, repeats, axis=None, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.repeat`: each element (or slice along `axis`) repeated `repeats` times (a scalar, or
    one count per element); without `axis` the input is flattened first."""
    from .basic import reshape
    from .slicing import gather
    x = as_tensor(input)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    rank = x.shape.rank
    if rank is not None:
        if not -rank <= axis < rank:
            raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
        axis %= rank
    counts = as_tensor(repeats, _dt.int32) if not hasattr(repeats, "dtype") else as_tensor(repeats)
    if counts.shape.rank not in (0, 1, None):
        raise ValueError(f"`repeats` must be a scalar or a vector, received shape {counts.shape}")
    n = x.shape[axis] if rank is not None else None
    if counts.shape.rank == 1 and n is not None and counts.shape[0] is not None and counts.shape[0] != 1 \
            and counts.shape[0] != n:
        raise ValueError(f"Dimensions {n} and {counts.shape[0]} are not compatible")
    known = static_value(counts)
    if known is not None and n is not None:
        indices = np.repeat(np.arange(n, dtype=np.int64), np.broadcast_to(np.asarray(known, np.int64), (n,)))
        return gather(x, as_tensor(indices.astype(np.int32)), axis=axis)
    return gather(x, _repeat_indices(x, counts, axis), axis=axis)


def _repeat_indices(x, counts, axis):
    """np.repeat(arange(n), counts) in the graph: the row numbers of the true cells of
    `range(max(counts)) < counts[:, None]`, read row by row."""
    from .basic import expand_dims, shape, where
    from ..math.elementwise import cast, less, maximum
    from ..math.reduce import reduce_max
    from .sequences import range as range_
    from .basic import broadcast_to
    n = shape(x)[axis]
    counts = broadcast_to(cast(counts, _dt.int32), [n]) if counts.shape.rank == 0 else cast(counts, _dt.int32)
    longest = maximum(reduce_max(counts), 0)  # NOTE: the max of no counts is int32's lowest, not 0
    mask = less(expand_dims(range_(longest), 0), expand_dims(counts, 1))
    return cast(where(mask)[:, 0], _dt.int32)


def meshgrid(*args, **kwargs):
    """`tf.meshgrid`: N coordinate grids from N vectors; indexing "xy" (Cartesian, the default:
    the first two axes swapped) or "ij" (matrix)."""
    from .basic import broadcast_to, reshape, size
    from .joining import stack
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        key = next(iter(kwargs))
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    vectors = [as_tensor(a) for a in args]
    ndim = len(vectors)
    if not ndim:
        return []
    shapes = [[1] * ndim for _ in vectors]
    for i in range(ndim):
        shapes[i][i] = -1
    sizes = [size(v) for v in vectors]
    if indexing == "xy" and ndim > 1:  # x varies along the columns, y along the rows
        shapes[0][0], shapes[0][1] = 1, -1
        shapes[1][0], shapes[1][1] = -1, 1
        sizes[0], sizes[1] = sizes[1], sizes[0]
    full = stack(sizes)
    return [broadcast_to(reshape(v, shape), full) for v, shape in zip(vectors, shapes)]



