"""Dataset transformations, each as index arithmetic over its input's reader (reader.py):
batch = a run of indices, repeat = index modulo length, take/skip = an index range, shuffle = a
permutation of indices, map = the traced function applied to the element."""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import EagerTensor, Tensor, TensorSpec
from .dataset import Dataset
from .reader import FunctionReader, Reader
from .structure import INFINITE, index_range, is_static, maximum, minimum, normalize


def _count(value):
    return int(value.numpy()) if isinstance(value, Tensor) else int(value)


def _symbolic(value):
    """Whether a count is a tensor of a graph being traced (its value known only at run time)."""
    return isinstance(value, Tensor) and not isinstance(value, EagerTensor)


_UNBOUNDED = np.iinfo(np.int32).max // 2  # "endless" where a count is symbolic (room for size arithmetic)


def _count_tensor(value):
    from ..ops.math import cast
    return cast(value, _dt.int32)


def _infinite(n):
    return is_static(n) and n == INFINITE


class PassThroughDataset(Dataset):
    """prefetch / cache: the input's elements unchanged."""

    def __init__(self, parent, name):
        self._parent, self._name = parent, name
        self._spec, self._size = parent.element_spec, parent._size

    def _open(self, epochs):
        return self._parent._open(epochs)


class BatchDataset(Dataset):
    """Element j: rows j*b .. j*b+b-1 of the input stacked; the last batch may be short unless
    drop_remainder, so the static batch dimension is None unless drop_remainder."""
    _name = "_BatchDataset"

    def __init__(self, parent, batch_size, drop_remainder):
        self._parent = parent
        if _symbolic(batch_size):  # inside a trace, known at run time only: no static batch dimension
            self._b = b = _count_tensor(batch_size)
        else:
            self._b = b = _count(batch_size)
            if b <= 0:
                raise InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        self._drop = bool(drop_remainder)
        lead = b if self._drop and is_static(b) else None
        self._spec = nest.map_structure(
            lambda s: TensorSpec(TensorShape([lead]).concatenate(s.shape), s.dtype), parent.element_spec)
        n = parent._size
        self._n = n
        if _infinite(n):
            self._size = INFINITE
        else:
            whole = n if is_static(b) else convert_to_tensor(n)
            self._size = whole // b if self._drop else (whole + b - 1) // b

    def _open(self, epochs):
        parent = self._parent._open(epochs)
        b, n = self._b, self._n

        def element(j, epoch):
            start = j * b
            if self._drop:
                idx = start + np.arange(b, dtype=np.int32) if not is_static(start) and is_static(b) else \
                    index_range(start, start + b)
            else:
                stop = start + b if _infinite(n) else minimum(start + b, n)
                idx = index_range(start, stop)
            return parent.gather(idx, epoch)
        return FunctionReader(self._spec, element)


class MapDataset(Dataset):
    """map_func traced once (as tf.function does) over the input's element spec; eagerly each
    element runs the traced function, inside a traced loop its ops are inlined in the body.
    As in TensorFlow a tuple element is passed as separate arguments, anything else as one."""
    _name = "_MapDataset"

    def __init__(self, parent, map_func):
        from ..autograph.api import converted
        from ..trace.function import function
        self._parent = parent
        spec = parent.element_spec
        fn = converted(map_func)

        def mapped(*flat):
            element = nest.pack_sequence_as(spec, list(flat)) if nest.is_nested(spec) else flat[0]
            out = fn(*element) if type(element) is tuple else fn(element)
            if isinstance(out, list):  # TensorFlow takes a returned list as a tuple
                out = tuple(out)
            return normalize(out)

        flat_specs = nest.flatten(spec)
        self._fn = function(mapped, autograph=False, name=getattr(map_func, "__name__", "map_func"))
        self._concrete = self._fn.get_concrete_function(*flat_specs)
        self._spec = nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), self._concrete.structured_outputs)
        self._size = parent._size

    def _open(self, epochs):
        parent = self._parent._open(epochs)

        def element(i, epoch):
            return self._concrete(*nest.flatten(parent.element(i, epoch)))
        return FunctionReader(self._spec, element)


class RepeatDataset(Dataset):
    """Element i: the input's element i mod n, in sweep i // n (a shuffle below reorders per sweep)."""
    _name = "_RepeatDataset"

    def __init__(self, parent, count):
        self._parent = parent
        self._spec = parent.element_spec
        n = parent._size
        if _symbolic(count):  # inside a trace, known at run time only (negative: without end)
            from ..ops.array import where
            self._count = c = _count_tensor(count)
            if _infinite(n) or (is_static(n) and n == 0):
                self._size = n
            else:
                self._size = where(c < 0, _count_tensor(convert_to_tensor(_UNBOUNDED)), n * c)
            return
        count = -1 if count is None else _count(count)
        self._count = None if count < 0 else count
        if _infinite(n):
            self._size = INFINITE
        elif self._count is None:
            self._size = 0 if is_static(n) and n == 0 else INFINITE
        else:
            self._size = n * self._count

    def _open(self, epochs):
        c = self._count
        # A count known at run time only: the input is opened as if swept without end.
        parent = self._parent._open(None if epochs is None or c is None or not is_static(c) else epochs * c)
        n = self._parent._size
        if _infinite(n):
            return parent

        def element(i, epoch):
            sweep = i // n
            return parent.element(i % n, sweep if c is None else epoch * c + sweep)
        return FunctionReader(self._spec, element)


class TakeDataset(Dataset):
    _name = "_TakeDataset"

    def __init__(self, parent, count):
        self._parent, self._spec = parent, parent.element_spec
        n = parent._size
        if _symbolic(count):  # inside a trace: min(count, n), all of it when count < 0
            from ..ops.array import where
            k = _count_tensor(count)
            cap = _count_tensor(convert_to_tensor(_UNBOUNDED if _infinite(n) else n))
            self._size = minimum(where(k < 0, cap, k), cap)
            return
        k = _count(count)
        self._size = n if k < 0 else (k if _infinite(n) else minimum(k, n))

    def _open(self, epochs):
        return self._parent._open(epochs)


class SkipDataset(Dataset):
    _name = "_SkipDataset"

    def __init__(self, parent, count):
        self._parent, self._spec = parent, parent.element_spec
        n = parent._size
        if _symbolic(count):  # inside a trace: n - count clipped at 0, nothing when count < 0
            from ..ops.array import where
            k = self._k = _count_tensor(count)
            rest = _count_tensor(convert_to_tensor(_UNBOUNDED)) if _infinite(n) else maximum(n - k, 0)
            self._size = where(k < 0, _count_tensor(convert_to_tensor(0)), rest)
            return
        k = _count(count)
        self._k = k
        self._size = 0 if k < 0 else (n if _infinite(n) else maximum(n - k, 0))

    def _open(self, epochs):
        parent, k = self._parent._open(epochs), self._k
        return FunctionReader(self._spec, lambda i, e: parent.element(i + k, e),
                              lambda idx, e: parent.gather(idx + k, e))


# At most this many permutation entries are drawn ahead for one pass of a traced loop (see _ShuffleReader).
_TABLE_LIMIT = 1 << 22
_CYCLE = 16


class ShuffleDataset(Dataset):
    """A uniformly random order of the input's elements, new for each pass (and each repeat sweep)
    unless reshuffle_each_iteration=False.

    Differences from TensorFlow, on purpose: the whole input is permuted whatever `buffer_size`
    is (TensorFlow's buffer of `buffer_size` only mixes nearby elements: ours is the limit where the
    buffer holds everything); an infinite input is permuted in consecutive windows of
    `buffer_size`. Orders are reproducible with a seed but are not TensorFlow's exact orders, and
    a seeded shuffle draws from the stream of its (global seed, op seed) pair like every seeded
    random op here (ops/random.py): a second dataset built with the same seeds continues that
    stream rather than restarting it (TensorFlow restarts it); `tf.random.set_seed` restarts it."""
    _name = "_ShuffleDataset"

    def __init__(self, parent, buffer_size, seed, reshuffle_each_iteration):
        from ..ops.random import get_seed
        self._parent, self._spec, self._size = parent, parent.element_spec, parent._size
        buffer_size = _count(buffer_size)
        if buffer_size <= 0 and buffer_size != -1:
            raise InvalidArgumentError(None, None, "buffer_size must be greater than zero.")
        self._window = self._size if not _infinite(self._size) else max(buffer_size, 1)
        self._seeds = get_seed(seed)
        self._fixed = None
        if not reshuffle_each_iteration:  # one order, drawn now, for every pass
            self._fixed = self._draw(1)

    def _draw(self, rows):
        """`rows` independent permutations of range(window), as an int32 [rows, window] tensor."""
        from ..ops.ordering import argsort
        from ..ops.random import RandomUniform
        from ..ops.registry import bind
        from ..ops.joining import stack
        seed, seed2 = self._seeds
        shape = stack([convert_to_tensor(rows), convert_to_tensor(self._window)]) if not is_static(
            self._window) else convert_to_tensor(np.array([rows, self._window], np.int32))
        noise = bind(RandomUniform, (shape,), {"dtype": _dt.float64, "seed": seed, "seed2": seed2})
        return argsort(noise, axis=1)

    def _open(self, epochs):
        parent = self._parent._open(epochs)
        return _ShuffleReader(self, parent, epochs)


class _ShuffleReader(Reader):
    """Eagerly, each sweep's permutation is drawn when the sweep is first read. In a graph they
    are drawn before the loop, one row per sweep: as many as the repeats above ask for, or (for an
    endless repeat, or beyond _TABLE_LIMIT entries) a cycle of a few orders reused in turn."""

    def __init__(self, ds, parent, epochs):
        super().__init__(ds.element_spec)
        self._parent, self._w = parent, ds._window
        self._infinite = _infinite(ds._size)
        self._eager = state.graph is None and is_static(self._w)
        self._orders = {}
        if ds._fixed is not None:
            self._table, self._rows = ds._fixed, 1
            if self._eager:
                self._orders = {0: ds._fixed.numpy()[0]}
        elif self._eager:
            self._draw = ds._draw
        else:
            rows = epochs if (epochs is not None and not self._infinite) else _CYCLE
            if is_static(self._w) and rows * max(self._w, 1) > _TABLE_LIMIT:
                rows = max(1, _TABLE_LIMIT // max(self._w, 1))
            self._table, self._rows = ds._draw(rows), rows

    def _order(self, key):
        if self._eager:
            rows = len(self._orders)
            if rows == 1 and not hasattr(self, "_draw"):
                return self._orders[0]
            if key not in self._orders:
                self._orders[key] = self._draw(1).numpy()[0]
            return self._orders[key]
        from ..ops.slicing import gather
        return gather(self._table, key % self._rows)

    def _locate(self, i, epoch):
        """(permutation, position in it, offset of its window) for element i of sweep `epoch`."""
        if not self._infinite:
            return self._order(epoch), i, 0
        w = self._w
        return self._order(i // w), i % w, (i // w) * w

    def element(self, i, epoch):
        order, pos, offset = self._locate(i, epoch)
        if isinstance(order, np.ndarray) and is_static(pos):
            return self._parent.element(int(order[pos]) + offset, epoch)
        from ..ops.slicing import gather
        return self._parent.element(gather(order, pos) + offset, epoch)

    def gather(self, indices, epoch):
        if self._infinite:
            return super().gather(indices, epoch)
        order = self._order(epoch)
        if isinstance(order, np.ndarray) and isinstance(indices, np.ndarray):
            return self._parent.gather(order[indices].astype(np.int32), epoch)
        from ..ops.slicing import gather
        return self._parent.gather(gather(order, indices), epoch)
