"""The matmuls of convolutions, in row blocks small enough that the BLAS runs each on the calling thread.

A convolution's matmul is tall and thin: one row per output pixel (N * OH * OW of them), and only
KH * KW * C columns times O filters. A multi-threaded BLAS (OpenBLAS, NumPy's) splits every call
above about 10**6 multiply-adds over its worker threads, and each such call then waits until every
worker has been scheduled. On a machine whose cores are busy (shared CI runners, several processes,
or the BLAS pool larger than the free cores) that wait is a scheduler time slice, milliseconds for a
call whose arithmetic takes tens of microseconds: a small CNN went from 0.13 ms at batch 1 to 40 ms
at batch 8. Work of this shape gains little from threads anyway (it streams memory), so each call
here does at most MACS_PER_CALL multiply-adds, below the BLAS's threading threshold. A wide filter
matrix (LARGE_ROW_MACS per row or more) makes the product compute-bound instead: it stays one call,
for the BLAS's threads. Blocking also
keeps the im2col copy of a block (its window rows) in cache instead of copying the whole batch's
windows, KH * KW times the input, before the first multiply.

A block is a run of whole images, or a run of output rows of one image when one image is already
over the budget. Forward and input-gradient blocks split the rows of the product, so every output
element is the same dot product as in one call; the filter gradient sums its blocks' partial
products in block order, which rounds like any other order of the same sum (and the same way on
every run). A forward block holds at least BLOCK_VALUES outputs and hands its product to the BLAS
in pieces of at most MACS_PER_CALL: the block's other work (its window copy, epilogue, pooling) is a
dozen NumPy calls whose fixed cost swamped blocks of one small image.

The blocks of one call are independent, so they run on the calling thread and helper threads at once
(ops/nn/block_threads.py): the cores the BLAS's pool would use, without its wait for every worker.
Each block writes its rows straight into the output (`out=`), and a shallow input (C of at most
SHALLOW_DEPTH, such as a first layer's 1 or 3 channels) is copied offset by offset into a
[window..., C, rows] buffer: copying the [rows, KH, KW, C] window view element by element costs
three times the product there.
"""
from __future__ import annotations

import numpy as np

from .block_threads import run_blocks

# NumPy's OpenBLAS (0.3.31) runs a product of up to about 10**6 multiply-adds on the calling thread (measured:
# 990,720 stay there, 1,008,000 spread over its pool). 3 * 2**18 leaves a margin and still holds a whole 11x11
# image of a 3x3x16 -> 32 convolution (557,568): fewer, larger blocks.
MACS_PER_CALL = 3 << 18
# A row this costly (a filter matrix of K * O >= 2**15, e.g. 3x3x64 -> 64) is compute-bound: threads pay off, and
# blocks of a few rows would make a Python loop of thousands of tiny products. Such products stay one call.
LARGE_ROW_MACS = 1 << 15
# A convolution's block holds at least this many output values (its product then runs in pieces of at most
# MACS_PER_CALL): each block costs a dozen NumPy calls (window copy, epilogue steps, pooling), and blocks of one
# small image each (a 3x3x16 -> 32 convolution of 11x11 outputs: 3,872 values) spent more in those calls' fixed
# costs than in their work.
BLOCK_VALUES = 1 << 15
SHALLOW_DEPTH = 4  # inputs of at most this many channels are copied offset by offset (see above)
_BLAS_KINDS = (np.float32, np.float64, np.complex64, np.complex128)
_product = np.matmul  # every BLAS call of this module (tests count them and their sizes)


def _prod(dims):
    total = 1
    for d in dims:
        total *= int(d)
    return total


def row_blocks(lead_shape, macs_per_row, min_rows=1):
    """Index tuples that split an array whose leading axes are `lead_shape` ([N, spatial...]) into
    blocks of at most max(min_rows, MACS_PER_CALL // macs_per_row) rows: whole images when an image
    fits, otherwise slices of axis 1 inside one image. Rows of LARGE_ROW_MACS or more: one block, all
    of it."""
    n = int(lead_shape[0])
    if macs_per_row >= LARGE_ROW_MACS:
        return [(slice(None),)]
    limit = max(1, min_rows, MACS_PER_CALL // max(1, macs_per_row))
    per_image = _prod(lead_shape[1:])
    if per_image <= limit or len(lead_shape) == 1:
        step = max(1, limit // max(1, per_image))
        return [(slice(s, min(n, s + step)),) for s in range(0, n, step)]
    step = max(1, limit // max(1, _prod(lead_shape[2:])))
    return [(i, slice(s, min(int(lead_shape[1]), s + step))) for i in range(n) for s in range(0, lead_shape[1], step)]


def _offset_major(block, lead_axes):
    """The windows of `block` ([lead..., window..., C]) as a [window..., C, rows] array, copied one
    window offset at a time (each a strided slice of the input, moved channels-first)."""
    lead, window, c = block.shape[:lead_axes], block.shape[lead_axes:-1], block.shape[-1]
    cols = np.empty(window + (c,) + lead, block.dtype)
    channels_first = (lead_axes,) + tuple(range(lead_axes))
    for offset in np.ndindex(*window):
        cols[offset] = block[(Ellipsis,) + offset + (slice(None),)].transpose(channels_first)
    return cols.reshape(_prod(window) * c, _prod(lead))


def window_rows(block, block_lead, kdim, shallow):
    """The windows of `block` ([lead..., window..., C], `block_lead` lead axes) as [rows, K] for the
    product: copied offset by offset for a shallow input (see above), else one reshape copy."""
    if shallow:
        return _offset_major(block, block_lead).T
    return block.reshape(_prod(block.shape[:block_lead]), kdim)


def product_rows(kdim, o):
    """Rows per BLAS call for a [rows, kdim] @ [kdim, o] product: at most MACS_PER_CALL multiply-adds,
    or None (one call) for a wide filter matrix (see LARGE_ROW_MACS)."""
    return None if kdim * o >= LARGE_ROW_MACS else max(1, MACS_PER_CALL // max(1, kdim * o))


def product_into(rows, w, slab, piece):
    """`rows @ w` written into `slab`, in calls of at most `piece` rows (all at once for None)."""
    count = rows.shape[0]
    if piece is None or count <= piece:
        _product(rows, w, out=slab)
        return
    for start in range(0, count, piece):
        _product(rows[start:start + piece], w, out=slab[start:start + piece])


def windows_matmul(win, w, lead_axes, out=None, finish=None):
    """`win.reshape(rows, K) @ w` shaped [*win.shape[:lead_axes], O], where `win` is a window view
    [N, out spatial..., window..., C] and `w` is [K, O]; written into `out` (C-contiguous) if given.
    `finish(rows)`, if given, runs on each block's [rows, O] result right after its product, on the
    same thread (a convolution's epilogue: ops/nn/conv_epilogue.py)."""
    kdim, o = w.shape
    w = np.ascontiguousarray(w)  # see rows_matmul
    lead = win.shape[:lead_axes]
    if out is None:
        out = np.empty(lead + (o,), np.result_type(win.dtype, w.dtype))
    blocks = row_blocks(lead, kdim * o, BLOCK_VALUES // max(1, o))
    shallow = win.shape[-1] <= SHALLOW_DEPTH
    piece = product_rows(kdim, o)

    def run(b):
        index = blocks[b]
        block = win[index]
        block_lead = block.ndim - win.ndim + lead_axes
        rows = window_rows(block, block_lead, kdim, shallow)
        slab = out[index].reshape(rows.shape[0], o)  # a block of whole images or rows: a contiguous slab of out
        product_into(rows, w, slab, piece)
        if finish is not None:
            finish(slab)
    run_blocks(run, len(blocks), (win.shape, w.shape))
    return out


def rows_matmul(a, b):
    """`a @ b` for 2-D `a` (rows) and `b`, block of rows by block of rows. `b` (a filter, small) is
    made C-contiguous first: NumPy hands a transposed view such as `w.T` of a few columns to its own
    loop instead of the BLAS, a hundred times slower."""
    b = np.ascontiguousarray(b)
    out = np.empty((a.shape[0], b.shape[1]), np.result_type(a.dtype, b.dtype))
    blocks = row_blocks(a.shape[:1], b.shape[0] * b.shape[1])

    def run(i):
        rows, = blocks[i]
        _product(a[rows], b, out=out[rows])
    run_blocks(run, len(blocks), (a.shape, b.shape))
    return out


def windows_gram(win, dy, lead_axes):
    """`win.reshape(rows, K).T @ dy.reshape(rows, O)` ([K, O]: a filter gradient), summed over row
    blocks. Only BLAS dtypes are split: a float16 or integer product is summed in one call, as before."""
    lead = win.shape[:lead_axes]
    kdim, o = _prod(win.shape[lead_axes:]), dy.shape[-1]
    dtype = np.result_type(win.dtype, dy.dtype)
    blocks = row_blocks(lead, kdim * o) if dtype.type in _BLAS_KINDS else [(slice(None),)]
    parts = [None] * len(blocks)

    def run(i):
        index = blocks[i]
        parts[i] = _product(win[index].reshape(-1, kdim).T, dy[index].reshape(-1, o))
    run_blocks(run, len(blocks), (win.shape, dy.shape))
    if not parts:
        return np.zeros((kdim, o), dtype)
    total = parts[0]
    for part in parts[1:]:
        total += part
    return total
