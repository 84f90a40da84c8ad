"""`Dataset.shuffle`: TensorFlow's buffered shuffle, with TensorFlow's orders for a seed.

The algorithm (as TensorFlow's ShuffleDataset): a ring buffer is topped up to `buffer_size` elements
from the input before every output; the output is the element at a slot drawn uniformly among the
ones in the buffer (the next 32-bit Philox word modulo their count), which then trades places with
the oldest slot, and the oldest slot is retired. So buffer_size=1 keeps the order, a small buffer can
only move an element a little way forward, and buffer_size >= the input size (or
tf.data.UNKNOWN_CARDINALITY) gives a uniformly random permutation.

The words come from Philox-4x32-10 keyed by each pass's seed pair; the pairs come from the dataset's
own seed generator, as TensorFlow's: with `reshuffle_each_iteration` (the default) pass k takes
words 2k and 2k+1 of the Philox stream of (seed, seed2), otherwise every pass takes (seed, seed2)
itself. A pass is one iteration of the dataset, or one sweep of a `repeat` above it, counted per
dataset object, so a seeded shuffle iterated eagerly gives TensorFlow 2.21's orders, epoch after
epoch. (Inside a tf.function TensorFlow derives other seeds; orders there are reproducible but not
TensorFlow's.) An unseeded shuffle takes a random seed pair, as TensorFlow does.

Two forms of one algorithm:
- a finite indexable input keeps index arithmetic: each pass draws the order the buffer hands out
  positions 0..n-1 in (`buffered_order`), with the stateful op ShuffleOrder, so a traced loop draws
  a fresh order on every call of the function, in the graph;
- an infinite, huge (> _TABLE_LIMIT elements) or stream input runs the buffer itself over the
  input's elements (`_stream`).
"""
from __future__ import annotations

import itertools
import threading

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import Tensor
from ..ops.random.philox import blocks
from ..ops.registry import NO_GRADIENT, Spec, bind, defop
from .dataset import Dataset
from .reader import Reader
from .structure import INFINITE, UNKNOWN, is_static

# At most this many order entries are drawn ahead for one pass of a traced loop.
_TABLE_LIMIT = 1 << 22
_CYCLE = 16
_WORD64 = (1 << 64) - 1


def philox_words(seed, seed2, start, count) -> np.ndarray:
    """`count` uint32 words of TensorFlow's PhiloxRandom(seed, seed2) stream from word `start`: the key is
    `seed`'s two halves, the counter starts at (0, 0, `seed2`'s two halves)."""
    seed, seed2 = int(seed) & _WORD64, int(seed2) & _WORD64
    key, counter = (seed & 0xFFFFFFFF, seed >> 32), (0, 0, seed2 & 0xFFFFFFFF, seed2 >> 32)
    first, last = start // 4, -(-(start + count) // 4)
    words = blocks(key, counter, np.arange(first, max(last, first), dtype=np.uint64)).reshape(-1)
    return words[start - first * 4:start - first * 4 + count]


class PassSeeds:
    """A shuffled dataset's seed generator: the seed pair of each pass, handed out in pass order (thread
    safe: two iterators opened at once take different passes)."""

    def __init__(self, seed, seed2, reshuffle):
        if seed == 0 and seed2 == 0:  # unseeded: random seeds, chosen once, as TensorFlow's New64()
            seed, seed2 = (int(v) for v in np.random.default_rng().integers(1, 1 << 63, size=2))
        self.seed, self.seed2, self.reshuffle = seed, seed2, reshuffle
        self._passes = itertools.count()
        self._lock = threading.Lock()

    def take(self, count):
        """The seed pairs of the next `count` passes."""
        with self._lock:
            first = next(self._passes)
            for _ in range(count - 1):
                next(self._passes)
        if not self.reshuffle:
            return [(self.seed, self.seed2)] * count
        words = philox_words(self.seed, self.seed2, 2 * first, 2 * count).tolist()
        return list(zip(words[0::2], words[1::2]))


def buffered_order(n: int, buffer_size: int, seeds) -> np.ndarray:
    """The positions 0..n-1 in the order TensorFlow's shuffle buffer hands them out for one pass's seeds."""
    n, size = int(n), int(buffer_size)
    size = n if size < 0 else min(size, n)
    if size <= 1:
        return np.arange(n, dtype=np.int32)
    draws = philox_words(*seeds, 0, n)
    if size == n:  # every position in the buffer from the start: the ring is the order itself
        picks = (np.arange(n) + draws.astype(np.int64) % (n - np.arange(n))).tolist()
        order = list(range(n))
        for t, pick in enumerate(picks):
            order[t], order[pick] = order[pick], order[t]
        return np.array(order, np.int32)
    draws = draws.tolist()
    ring = [0] * size
    oldest = filled = 0
    out = np.empty(n, np.int32)
    for t in range(n):
        while filled - oldest < size and filled < n:
            ring[filled % size] = filled
            filled += 1
        slot = (oldest + draws[t] % (filled - oldest)) % size
        out[t] = ring[slot]
        head = oldest % size
        ring[slot], ring[head] = ring[head], ring[slot]
        oldest += 1
    return out


def _order_kernel(shape, buffer_size, seeds=None):
    rows, n = (int(v) for v in np.asarray(shape))
    if isinstance(seeds, tuple):  # a dataset made inside the function: a new seed generator per call
        seeds = PassSeeds(*seeds)
    if not rows:
        return np.zeros((0, n), np.int32)
    return np.stack([buffered_order(n, buffer_size, pair) for pair in seeds.take(rows)])


ShuffleOrder = defop(
    "ShuffleOrder", inputs=("shape", "buffer_size"), kernel=_order_kernel, grad=NO_GRADIENT, stateful=True,
    infer=lambda inputs, attrs: [Spec(TensorShape([None, None]), _dt.int32)],
    doc="[rows, n] int32: the next `rows` passes' orders of positions 0..n-1 as a shuffle buffer hands them out.")


def _buffer_size(value) -> int:
    size = int(value.numpy()) if isinstance(value, Tensor) else int(value)
    if size <= 0 and size != UNKNOWN:
        raise InvalidArgumentError(None, None, "buffer_size must be greater than zero or UNKNOWN_CARDINALITY")
    return size


def shuffle(parent, buffer_size, seed, reshuffle_each_iteration):
    return ShuffleDataset(parent, _buffer_size(buffer_size), seed, reshuffle_each_iteration)


class ShuffleDataset(Dataset):
    """See the module docstring; `_seeds` is the dataset's seed generator (PassSeeds), or, for a dataset
    made while tracing, the (seed, seed2, reshuffle) each call of the function makes its generator from,
    as each call of a TensorFlow graph runs the dataset's ops anew."""
    _name = "_ShuffleDataset"

    def __init__(self, parent, buffer_size, seed, reshuffle_each_iteration):
        from ..ops.random.draws import get_seed
        self._parent, self._spec, self._size = parent, parent.element_spec, parent._size
        self._buffer = buffer_size
        self._seeds = PassSeeds(*get_seed(seed), reshuffle_each_iteration)
        if state.graph is not None:  # made while tracing: every call of the function makes it anew
            self._seeds = (*get_seed(seed), reshuffle_each_iteration)
        n = self._size
        # A huge finite input is a stream too: an order over all its positions would not fit in memory.
        self._indexable = parent._indexable and not (is_static(n) and (n in (INFINITE, UNKNOWN) or n > _TABLE_LIMIT))

    def _draw(self, rows):
        n = self._size
        shape = convert_to_tensor(np.array([rows, n], np.int32)) if is_static(n) else \
            _stack_shape(rows, n)
        return bind(ShuffleOrder, (shape, convert_to_tensor(np.int32(self._buffer))), {"seeds": self._seeds})

    def _open(self, epochs):
        return _ShuffleReader(self, self._parent._open(epochs), epochs)

    def _stream(self):
        """The buffer run over the input's elements (see the module docstring), one pass."""
        seeds = PassSeeds(*self._seeds) if isinstance(self._seeds, tuple) else self._seeds
        (pair,) = seeds.take(1)
        size = self._buffer if self._buffer > 0 else None
        ring, start = [], 0
        elements = iter(self._parent._elements())
        for word in itertools.chain.from_iterable(_word_batches(pair)):
            while elements is not None and (size is None or len(ring) - start < size):
                element = next(elements, _END)
                if element is _END:
                    elements = None
                    break
                ring.append(element)
            count = len(ring) - start
            if count == 0:
                return
            slot = start + int(word) % count
            yield ring[slot]
            ring[slot] = ring[start]
            ring[start] = None
            start += 1
            if start > 4096 and start * 2 > len(ring):  # drop the retired slots now and then
                del ring[:start]
                start = 0


_END = object()


def _word_batches(pair, batch=4096):
    """The Philox words of one pass, in batches, for as long as they are asked for."""
    for first in itertools.count(0, batch):
        yield philox_words(*pair, first, batch).tolist()


def _stack_shape(rows, n):
    from ..ops.array.joining import stack
    from ..ops.math.elementwise import cast
    return stack([convert_to_tensor(rows), cast(n, _dt.int32)])


class _ShuffleReader(Reader):
    """Eagerly each sweep's order is drawn when the sweep is first read; in a graph the orders are
    drawn before the loop, one row per sweep the repeats above ask for (or a cycle of a few reused
    in turn, for an endless repeat or beyond _TABLE_LIMIT entries)."""

    def __init__(self, ds, parent, epochs):
        super().__init__(ds.element_spec)
        self._parent, self._ds = parent, ds
        self._eager = state.graph is None and is_static(ds._size)
        self._orders = {}
        self._orders_lock = threading.Lock()  # a parallel map above reads sweeps from several threads
        if not self._eager:
            rows = epochs if epochs is not None else _CYCLE
            if is_static(ds._size) and rows * max(ds._size, 1) > _TABLE_LIMIT:
                rows = max(1, _TABLE_LIMIT // max(ds._size, 1))
            self._table, self._rows = ds._draw(rows), rows

    def _order(self, epoch):
        if self._eager:
            with self._orders_lock:  # a parallel map above reads sweeps from several threads
                # sweeps take their seeds in sweep order, however the threads ask for them
                for sweep in range(max(self._orders, default=-1) + 1, epoch + 1):
                    self._orders[sweep] = self._ds._draw(1).numpy()[0]
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
