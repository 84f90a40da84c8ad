"""CategoryEncoding: one-hot, multi-hot or counts of integer ids (encode_categorical also serves the lookup and
hashing layers)."""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.array.sequences import one_hot
from ..base import Layer


class CategoryEncoding(Layer):
    """Integer ids in [0, num_tokens) -> a (..., num_tokens) float vector: "one_hot" per id, "multi_hot"
    1 where an id occurs in the sample's last axis, "count" how often it occurs."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("one_hot", "multi_hot", "count"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if sparse:
            raise NotImplementedError("CategoryEncoding(sparse=True) is not supported yet.")
        self.num_tokens, self.output_mode = num_tokens, output_mode

    def call(self, inputs, count_weights=None):
        if count_weights is not None:
            raise NotImplementedError("CategoryEncoding(count_weights=...) is not supported yet.")
        if not hasattr(inputs, "dtype"):  # a Python list or number of ids, which Keras converts too
            inputs = convert_to_tensor(inputs)
        return encode_categorical(inputs, self.output_mode, self.num_tokens, self._dtype)

    def get_config(self):
        return {**super().get_config(), "num_tokens": self.num_tokens, "output_mode": self.output_mode}


def encode_categorical(ids, output_mode, depth, dtype):
    """Integer ids -> Keras' (..., depth) encoding: "one_hot" per id (a trailing axis of 1 dropped first;
    a scalar id is a sample of one), "multi_hot" 1 where an id occurs in the last axis, "count" how often it
    occurs (a scalar id again a sample of one). Shared by CategoryEncoding and Hashing."""
    ids = _math.cast(ids, "int64") if ids.dtype.name != "int64" else ids
    rank = ids.shape.rank
    if output_mode == "one_hot":
        if rank == 0:  # a scalar id is a sample of one: (1, depth), as Keras encodes it
            ids = _array.reshape(ids, [1])
        elif rank and rank > 1 and ids.shape.as_list()[-1] == 1:
            ids = _array.squeeze(ids, [-1])
        return one_hot(ids, depth, dtype=dtype)
    hot = one_hot(ids if rank else _array.reshape(ids, [1]), depth, dtype=dtype)
    return _reduce.reduce_max(hot, -2) if output_mode == "multi_hot" else _reduce.reduce_sum(hot, -2)
