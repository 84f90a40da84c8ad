"""Checks on static properties: `tf.debugging.assert_rank` (and `_at_least`, `_in`), `assert_scalar`,
`assert_type`, `assert_integer` and `assert_shapes`.

TensorFlow makes these checks on the static shapes and dtypes, raising ValueError/TypeError when
the function is called (while tracing, inside a tf.function), so do we. Only a rank that is
unknown until run time becomes a run-time `Assert` op (ops/debugging/checks.py).
"""
from __future__ import annotations

import collections.abc as _abc

import numpy as np

from ...core import dtypes as _dt
from ...core.convert import convert_to_tensor, is_tensor_like
from ..array import basic as _array
from ..math import elementwise as _math
from .checks import Assert, message_prefix
from ..math.reduce import reduce_any
from ..registry import static_value

# ----------------------------------------------------------------------------------------------
# Static properties: rank, shape, dtype (checked now when known, else by an Assert at run time)
# ----------------------------------------------------------------------------------------------


def _tensor_name(x) -> str:
    """TensorFlow puts `x.name` in rank messages; eager tensors have none, so it is empty there."""
    try:
        return x.name
    except (AttributeError, ValueError):
        return ""


def _rank_value(rank):
    r = convert_to_tensor(rank)
    if r.shape.rank is not None and r.shape.rank != 0:
        raise ValueError("Rank must be a scalar.")
    if r.dtype is not _dt.int32:
        raise TypeError(f"tensor must be of type tf.int32; got tf.{r.dtype.name}")
    value = static_value(r)
    return r, (None if value is None else int(value))


def _rank_runtime_check(x, condition, requirement, message, name):
    data = [message_prefix(message) + f"Tensor {_tensor_name(x)} must have rank {requirement}.",
            "Received shape: ", _array.shape(x)]
    Assert(condition, data, name=name)


def assert_rank(x, rank, message=None, name=None):
    """`tf.debugging.assert_rank`: ValueError now when the rank is known, else a run-time Assert."""
    x = convert_to_tensor(x)
    r, want = _rank_value(rank)
    have = x.shape.rank
    if have is not None and want is not None:
        if have != want:
            raise ValueError(f"{message_prefix(message)}Tensor {_tensor_name(x)} must have rank {want}.  "
                             f"Received rank {have}, shape {x.shape}")
        return None
    _rank_runtime_check(x, _math.equal(_array.rank(x), r), want, message, name)
    return None


def assert_rank_at_least(x, rank, message=None, name=None):
    """`tf.debugging.assert_rank_at_least`."""
    x = convert_to_tensor(x)
    r, want = _rank_value(rank)
    have = x.shape.rank
    if have is not None and want is not None:
        if have < want:
            raise ValueError(f"{message_prefix(message)}Tensor {_tensor_name(x)} must have rank at least {want}.  "
                             f"Received rank {have}, shape {x.shape}")
        return None
    _rank_runtime_check(x, _math.greater_equal(_array.rank(x), r), f"at least {want}", message, name)
    return None


def assert_rank_in(x, ranks, message=None, name=None):
    """`tf.debugging.assert_rank_in`: the rank of x is one of `ranks`."""
    x = convert_to_tensor(x)
    wanted = tuple(_rank_value(r)[1] for r in ranks)
    have = x.shape.rank
    if have is not None and None not in wanted:
        if have not in wanted:
            raise ValueError(f"{message_prefix(message)}Tensor {_tensor_name(x)} must have rank in {wanted}.  "
                             f"Received rank {have}, shape {x.shape}")
        return None
    matches = _math.equal(_array.reshape(_array.rank(x), [1]), convert_to_tensor(list(wanted)))
    condition = reduce_any(matches)
    _rank_runtime_check(x, condition, f"in {wanted}", message, name)
    return None


def assert_scalar(tensor, message=None, name=None):
    """`tf.debugging.assert_scalar`: ValueError unless the (static) shape is ()."""
    tensor = convert_to_tensor(tensor)
    if tensor.shape.rank is None:
        raise ValueError(f"{message_prefix(message)}Expected scalar shape for {_tensor_name(tensor)}, "
                         f"saw unknown shape.")
    if tensor.shape.rank != 0:
        raise ValueError(f"{message_prefix(message)}Expected scalar shape, saw shape: {tensor.shape}.")
    return None


def assert_type(tensor, tf_type, message=None, name=None):
    """`tf.debugging.assert_type`: TypeError unless the tensor's dtype is `tf_type` (static)."""
    try:
        want = _dt.as_dtype(tf_type)
    except TypeError:
        raise TypeError(f"Cannot convert the argument `type_value`: {tf_type!r} to a TensorFlow DType.") from None
    have = tensor.dtype if is_tensor_like(tensor) else convert_to_tensor(tensor).dtype
    if have is not want:
        raise TypeError(f"{message_prefix(message)}tensor must be of type tf.{want.name}; got tf.{have.name}")
    return None


def assert_integer(x, message=None, name=None):
    """`tf.debugging.assert_integer`: TypeError unless x has an integer dtype (static)."""
    dtype = x.dtype if is_tensor_like(x) else convert_to_tensor(x).dtype
    if not dtype.is_integer:
        raise TypeError(f'{message_prefix(message)}Expected "x" to be integer type.  Found: tensor of dtype {dtype}')
    return None


# ----------------------------------------------------------------------------------------------
# assert_shapes: named and explicit sizes shared across tensors
# ----------------------------------------------------------------------------------------------


def _explicit_size(entry):
    """An int size, or None when the entry is a symbol (any other hashable)."""
    if isinstance(entry, (bool, np.bool_)):
        return None
    if isinstance(entry, (int, np.integer)):
        return int(entry)
    if isinstance(entry, str):
        try:
            return int(entry)
        except ValueError:
            return None
    return None


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """`tf.debugging.assert_shapes([(x, ('N', 'D')), (y, ('N',))])`.

    Entries: an int (or int-like string) is an exact size, None or '.' any size, anything else a
    symbol that must have one size across all tensors. A leading `...` or '*' lets any number of
    outer dimensions precede (indices are then reported from the end). Scalars and empty specs both
    mean "one dimension of size 1". Checked on static shapes; unknown dimensions are not checked.
    """
    pairs = shapes.items() if isinstance(shapes, _abc.Mapping) else shapes
    prefix = message_prefix(message)
    seen: dict = {}
    for x, spec in pairs:
        x = convert_to_tensor(x)
        spec = tuple(spec) if isinstance(spec, str) else tuple(spec)
        outer = bool(spec) and (spec[0] is Ellipsis or (isinstance(spec[0], str) and spec[0] == "*"))
        dims = spec[1:] if outer else spec
        if not dims:
            dims = (1,)
        shape = x.shape
        if shape.rank is None:
            continue
        name_ = _tensor_name(x)
        if outer:
            if max(shape.rank, 1) < len(dims):  # a scalar counts as one dimension of size 1
                raise ValueError(f"{prefix}Tensor {name_} must have rank at least {len(dims)}.  "
                                 f"Received rank {shape.rank}, shape {shape}")
        elif len(dims) == 1:
            if shape.rank not in (0, 1):
                raise ValueError(f"{prefix}Tensor {name_} must have rank in (0, 1).  "
                                 f"Received rank {shape.rank}, shape {shape}")
        elif shape.rank != len(dims):
            raise ValueError(f"{prefix}Tensor {name_} must have rank {len(dims)}.  "
                             f"Received rank {shape.rank}, shape {shape}")
        sizes = [1] if shape.rank == 0 else list(shape.as_list())
        described = f"shape={shape} dtype={x.dtype.name}"
        for i, entry in enumerate(dims):
            index = i - len(dims) if outer else i
            actual = sizes[index]
            if entry is None or (isinstance(entry, str) and entry == ".") or actual is None:
                continue
            size = _explicit_size(entry)
            if size is not None:
                origin = "Specified explicitly."
            elif entry in seen:
                size, origin = seen[entry]
            else:
                seen[entry] = (actual, f"Specified by tensor {described} dimension {index}.")
                continue
            if actual != size:
                raise ValueError(f"{prefix}{origin}  Tensor {described} dimension {index} must have size "
                                 f"{size}.  Received size {actual}, shape {shape}")
    return None
