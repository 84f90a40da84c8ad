"""`tf.signal.frame` and `tf.signal.overlap_and_add`, composed from existing ops as TensorFlow
composes them (frame is a gather, overlap_and_add a pad/reshape/sum), so gradients come from
those ops' rules and eager and traced calls run the same ops.

Sizes known when the call is made (the usual case) are computed in Python, so a traced frame has
a static shape; unknown ones are computed with shape ops at run time.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ..operands import as_tensor
from ..registry import static_value
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from ..array import padding as _padding
from ..math import reduce as _reduce
from ..array import sequences as _sequences
from ..array import slicing as _slicing


def _int_scalar(value):
    t = as_tensor(value, _dt.int32)
    if t.shape.rank is not None and t.shape.rank != 0:
        raise ValueError(f"Shape {t.shape} must have rank 0")
    return t


def check_rank_at_least(t, rank):
    if t.shape.rank is not None and t.shape.rank < rank:
        raise ValueError(f"Shape {t.shape} must have rank at least {rank}")


def _known(t):
    value = static_value(t)
    return None if value is None else int(value)


def shape_arg(parts):
    """A shape argument from Python ints and scalar tensors: a list when all are known."""
    if all(isinstance(p, (int, np.integer)) for p in parts):
        return [int(p) for p in parts]
    return _joining.stack([_math.cast(as_tensor(p, _dt.int32), _dt.int32) for p in parts])


def _floordiv(a, b):
    """a // b of Python ints or tensors; a zero step fails as TensorFlow's FloorDiv does."""
    if isinstance(b, int) and b == 0:
        raise InvalidArgumentError(None, None, "Integer division by zero")
    return a // b


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """`tf.signal.frame`: windows of `frame_length` samples every `frame_step` samples along `axis`
    (a new axis of frames, then the samples of each); with `pad_end` the last frames run past the
    end, filled with `pad_value`."""
    signal = as_tensor(signal)
    frame_length = _int_scalar(frame_length)
    frame_step = _int_scalar(frame_step)
    check_rank_at_least(signal, 1)
    rank = signal.shape.rank
    if rank is None:
        raise NotImplementedError("tf.signal.frame needs a signal of known rank")
    axis = int(static_value(as_tensor(axis, _dt.int32)) if not isinstance(axis, int) else axis)
    axis = range(rank)[axis]
    in_dims = list(signal.shape)
    length_static, fl, fs = signal.shape[axis], _known(frame_length), _known(frame_step)
    length = length_static if length_static is not None else _array.shape(signal)[axis]
    fl_v = fl if fl is not None else frame_length
    fs_v = fs if fs is not None else frame_step
    if pad_end:
        num_frames = -_floordiv(-length, fs_v)
        extra = fl_v + fs_v * (num_frames - 1) - length
        extra = max(0, extra) if isinstance(extra, int) else _math.maximum(0, extra)
        if not isinstance(extra, int) or extra > 0:
            pairs = [[0, 0]] * axis + [[0, extra]] + [[0, 0]] * (rank - axis - 1)
            paddings = pairs if isinstance(extra, int) else _joining.stack([shape_arg(p) for p in pairs])
            signal = _padding.pad(signal, paddings, constant_values=as_tensor(pad_value, signal.dtype))
    else:
        num_frames = 1 + _floordiv(length - fl_v, fs_v)
        num_frames = max(0, num_frames) if isinstance(num_frames, int) else _math.maximum(0, num_frames)
    if isinstance(num_frames, int) and fl is not None and fs is not None:
        indices = as_tensor((np.arange(num_frames)[:, None] * fs + np.arange(fl)[None, :]).astype(np.int32))
    else:
        starts = _array.reshape(_sequences.range(num_frames) * fs_v, [-1, 1])
        indices = starts + _array.reshape(_sequences.range(fl_v), [1, -1])
    # TensorFlow's frame reshapes the signal before gathering, so its gradient is dense, not the
    # gather's IndexedSlices: the Reshape here gives the same (a view; its gradient rule densifies)
    frames = _slicing.gather(_array.reshape(signal, _array.shape(signal)), indices, axis=axis)
    if frames.shape.rank is not None and not frames.shape.is_fully_defined():  # a traced call's static shape
        dims = in_dims
        dims[axis:axis + 1] = [num_frames if isinstance(num_frames, int) else None, fl]
        frames.set_shape(dims)
    return frames


def overlap_and_add(signal, frame_step, name=None):
    """`tf.signal.overlap_and_add`: frames [..., frames, frame_length] added back into one signal of
    frame_length + frame_step * (frames - 1) samples, each frame starting frame_step after the last."""
    signal = as_tensor(signal)
    check_rank_at_least(signal, 2)
    frame_step = as_tensor(frame_step, _dt.int32)
    if frame_step.shape.rank is not None and frame_step.shape.rank != 0:
        raise ValueError(f"Shape {frame_step.shape} must have rank 0")
    if not frame_step.dtype.is_integer:
        raise ValueError(f"frame_step must be an integer. Got {frame_step.dtype!s}")
    rank = signal.shape.rank
    step = _known(frame_step)
    step = step if step is not None else frame_step
    dims = [d if d is not None else _array.shape(signal)[i] for i, d in enumerate(signal.shape)]
    outer, frames, frame_length = dims[:-2], dims[-2], dims[-1]
    output_length = frame_length + step * (frames - 1)
    if isinstance(step, int) and step == signal.shape[-1]:  # frames that touch: one reshape
        return _array.reshape(signal, shape_arg(outer + [output_length]))
    # Each frame is cut into `segments` pieces of `step` samples; piece j of frame f lands at output
    # block f + j. Padding the frame axis by `segments` and reading the [frames + segments, segments]
    # grid in transposed order lines the pieces of each output block up along one axis to sum.
    segments = -_floordiv(-frame_length, step)
    pairs = [[0, 0]] * (rank - 2) + [[0, segments], [0, segments * step - frame_length]]
    if not all(isinstance(v, int) for p in pairs for v in p):
        pairs = _joining.stack([shape_arg(p) for p in pairs])
    signal = _padding.pad(signal, pairs)
    signal = _array.reshape(signal, shape_arg(outer + [frames + segments, segments, step]))
    signal = _array.transpose(signal, list(range(rank - 2)) + [rank - 1, rank - 2, rank])
    signal = _array.reshape(signal, shape_arg(outer + [(frames + segments) * segments, step]))
    signal = signal[..., :(frames + segments - 1) * segments, :]
    signal = _array.reshape(signal, shape_arg(outer + [segments, frames + segments - 1, step]))
    signal = _reduce.reduce_sum(signal, -3)
    signal = _array.reshape(signal, shape_arg(outer + [(frames + segments - 1) * step]))
    return signal[..., :output_length]


