"""keras.ops.numpy's array creation, shape changes, joining/splitting and indexing, with NumPy's conventions
(axis=None flattens, split takes sections or indices, negative take indices count from the end)."""
from __future__ import annotations

import builtins

import numpy as np

from ._common import FLOATX, promoted, result_type, tensor, tf
from ._np_reductions import flat_if_none


def array(x, dtype=None):
    return tensor(x, dtype=dtype)


def copy(x):
    return tf().identity(tensor(x))


def ndim(x):
    return tensor(x).shape.rank


def size(x):
    return tf().size(x)


def arange(start, stop=None, step=None, dtype=None):
    t = tf()
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    dtype = dtype or result_type(start, stop, step)
    return t.range(start, stop, step, dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    values = np.linspace(_np(start), _np(stop), num, endpoint=endpoint, retstep=retstep, axis=axis)
    if retstep:
        values, step = values
    out = tf().constant(np.asarray(values, dtype=dtype or FLOATX))
    return (out, step) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    t = tf()
    exponents = linspace(start, stop, num, endpoint=endpoint, dtype=dtype, axis=axis)
    return t.math.pow(t.cast(base, exponents.dtype), exponents)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    values = np.geomspace(_np(start), _np(stop), num, endpoint=endpoint, axis=axis)
    return tf().constant(np.asarray(values, dtype=dtype or FLOATX))


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def eye(N, M=None, k=0, dtype=None):  # noqa: N803 - NumPy's names
    return tf().constant(np.eye(N, M, k, dtype=dtype or FLOATX))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    return tf().constant(np.tri(N, M, k, dtype=dtype or FLOATX))


def zeros(shape, dtype=None):
    return tf().zeros(shape, dtype or FLOATX)


def ones(shape, dtype=None):
    return tf().ones(shape, dtype or FLOATX)


empty = zeros


def full(shape, fill_value, dtype=None):
    t = tf()
    return t.fill(shape, t.cast(fill_value, dtype or FLOATX))


def zeros_like(x, dtype=None):
    return tf().zeros_like(x, dtype=dtype)


def ones_like(x, dtype=None):
    return tf().ones_like(x, dtype=dtype)


empty_like = zeros_like


def full_like(x, fill_value, dtype=None):
    t = tf()
    x = tensor(x)
    return t.fill(t.shape(x), t.cast(fill_value, dtype or x.dtype))


def _one_unknown_dim(d):
    return d is None or (not isinstance(d, (int, np.integer)) and getattr(getattr(d, "shape", None), "rank", None) == 0)


def reshape(x, newshape):
    if isinstance(newshape, (list, tuple)) and sum(_one_unknown_dim(d) for d in newshape) == 1 and all(
            isinstance(d, (int, np.integer)) or _one_unknown_dim(d) for d in newshape):
        # one dim not a Python int: a KerasTensor's None batch size, or the scalar tensor `shape(x)[0]` while
        # tracing. Inferred (-1), the result keeps its other dims static, as Keras' shape rule gives.
        newshape = [d if isinstance(d, (int, np.integer)) else -1 for d in newshape]
    return tf().reshape(x, newshape)


def transpose(x, axes=None):
    return tf().transpose(x, perm=axes)


def expand_dims(x, axis):
    t = tf()
    if isinstance(axis, int):
        return t.expand_dims(x, axis)
    x = tensor(x)
    rank = x.shape.rank + len(axis)
    for a in sorted(a % rank for a in axis):
        x = t.expand_dims(x, a)
    return x


def squeeze(x, axis=None):
    return tf().squeeze(x, axis)


def ravel(x):
    return tf().reshape(x, [-1])


def broadcast_to(x, shape):
    return tf().broadcast_to(x, shape)


def concatenate(xs, axis=0):
    t = tf()
    if axis is None:
        xs = [t.reshape(v, [-1]) for v in promoted(*xs)]
        return t.concat(xs, axis=0)
    return t.concat(promoted(*xs), axis=axis)


def append(x1, x2, axis=None):
    return concatenate([x1, x2], axis=axis)


def stack(x, axis=0):
    return tf().stack(promoted(*x), axis=axis)


def _at_least(x, rank):
    t = tf()
    x = tensor(x)
    if x.shape.rank >= rank:
        return x
    if rank == 3 and x.shape.rank < 3:
        return t.reshape(x, [1, -1, 1] if x.shape.rank <= 1 else x.shape.as_list() + [1])
    return t.reshape(x, [1] * (rank - x.shape.rank) + x.shape.as_list())


def hstack(xs):
    xs = [tensor(v) for v in xs]
    return concatenate(xs, axis=0 if builtins.all(v.shape.rank <= 1 for v in xs) else 1)


def vstack(xs):
    """Concatenation along axis 0 (1-D inputs are joined, not stacked as rows: Keras on TF's behaviour)."""
    return concatenate(xs, axis=0)


def dstack(xs):
    return concatenate([_at_least(v, 3) for v in xs], axis=2)


def split(x, indices_or_sections, axis=0):
    """NumPy's split: a number of equal sections, or the indices where the pieces start."""
    t = tf()
    x = tensor(x)
    if isinstance(indices_or_sections, int):
        return t.split(x, indices_or_sections, axis=axis)
    length = x.shape[axis]
    bounds = [0] + [builtins.min(b, length) for b in indices_or_sections] + [length]
    return t.split(x, [builtins.max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])], axis=axis)


def array_split(x, indices_or_sections, axis=0):
    """Sections of sizes differing by at most one, the larger first."""
    x = tensor(x)
    length, n = x.shape[axis], indices_or_sections
    sizes = [length // n + 1] * (length % n) + [length // n] * (n - length % n)
    return tf().split(x, sizes, axis=axis)


def hsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=0 if tensor(x).shape.rank == 1 else 1)


def vsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=0)


def dsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=2)


def tile(x, repeats):
    t = tf()
    x = tensor(x)
    repeats = [repeats] if isinstance(repeats, int) else list(repeats)
    if len(repeats) < x.shape.rank:
        repeats = [1] * (x.shape.rank - len(repeats)) + repeats
    elif len(repeats) > x.shape.rank:
        x = t.reshape(x, [1] * (len(repeats) - x.shape.rank) + x.shape.as_list())
    return t.tile(x, repeats)


def repeat(x, repeats, axis=None):
    x, axis = flat_if_none(x, axis)
    return tf().repeat(x, repeats, axis=axis)


def flip(x, axis=None):
    t = tf()
    x = tensor(x)
    axes = list(range(x.shape.rank)) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    return t.reverse(x, axes)


def fliplr(x):
    return flip(x, 1)


def flipud(x):
    return flip(x, 0)


def rot90(array, k=1, axes=(0, 1)):
    """Rotation by 90 degrees k times in the plane of axes, from the first axis towards the second."""
    x = tensor(array)
    k %= 4
    a, b = axes
    if k == 0:
        return x
    if k == 2:
        return flip(x, list(axes))
    if k == 1:
        return swapaxes(flip(x, b), a, b)
    return flip(swapaxes(x, a, b), b)


def roll(x, shift, axis=None):
    t = tf()
    x = tensor(x)
    if axis is None:
        return t.reshape(t.roll(t.reshape(x, [-1]), shift, 0), t.shape(x))
    return t.roll(x, shift, axis)


def swapaxes(x, axis1, axis2):
    x = tensor(x)
    perm = list(range(x.shape.rank))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return tf().transpose(x, perm)


def moveaxis(x, source, destination):
    x = tensor(x)
    rank = x.shape.rank
    sources = [source] if isinstance(source, int) else list(source)
    dests = [destination] if isinstance(destination, int) else list(destination)
    sources, dests = [s % rank for s in sources], [d % rank for d in dests]
    perm = [a for a in range(rank) if a not in sources]
    for d, s in sorted(zip(dests, sources)):
        perm.insert(d, s)
    return tf().transpose(x, perm)


def take(x, indices, axis=None):
    t = tf()
    x, axis = flat_if_none(x, axis)
    indices = tensor(indices)
    size_along = t.shape(x)[axis]
    indices = t.where(indices < 0, indices + t.cast(size_along, indices.dtype), indices)  # NumPy's negatives
    return t.gather(x, indices, axis=axis)


def take_along_axis(x, indices, axis=None):
    t = tf()
    x, axis = flat_if_none(x, axis)
    rank = x.shape.rank
    axis %= rank
    moved_x = moveaxis(x, axis, -1)
    moved_i = moveaxis(tensor(indices), axis, -1)
    return moveaxis(t.gather(moved_x, moved_i, batch_dims=rank - 1), -1, axis)


def get_item(x, key):
    return tensor(x)[key]


def pad(x, pad_width, mode="constant", constant_values=None):
    t = tf()
    x = tensor(x)
    width = np.broadcast_to(np.asarray(pad_width), (x.shape.rank, 2)).tolist()
    if mode == "constant":
        return t.pad(x, width, constant_values=0 if constant_values is None else constant_values)
    if constant_values is not None:
        raise ValueError(f"Argument `constant_values` can only be provided when `mode == 'constant'`. Received: "
                         f"mode={mode}")
    return t.pad(x, width, mode=mode.upper())


def meshgrid(*x, indexing="xy"):
    return tf().meshgrid(*x, indexing=indexing)


def select(condlist, choicelist, default=0):
    """choicelist[i] where condlist[i] is the first true condition, default elsewhere."""
    t = tf()
    choices = promoted(*choicelist, default) if not isinstance(default, (int, float)) else promoted(*choicelist)
    out = t.cast(default, choices[0].dtype) + t.zeros_like(choices[0])
    for cond, choice in reversed(list(zip(condlist, choices))):
        out = t.where(t.cast(cond, "bool"), choice, out)
    return out


def isin(x1, x2, assume_unique=False, invert=False):
    t = tf()
    a, b = promoted(x1, x2)
    hits = t.reduce_any(t.equal(t.expand_dims(a, -1), t.reshape(b, [-1])), axis=-1)
    return t.logical_not(hits) if invert else hits


def unravel_index(indices, shape):
    """A tuple of coordinate arrays, one per dimension of shape (C order)."""
    t = tf()
    indices = tensor(indices)
    coords = []
    for dim in reversed(list(shape)):
        coords.append(t.math.floormod(indices, dim))
        indices = t.math.floordiv(indices, dim)
    return tuple(reversed(coords))
