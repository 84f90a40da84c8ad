"""SpaceToBatchND / BatchToSpaceND (`tf.space_to_batch_nd`, `tf.space_to_batch`, `tf.nn.space_to_batch`,
`tf.batch_to_space`): blocks of the M spatial dimensions (after the batch dimension) moved into the
batch dimension and back, as dilated convolutions use them.

SpaceToBatchND pads the spatial dimensions, splits each into (size / block, block), moves the M
block axes in front of the batch axis and folds them into it: [b, s1..sM, rest] ->
[b * prod(block), (s1 + pad1) / block1, ..., rest]. BatchToSpaceND is its inverse followed by a
crop. Each is the other's gradient. One kernel body serves NumPy and JAX (`xp`); the block shape
and paddings must be known to the XLA lowering, as TensorFlow's XLA requires.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..lazy_jax import jnp
from ..operands import as_tensor
from ..registry import Spec, bind, defop, static_value


def _pairs(block_shape, pads, what):
    block = [int(b) for b in np.asarray(block_shape).reshape(-1)]
    pads = np.asarray(pads)
    if pads.shape != (len(block), 2):
        raise InvalidArgumentError(None, None, f"{what} should have shape [{len(block)}, 2] instead of "
                                               f"[{','.join(map(str, pads.shape))}]")
    pairs = [(int(a), int(b)) for a, b in pads]
    if any(a < 0 or b < 0 for a, b in pairs):
        raise InvalidArgumentError(None, None, f"{what.capitalize()} must be non-negative")
    if any(b < 1 for b in block):
        raise InvalidArgumentError(None, None, f"All values in block_shape must be positive, got value, "
                                               f"{min(block)} instead.")
    return block, pairs


def _space_to_batch_shape(shape, block, pairs):
    """The output shape (None where unknown), or TensorFlow's error for a size the block does not divide."""
    out = list(shape)
    for i, (b, (lo, hi)) in enumerate(zip(block, pairs)):
        d = shape[i + 1]
        if d is not None:
            padded = d + lo + hi
            if padded % b:
                raise InvalidArgumentError(None, None, f"padded_shape[{i}]={padded} is not divisible by "
                                                       f"block_shape[{i}]={b}")
            out[i + 1] = padded // b
    out[0] = None if shape[0] is None else shape[0] * int(np.prod(block))
    return out


def _batch_to_space_shape(shape, block, pairs):
    prod = int(np.prod(block))
    out = list(shape)
    if shape[0] is not None:
        if shape[0] % prod:
            raise InvalidArgumentError(None, None, f"Input batch dimension ({shape[0]}) is not divisible by product "
                                                   f"of block sizes ({prod})")
        out[0] = shape[0] // prod
    for i, (b, (lo, hi)) in enumerate(zip(block, pairs)):
        d = shape[i + 1]
        if d is not None:
            if d * b - lo - hi < 0:
                raise InvalidArgumentError(None, None, f"Crops must be less than or equal to the input size: "
                                                       f"{d * b} < {lo + hi}")
            out[i + 1] = d * b - lo - hi
    return out


def _space_to_batch(xp, x, block_shape, paddings):
    block, pairs = _pairs(block_shape, paddings, "paddings")
    m = len(block)
    out_shape = _space_to_batch_shape(list(x.shape), block, pairs)
    x = xp.pad(x, [(0, 0)] + pairs + [(0, 0)] * (x.ndim - m - 1))
    batch, rest = x.shape[0], list(x.shape[m + 1:])
    split = [batch]
    for i, b in enumerate(block):
        split += [x.shape[i + 1] // b, b]
    x = x.reshape(split + rest)
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(2 * m + 1, x.ndim))
    return xp.transpose(x, order).reshape(out_shape)


def _batch_to_space(xp, x, block_shape, crops):
    block, pairs = _pairs(block_shape, crops, "crops")
    m = len(block)
    out_shape = _batch_to_space_shape(list(x.shape), block, pairs)
    batch, spatial, rest = x.shape[0] // int(np.prod(block)), list(x.shape[1:m + 1]), list(x.shape[m + 1:])
    x = x.reshape(block + [batch] + spatial + rest)
    order = [m]
    for i in range(m):
        order += [m + 1 + i, i]
    order += list(range(2 * m + 1, x.ndim))
    x = xp.transpose(x, order).reshape([batch] + [d * b for d, b in zip(spatial, block)] + rest)
    index = (slice(None),) + tuple(slice(lo, x.shape[i + 1] - hi) for i, (lo, hi) in enumerate(pairs))
    return x[index].reshape(out_shape)


def _infer(shape_fn, what):
    def infer(inputs, attrs):
        x, block_shape, pads = inputs
        block, pairs = static_value(block_shape), static_value(pads)
        if x.shape.rank is None or block is None or pairs is None:
            return [Spec(TensorShape(None if x.shape.rank is None else [None] * x.shape.rank), x.dtype)]
        block, pairs = _pairs(block, pairs, what)
        return [Spec(TensorShape(shape_fn(x.shape.as_list(), block, pairs)), x.dtype)]
    return infer


SpaceToBatchND = defop(
    "SpaceToBatchND", inputs=("input", "block_shape", "paddings"), infer=_infer(_space_to_batch_shape, "paddings"),
    kernel=lambda x, block_shape, paddings: np.ascontiguousarray(_space_to_batch(np, x, block_shape, paddings)),
    grad=lambda op, g: (bind(BatchToSpaceND, (g, op.inputs[1], op.inputs[2])), None, None),
    doc="Spatial blocks moved into the batch dimension, after padding (tf.space_to_batch_nd).")
BatchToSpaceND = defop(
    "BatchToSpaceND", inputs=("input", "block_shape", "crops"), infer=_infer(_batch_to_space_shape, "crops"),
    kernel=lambda x, block_shape, crops: np.ascontiguousarray(_batch_to_space(np, x, block_shape, crops)),
    grad=lambda op, g: (bind(SpaceToBatchND, (g, op.inputs[1], op.inputs[2])), None, None),
    doc="Batch blocks moved back into the spatial dimensions, then cropped (tf.batch_to_space).")
SpaceToBatchND.jax = lambda x, block_shape, paddings: _space_to_batch(jnp, x, block_shape, paddings)
BatchToSpaceND.jax = lambda x, block_shape, crops: _batch_to_space(jnp, x, block_shape, crops)


def _int_operand(value):
    t = as_tensor(value)
    return t if t.dtype in (_dt.int32, _dt.int64) else as_tensor(value, _dt.int32)


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002 - TensorFlow's names
    """`tf.space_to_batch_nd` (also `tf.space_to_batch`, `tf.nn.space_to_batch`)."""
    return bind(SpaceToBatchND, (as_tensor(input), _int_operand(block_shape), _int_operand(paddings)), name=name)


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    """`tf.batch_to_space` (TensorFlow 2: the N-d form, BatchToSpaceND)."""
    return bind(BatchToSpaceND, (as_tensor(input), _int_operand(block_shape), _int_operand(crops)), name=name)


space_to_batch = space_to_batch_nd  # TensorFlow 2's tf.space_to_batch / tf.nn.space_to_batch: the same N-d op


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """`tf.required_space_to_batch_paddings`: (paddings, crops) making each padded spatial size a
    multiple of its block: base_paddings plus the least extra padding at the end, which the crops
    remove again after batch_to_space."""
    from .basic import zeros_like
    from .joining import stack
    shape = _int_operand(input_shape)
    block = _int_operand(block_shape)
    base = _int_operand(base_paddings) if base_paddings is not None else \
        as_tensor(np.zeros((int(np.prod(block.shape.as_list())), 2), np.int32))
    start, end = base[:, 0], base[:, 1]
    extra = (block - (shape + start + end) % block) % block
    return stack([start, end + extra], axis=1), stack([zeros_like(extra), extra], axis=1)
