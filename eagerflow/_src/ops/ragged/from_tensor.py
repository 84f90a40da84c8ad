"""`tf.RaggedTensor.from_tensor`: a dense tensor's rows as ragged rows, cut by `lengths` or by trailing
`padding`, or whole (then the ragged dimension is uniform and stays known in the static shape, as
TensorFlow keeps it). Made of ordinary ops, so it traces (Keras' audio datasets map it over files)."""
from __future__ import annotations

from ...core import dtypes as _dt
from ..array import basic as _array
from ..array.joining import concat
from ..array.sequences import range as _range
from ..array.slicing import boolean_mask
from ..math import elementwise as _math
from ..math.reduce import reduce_any, reduce_max
from ..operands import as_tensor
from .factories import from_row_lengths
from .uniform import from_uniform_row_length


def from_tensor(tensor, lengths=None, padding=None, ragged_rank=1, row_splits_dtype=_dt.int64):
    tensor = as_tensor(tensor)
    rank = tensor.shape.rank
    if rank is not None and rank < 2:
        raise ValueError("The rank of a RaggedTensor must be greater than 1, i.e., a list of scalars won't have "
                         f"ragged dimensions. Received argument `tensor` with rank {rank}.")
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if ragged_rank != 1:
        raise NotImplementedError("RaggedTensor.from_tensor with ragged_rank other than 1 is not supported yet")
    row_splits_dtype = _dt.as_dtype(row_splits_dtype)
    dims = _array.shape(tensor, out_type=row_splits_dtype)
    rows, width = dims[0], dims[1]
    if lengths is None and padding is None:
        values = _array.reshape(tensor, _flat_rows_shape(tensor))
        static_rows = tensor.shape.as_list()[0] if rank is not None else None
        if static_rows is not None:  # the number of rows stays in the static shape, as in TensorFlow
            from ..array.basic import constant
            rows = constant(static_rows, row_splits_dtype)
        return from_uniform_row_length(values, width, rows, validate=False)
    positions = _range(width, dtype=row_splits_dtype)
    if lengths is not None:
        lengths = _math.cast(as_tensor(lengths), row_splits_dtype)
    else:
        kept = _math.not_equal(tensor, _math.cast(as_tensor(padding), tensor.dtype))
        if rank is None:
            raise ValueError("RaggedTensor.from_tensor(padding=...) needs the rank of `tensor` to be known")
        if rank > 2:  # a row's element is padding when all of it equals `padding`
            kept = reduce_any(kept, axis=list(range(2, rank)))
        last = _math.multiply(_math.cast(kept, row_splits_dtype), positions + 1)
        lengths = reduce_max(last, axis=1)
    mask = _math.less(_array.expand_dims(positions, 0), _array.expand_dims(lengths, 1))
    return from_row_lengths(boolean_mask(tensor, mask), lengths, validate=False)


def _flat_rows_shape(tensor):
    known = tensor.shape.as_list()[2:] if tensor.shape.rank is not None else None
    if known is not None and None not in known:
        return [-1] + known
    return concat([as_tensor([-1]), _array.shape(tensor)[2:]], 0)
