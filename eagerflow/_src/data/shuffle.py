"""`Dataset.shuffle`: TensorFlow's buffered shuffle.

The algorithm (as TensorFlow's ShuffleDataset): fill a buffer with the first `buffer_size`
elements; then repeatedly pick a random slot, hand out its element and put the next input element
in that slot; once the input is exhausted, hand out what is left in random order. So buffer_size=1
keeps the order, and a small buffer can only move an element a little way forward (an element at
input position p comes out at position >= p - buffer_size + 1); buffer_size >= the input size (or
tf.data.UNKNOWN_CARDINALITY) gives a uniformly random permutation.

Two forms of one algorithm:
- a finite indexable input keeps index arithmetic: each pass (and each repeat sweep) draws the
  order the buffer *would* produce over positions 0..n-1 (`buffered_order`), with the stateful op
  ShuffleOrder, so a traced loop draws a fresh order on every call of the function, in the graph;
- an infinite, huge (> _TABLE_LIMIT elements) or stream input runs the buffer itself over the
  input's elements (`_stream`).

Orders are reproducible with a seed (not TensorFlow's exact orders). A seeded shuffle draws from
the stream of its (global seed, op seed) pair like every seeded random op here (ops/random/draws.py);
`tf.random.set_seed` restarts it.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import Tensor
from ..ops.registry import NO_GRADIENT, Spec, bind, defop
from .dataset import Dataset
from .reader import Reader
from .structure import INFINITE, UNKNOWN, is_static

# At most this many order entries are drawn ahead for one pass of a traced loop.
_TABLE_LIMIT = 1 << 22
_CYCLE = 16


def buffered_order(rng, n: int, buffer_size: int) -> np.ndarray:
    """The positions 0..n-1 in the order a shuffle buffer of `buffer_size` hands them out."""
    n, buffer_size = int(n), int(buffer_size)  # NOTE: not 0-d arrays: `following += 1` would mutate in place
    b = n if buffer_size < 0 else min(buffer_size, n)
    if b <= 1:
        return np.arange(n, dtype=np.int32)
    if b == n:
        return rng.permutation(n).astype(np.int32)
    picks = rng.random(n)
    buffer = list(range(b))
    following = b
    out = np.empty(n, np.int32)
    for t in range(n):
        slot = int(picks[t] * len(buffer))
        out[t] = buffer[slot]
        if following < n:
            buffer[slot] = following
            following += 1
        else:
            buffer[slot] = buffer[-1]
            buffer.pop()
    return out


def _generator(seed, seed2):
    from ..ops.random.draws import _generator as seeded
    return seeded("ShuffleOrder", seed, seed2)


def _order_kernel(shape, buffer_size, seed=0, seed2=0, fixed=None):
    rows, n = (int(v) for v in np.asarray(shape))
    rng = _generator(seed, seed2) if fixed is None else np.random.default_rng(fixed)
    return np.stack([buffered_order(rng, n, buffer_size) for _ in range(rows)]) if rows else \
        np.zeros((0, n), np.int32)


ShuffleOrder = defop(
    "ShuffleOrder", inputs=("shape", "buffer_size"), kernel=_order_kernel, grad=NO_GRADIENT, stateful=True,
    infer=lambda inputs, attrs: [Spec(TensorShape([None, None]), _dt.int32)],
    doc="[rows, n] int32: `rows` orders of positions 0..n-1 as a shuffle buffer hands them out.")


def _buffer_size(value) -> int:
    size = int(value.numpy()) if isinstance(value, Tensor) else int(value)
    if size <= 0 and size != UNKNOWN:
        raise InvalidArgumentError(None, None, "buffer_size must be greater than zero or UNKNOWN_CARDINALITY")
    return size


def shuffle(parent, buffer_size, seed, reshuffle_each_iteration):
    return ShuffleDataset(parent, _buffer_size(buffer_size), seed, reshuffle_each_iteration)


class ShuffleDataset(Dataset):
    """See the module docstring; `_fixed` (reshuffle_each_iteration=False) seeds every pass alike."""
    _name = "_ShuffleDataset"

    def __init__(self, parent, buffer_size, seed, reshuffle_each_iteration):
        from ..ops.random.draws import get_seed
        self._parent, self._spec, self._size = parent, parent.element_spec, parent._size
        self._buffer = buffer_size
        self._seeds = get_seed(seed)
        n = self._size
        # A huge finite input is a stream too: an order over all its positions would not fit in memory.
        self._indexable = parent._indexable and not (is_static(n) and (n in (INFINITE, UNKNOWN) or n > _TABLE_LIMIT))
        self._fixed = None
        if not reshuffle_each_iteration:  # one order for every pass: a fixed seed drawn now
            self._fixed = int(_generator(*self._seeds).integers(1 << 62))

    def _draw(self, rows):
        seed, seed2 = self._seeds
        n = self._size
        shape = convert_to_tensor(np.array([rows, n], np.int32)) if is_static(n) else \
            _stack_shape(rows, n)
        return bind(ShuffleOrder, (shape, convert_to_tensor(np.int32(self._buffer))),
                    {"seed": seed, "seed2": seed2, "fixed": self._fixed})

    def _open(self, epochs):
        return _ShuffleReader(self, self._parent._open(epochs), epochs)

    def _stream(self):
        rng = _generator(*self._seeds) if self._fixed is None else np.random.default_rng(self._fixed)
        size = self._buffer
        buffer = []
        for element in self._parent._elements():
            buffer.append(element)
            if len(buffer) == size:
                slot = int(rng.integers(len(buffer)))
                buffer[slot], buffer[-1] = buffer[-1], buffer[slot]
                yield buffer.pop()
        while buffer:
            slot = int(rng.integers(len(buffer)))
            buffer[slot], buffer[-1] = buffer[-1], buffer[slot]
            yield buffer.pop()


def _stack_shape(rows, n):
    from ..ops.array.joining import stack
    from ..ops.math.elementwise import cast
    return stack([convert_to_tensor(rows), cast(n, _dt.int32)])


class _ShuffleReader(Reader):
    """Eagerly each sweep's order is drawn when the sweep is first read; in a graph the orders are
    drawn before the loop, one row per sweep the repeats above ask for (or a cycle of a few reused
    in turn, for an endless repeat or beyond _TABLE_LIMIT entries)."""

    def __init__(self, ds, parent, epochs):
        from ..core.context import state
        super().__init__(ds.element_spec)
        self._parent, self._ds = parent, ds
        self._eager = state.graph is None and is_static(ds._size)
        self._orders = {}
        if not self._eager:
            rows = epochs if epochs is not None else _CYCLE
            if is_static(ds._size) and rows * max(ds._size, 1) > _TABLE_LIMIT:
                rows = max(1, _TABLE_LIMIT // max(ds._size, 1))
            self._table, self._rows = ds._draw(rows), rows

    def _order(self, epoch):
        if self._eager:
            if epoch not in self._orders:
                self._orders[epoch] = self._ds._draw(1).numpy()[0]
            return self._orders[epoch]
        from ..ops.array.slicing import gather
        return gather(self._table, epoch % self._rows)

    def element(self, i, epoch):
        order = self._order(epoch)
        if isinstance(order, np.ndarray) and is_static(i):
            return self._parent.element(int(order[i]), epoch)
        from ..ops.array.slicing import gather
        return self._parent.element(gather(order, i), epoch)

    def gather(self, indices, epoch):
        order = self._order(epoch)
        if isinstance(order, np.ndarray) and isinstance(indices, np.ndarray):
            return self._parent.gather(order[indices].astype(np.int32), epoch)
        from ..ops.array.slicing import gather
        return self._parent.gather(gather(order, indices), epoch)
