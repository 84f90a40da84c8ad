"""`tf.sequence_mask`, `tf.roll` and `tf.reverse_sequence`: compositions of existing ops (range,
comparison, gather), as TensorFlow's own sequence_mask is; roll and reverse_sequence are single
ops there, here a gather at computed indices, so their gradients, graphs and jit lowerings are
gather's. Shifts, axes and lengths may be tensors known only when running.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ..operands import as_tensor
from ..registry import static_value


def sequence_mask(lengths, maxlen=None, dtype=_dt.bool_, name=None):
    """`tf.sequence_mask`: mask[..., j] = j < lengths[...]; `maxlen` defaults to max(lengths)."""
    from .basic import expand_dims
    from ..math.elementwise import cast, less, maximum
    from ..math.reduce import reduce_max
    from .sequences import range as range_
    lengths = as_tensor(lengths)
    if maxlen is None:
        maxlen = maximum(as_tensor(np.zeros((), lengths.dtype.np_dtype)), reduce_max(lengths))
    else:
        maxlen = as_tensor(maxlen)
    if maxlen.shape.rank is not None and maxlen.shape.rank != 0:
        raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = {maxlen} "
                         f"with shape '{maxlen.shape}' instead")
    row = range_(as_tensor(np.zeros((), maxlen.dtype.np_dtype)), maxlen, as_tensor(np.ones((), maxlen.dtype.np_dtype)))
    column = expand_dims(lengths, -1) if lengths.dtype == maxlen.dtype else cast(expand_dims(lengths, -1), maxlen.dtype)
    mask = less(row, column)
    dtype = _dt.as_dtype(dtype)
    return mask if dtype.is_bool else cast(mask, dtype)


def _axis_list(value, what):
    known = static_value(value) if hasattr(value, "dtype") else value
    if known is None:
        raise InvalidArgumentError(None, None, f"roll: `{what}` must be known when tracing")
    return [int(a) for a in np.ravel(np.asarray(known))], np.ndim(known)


def roll(input, shift, axis, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.roll`: elements shifted along each axis, wrapping around; several shifts of one axis add
    up. The result gathers the input at (i - shift) mod n."""
    from .basic import shape
    from ..math.elementwise import floormod, subtract
    from .sequences import range as range_
    from .slicing import gather
    x = as_tensor(input)
    axes, axes_rank = _axis_list(axis, "axis")
    shifts = static_value(shift) if hasattr(shift, "dtype") else np.asarray(shift)
    shift_t = as_tensor(shift) if shifts is None else None
    n_shifts = np.size(shifts) if shifts is not None else shift_t.shape.num_elements()
    if max(axes_rank, np.ndim(shifts) if shifts is not None else shift_t.shape.rank or 0) > 1:
        raise InvalidArgumentError(None, None, "shift must be a scalar or a 1-D vector. Found: "
                                   f"{'[' + ','.join(map(str, np.shape(shifts))) + ']'} [Op:Roll]")
    if n_shifts != len(axes):
        if state.graph is not None and axes_rank == 1 and n_shifts is not None:  # Roll's shape function
            raise ValueError(f"Dimension 0 in both shapes must be equal, but are {n_shifts} and {len(axes)}. "
                             f"Shapes are [{n_shifts}] and [{len(axes)}].")
        raise InvalidArgumentError(None, None, "shift and axis must have the same size [Op:Roll]")
    rank = x.shape.rank
    total = {}
    for i, a in enumerate(axes):
        if rank is not None and not -rank <= a < rank:
            raise InvalidArgumentError(None, None, f"axis {a} is out of range [Op:Roll]")
        a = a % rank if rank is not None else a
        step = int(np.ravel(shifts)[i]) if shifts is not None else (shift_t if shift_t.shape.rank == 0 else shift_t[i])
        total[a] = step if a not in total else total[a] + step
    for a, step in total.items():
        n = x.shape[a] if rank is not None else None
        if n is not None and not hasattr(step, "dtype"):
            index = as_tensor(((np.arange(n) - step) % n if n else np.arange(0)).astype(np.int32))
        else:
            size = shape(x)[a] if n is None else as_tensor(np.int32(n))
            step = as_tensor(step, _dt.int32) if not hasattr(step, "dtype") else step
            if step.dtype != size.dtype:
                from ..math.elementwise import cast
                step = cast(step, size.dtype)
            index = floormod(subtract(range_(size), step), size)
        x = gather(x, index, axis=a)
    return x


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """`tf.reverse_sequence`: in each batch entry b, the first seq_lengths[b] elements along
    `seq_axis` reversed and the rest left in place: a gather at j -> len-1-j (j < len) else j."""
    from .basic import expand_dims, shape, where as select
    from ..math.elementwise import cast, less, subtract
    from .sequences import range as range_
    from .slicing import gather_nd
    from .joining import stack
    from .basic import transpose
    x = as_tensor(input)
    lengths = as_tensor(seq_lengths)
    batch_axis = 0 if batch_axis is None else batch_axis
    if seq_axis is None:
        raise TypeError("reverse_sequence() missing required argument: 'seq_axis'")
    rank = x.shape.rank
    if rank is None:
        raise ValueError("reverse_sequence needs the input's rank when tracing")
    seq_axis, batch_axis = seq_axis % rank, batch_axis % rank
    if seq_axis == batch_axis:
        raise InvalidArgumentError(None, None, f"batch_dim == seq_dim == {seq_axis} [Op:ReverseSequence]")
    if lengths.shape.rank is not None and lengths.shape.rank != 1:
        raise InvalidArgumentError(None, None, f"seq_lens input must be 1-dim, not {lengths.shape.rank} "
                                   "[Op:ReverseSequence]")
    b, t = x.shape[batch_axis], x.shape[seq_axis]
    if b is not None and lengths.shape[0] is not None and lengths.shape[0] != b:
        raise InvalidArgumentError(None, None, f"Length of seq_lengths != input.dims({batch_axis}), ({lengths.shape[0]} "
                                   f"vs. {b}) [Op:ReverseSequence]")
    known = static_value(lengths)
    if known is not None and t is not None:
        for i, n in enumerate(np.ravel(known)):
            if n > t:
                raise InvalidArgumentError(None, None, f"seq_lens({i}) > input.dims({seq_axis}) [Op:ReverseSequence]")
    order = [batch_axis, seq_axis] + [a for a in range(rank) if a not in (batch_axis, seq_axis)]
    moved = transpose(x, order)
    positions = expand_dims(range_(shape(moved)[1]), 0)
    lens = expand_dims(cast(lengths, _dt.int32), 1)
    index = select(less(positions, lens), subtract(subtract(lens, 1), positions), positions + 0 * lens)
    rows = expand_dims(range_(shape(moved)[0]), 1) + 0 * index
    out = gather_nd(moved, stack([rows, index], axis=-1))  # gather_nd: its gradient scatters back
    return transpose(out, list(np.argsort(order)))
