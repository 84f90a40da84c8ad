"""tf.data's shuffle order (eagerflow's ShuffleOrder: the order a shuffle buffer hands out positions 0..n-1,
one row per pass, data/shuffle.py explains it) as a graph of ordinary TensorFlow ops, for a shuffled
dataset made inside the function (a fresh seed generator on every call, so the orders depend on the seeds
alone): the Philox words come from StatelessRandomUniformFullIntV2 (the same Philox stream
data/shuffle.py's philox_words reads), and the ring buffer runs in a tf.while_loop, one step per position.
Traced once per export (traced_call_export.py)."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...control_flow.while_loop import while_loop
from ...ops.array.basic import cast, expand_dims, reshape, where, zeros
from ...ops.array.joining import concat, stack
from ...ops.array.sequences import range as _range
from ...ops.array.tensor_scatter import tensor_scatter_nd_update
from ...ops.array.tiling import tile
from ...ops.math.arithmetic import maximum, minimum
from ...ops.math.comparison import less
from ...ops.random.stateless import StatelessRandomUniformFullIntV2
from ...ops.operands import as_tensor
from ...ops.registry import bind

I32, I64 = _dt.int32, _dt.int64


def _words(count, seed, seed2):
    """`count` uint32 words of Philox keyed by `seed` from counter (0, `seed2`), as int64."""
    key = reshape(cast(seed, _dt.uint64), [1])
    counter = concat([zeros([1], _dt.uint64), reshape(cast(seed2, _dt.uint64), [1])], 0)
    drawn = bind(StatelessRandomUniformFullIntV2, (reshape(count, [1]), key, counter, as_tensor(np.int32(1))),
                 {"dtype": _dt.uint32})
    return cast(drawn, I64)


def _one_pass(n, size, seed, seed2):
    """The positions 0..n-1 as a buffer of `size` (1 <= size <= n) hands them out (data/shuffle.py's
    buffered_order)."""
    draws = _words(n, seed, seed2)
    size64 = cast(size, I64)

    def step(t, ring, filled, out):
        target = minimum(t + size, n)
        fresh = _range(filled, target)
        ring = tensor_scatter_nd_update(ring, expand_dims(fresh % size, 1), fresh)
        slot = cast((cast(t, I64) + draws[t] % cast(target - t, I64)) % size64, I32)
        out = tensor_scatter_nd_update(out, reshape(t, [1, 1]), reshape(ring[slot], [1]))
        head = t % size
        ring = tensor_scatter_nd_update(ring, stack([reshape(slot, [1]), reshape(head, [1])]),
                                        stack([ring[head], ring[slot]]))
        return t + 1, ring, target, out

    _, _, _, out = while_loop(lambda t, *_: less(t, n), step,
                              (np.int32(0), zeros(reshape(size, [1]), I32), np.int32(0), zeros(reshape(n, [1]), I32)))
    return out


def shuffle_order(shape, buffer_size, seed, seed2, reshuffle):
    """[rows, n] int32: pass k's order in row k (ShuffleOrder's kernel with seeds (seed, seed2, reshuffle))."""
    rows, n = shape[0], shape[1]
    size = where(less(buffer_size, 0), n, minimum(buffer_size, n))
    size = maximum(size, 1)
    if reshuffle:  # pass k's seeds: words 2k and 2k+1 of the generator's own Philox stream
        pairs = reshape(_words(2 * rows, np.int64(seed), np.int64(seed2)), stack([rows, 2]))
    else:
        pairs = tile(np.array([[seed, seed2]], np.int64), stack([rows, 1]))

    def next_row(k, orders):
        order = _one_pass(n, size, pairs[k][0], pairs[k][1])
        return k + 1, tensor_scatter_nd_update(orders, reshape(k, [1, 1]), expand_dims(order, 0))

    _, orders = while_loop(lambda k, _: less(k, rows), next_row, (np.int32(0), zeros(stack([rows, n]), I32)))
    return orders
