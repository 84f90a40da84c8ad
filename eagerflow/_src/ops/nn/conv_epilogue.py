"""A convolution's per-channel epilogue (bias, activation, batch normalization's affine), applied to
each row block of the convolution's output while that block is still in cache.

A Keras Conv2D layer followed by BatchNormalization runs, after the convolution, BiasAdd, Relu and the
normalization's multiply and add: four more passes over the whole output, each on the calling thread,
and each with a per-channel operand, so NumPy's inner loop is only C elements long (a [N, H, W, 16]
tensor is N * H * W loops of 16). Generated code hands such a chain to the convolution instead
(codegen/epilogue.py decides when that is allowed):

    conv = k_Conv2D(image, w, bias, scale, shift, ..., epilogue=('BiasAdd', 'Relu', 'Mul', 'AddV2'))

and the convolution's row blocks (ops/nn/window_matmul.py) apply the steps to their own rows right
after their product, on the thread that computed it. Every step is the same NumPy ufunc on the same
values as the op it stands for, elementwise, so the result is bit for bit the unfused one; only the
order of the passes over memory changes. Rows are viewed TILE_WIDTH values wide with the per-channel
operand repeated to that width, so each ufunc call runs long inner loops.

Steps (each takes the next of the extra inputs, except Relu and Relu6):
  BiasAdd, AddV2: x + v     Mul: x * v     Sub: x - v     SubFrom: v - x     Relu: max(x, 0)
  Relu6: clip(x, 0, 6)
where v has one value or one per output channel.
"""
from __future__ import annotations

import numpy as np

TILE_WIDTH = 1024  # values per row of the tiled view (a per-channel operand is repeated to about this width)
_BINARY = {"BiasAdd": np.add, "AddV2": np.add, "Mul": np.multiply, "Sub": np.subtract}
STEPS = frozenset(_BINARY) | {"SubFrom", "Relu", "Relu6"}
TAKES_OPERAND = frozenset(_BINARY) | {"SubFrom"}


def channel_epilogue(steps, operands, channels, dtype, most_rows=None):
    """`finish(rows)`: applies `steps` in place to a C-contiguous [rows, channels] array of `dtype`.
    `operands` are the steps' arrays in order (one value, or `channels` values, each). `most_rows`:
    the most rows any call will pass, if known (a few rows are tiled whole)."""
    repeat = max(1, TILE_WIDTH // max(1, channels))
    if most_rows is not None and 0 < most_rows < 4 * repeat:
        repeat = most_rows  # few rows: the operands repeated once per row, so a call of that many rows is one pass
    zero = np.zeros((), dtype)
    plan = []  # (step, operand for the tiled rows, operand for the left-over rows)
    values = iter(operands)
    for step in steps:
        if step not in TAKES_OPERAND:
            plan.append((step, None, None))
            continue
        v = np.asarray(next(values))
        if v.size == 1:
            v = v.reshape(())
            plan.append((step, v, v))
        else:
            v = v.reshape(channels)
            tiled = v
            if repeat > 1:
                tiled = np.empty((repeat, channels), v.dtype)
                tiled[...] = v
                tiled = tiled.reshape(-1)
            plan.append((step, tiled, v))

    def finish(rows):
        count = rows.shape[0]
        if count == 0 or channels == 0:
            return
        whole = count - count % repeat
        parts = [(rows[:whole].reshape(-1, repeat * channels), 1)] if whole else []
        if whole < count:
            parts.append((rows[whole:], 2))
        for step, *operand in plan:
            for part, which in parts:
                if step == "Relu":
                    np.maximum(part, zero, out=part)
                elif step == "Relu6":
                    np.clip(part, 0, 6, out=part)
                elif step == "SubFrom":
                    np.subtract(operand[which - 1], part, out=part)
                else:
                    _BINARY[step](part, operand[which - 1], out=part)
    return finish
