"""A convolution whose result only a tiling MaxPool reads, pooled block by block.

Keras' Conv2D -> (BatchNormalization) -> MaxPooling2D is, in the graph, a convolution, its
per-channel chain (ops/nn/conv_epilogue.py) and a MaxPool whose windows tile the image (VALID,
stride = window). Run op by op, the whole convolution result is written, passed over once per
chain step, and read again by the pool. Generated code instead writes one statement
(codegen/epilogue.py decides when that is allowed),

    pooled = k_Conv2D(image, w, bias, scale, shift, ..., epilogue=('BiasAdd', 'Relu', 'Mul', 'AddV2'), pool=(2, 2))

and each block of the convolution (ops/nn/window_matmul.py's blocks and products) is pooled while it
is in cache, on the thread that computed it; only the pooled result is kept.

The chain may also move after the pooling, where it passes over a quarter of the values (a 2x2
pool): every step is non-decreasing (x + v, x * v for v > 0, Relu, Relu6) and maps NaN to NaN and
nothing else to NaN, so the largest non-NaN cell of a window stays the largest after the steps, and
the window's result is the same number either way. That holds when every Mul operand is positive
and finite and every added or subtracted operand finite (an infinite or NaN bias, a zero or
negative scale would break it: inf * 0, a reversed order) and there is no SubFrom (v - x reverses
the order); it is checked on the operands of each call, and otherwise the chain runs before the
pooling, as unfused. The pool's final raise to the dtype's floor (an all-NaN window) comes after the
chain, as in the unfused graph. Results equal the unfused ones (a zero's sign aside).
"""
from __future__ import annotations

import math

import numpy as np

from .block_threads import run_blocks
from .pooling import max_of_tiles
from .window_matmul import BLOCK_VALUES, SHALLOW_DEPTH, product_into, product_rows, row_blocks, window_rows
from .windows import max_pool_floor

_ORDER_PRESERVING = frozenset({"Relu", "Relu6", "BiasAdd", "AddV2", "Sub", "Mul"})


def chain_commutes_with_max(steps, operands) -> bool:
    """Whether the per-channel `steps` with these `operands` may run after a max pool (see above)."""
    values = iter(operands)
    for step in steps:
        if step not in _ORDER_PRESERVING:
            return False
        if step in ("Relu", "Relu6"):
            continue
        v = np.asarray(next(values))
        if v.size > 64:  # (never for a per-channel operand of a usual layer; NumPy's reductions then)
            low, high = np.minimum.reduce(v, axis=None), np.maximum.reduce(v, axis=None)  # NaN fails both
            finite = bool(high < np.inf) and bool(low > -np.inf)
        else:  # a few values: Python's floats cost a tenth of NumPy's reductions' fixed cost
            numbers = v.ravel().tolist()
            finite = all(map(math.isfinite, numbers))
            low = min(numbers) if finite and numbers else 1.0
        if not finite or (step == "Mul" and not low > 0):
            return False
    return True


def pooled_windows_matmul(win, w, k, out, finish, after_pool):
    """The convolution `win` ([N, OH, OW, KH, KW, C] windows) @ `w` ([K, O]), with `finish` (the
    chain, or None) applied and max-pooled over KH x KW tiles (`k`), written into `out`
    ([N, OH // kh, OW // kw, O]). `after_pool`: the chain runs on pooled values (see above).

    A block's rows are its tiles' cells offset by offset: for each (dy, dx) of a tile, the windows of
    the outputs at (dy, dx) of every tile, so the pool is the elementwise maximum of kh * kw products
    of the block's size (long contiguous runs, not groups of C values), and the outputs no tile
    covers (the last row or column of an odd size) are never computed."""
    n, ph, pw, o = out.shape
    if out.size == 0:
        return out
    kdim = w.shape[0]
    w = np.ascontiguousarray(w)
    floor = max_pool_floor(out.dtype)
    cells = k[0] * k[1]
    covered = win[:, :k[0] * ph, :k[1] * pw]
    blocks = row_blocks((n, ph, pw), kdim * o * cells, BLOCK_VALUES // max(1, o * cells))
    shallow = win.shape[-1] <= SHALLOW_DEPTH
    piece = product_rows(kdim, o)
    before = None if after_pool else finish

    def run(b):
        index = blocks[b]
        target = out[index]
        count = target.size // o
        pooled = target.reshape(count, o)
        if len(index) == 1:  # whole images
            block = covered[index]
        else:  # pooled rows [start, stop) of one image
            image, rows = index
            block = covered[image, rows.start * k[0]:rows.stop * k[0]]
        parts = np.empty((cells, count, o), out.dtype)
        everything = parts.reshape(cells * count, o)
        product_into(_cell_rows(block, k, kdim, shallow), w, everything, piece)
        if before is not None:
            before(everything)
        if cells == 1:
            np.copyto(pooled, parts[0])
        else:
            np.fmax(parts[0], parts[1], out=pooled)
            for d in range(2, cells):
                np.fmax(pooled, parts[d], out=pooled)
        if after_pool and finish is not None:
            finish(pooled)
        np.fmax(pooled, floor, out=pooled)  # an all-NaN tile gives the floor, after the chain as unfused
    run_blocks(run, len(blocks), (win.shape, w.shape, k))
    return out


def _cell_rows(block, k, kdim, shallow):
    """The [cells * rows, K] windows of `block` ([lead..., kh * PH, kw * PW, KH, KW, C] windows): for
    each cell (dy, dx) of the pooling tiles in turn, the windows of the outputs at that cell of every
    tile, in output order. One copy of the block's windows; a shallow input is copied window offset
    first (the product's [K, rows] operand, transposed: see ops/nn/window_matmul.py)."""
    kh, kw = k
    *lead, height, width, wh, ww, c = block.shape
    ph, pw = height // kh, width // kw
    nl = len(lead)
    tiles = block.reshape(tuple(lead) + (ph, kh, pw, kw, wh, ww, c))  # splits axes: a view
    lead_axes = tuple(range(nl))
    tile_axes = lead_axes + (nl, nl + 2)  # lead..., PH, PW
    cell_axes = (nl + 1, nl + 3)  # kh, kw
    window_axes = (nl + 4, nl + 5, nl + 6)  # KH, KW, C
    count = ph * pw
    for d in lead:
        count *= d
    if not shallow:
        return np.ascontiguousarray(tiles.transpose(cell_axes + tile_axes + window_axes)).reshape(-1, kdim)
    return np.ascontiguousarray(tiles.transpose(window_axes + cell_axes + tile_axes)).reshape(kdim, -1).T


def pool_result(full, k, out):
    """The max pool of a whole convolution result (the paths that do not run in row blocks)."""
    max_of_tiles(full, k, out, max_pool_floor(full.dtype))
    return out
