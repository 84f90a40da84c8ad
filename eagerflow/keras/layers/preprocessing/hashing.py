"""keras.layers.Hashing: each value to a bin in [0, num_bins) by a fixed string hash, as Keras 3.15 does.

Values that are not strings are first written as text (floats after truncation to int64, as Keras
casts them), then hashed: FarmHash Fingerprint64 (tf.strings.to_hash_bucket_fast), or with a
`salt` SipHash-2-4 keyed by it (to_hash_bucket_strong). With `mask_value`, that value gets bin 0
and the others hash into [1, num_bins). output_mode "one_hot" / "multi_hot" / "count" encodes the
bins as CategoryEncoding does (float32 unless a dtype is given).
"""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.strings.hashing import to_hash_bucket_fast, to_hash_bucket_strong
from ...._src.ops.strings.number_text import as_string
from ..base import Layer
from .category_encoding import encode_categorical

_OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count")


class Hashing(Layer):
    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
                             f"num_bins={num_bins}.")
        if output_mode == "int" and self._dtype.name not in ("int32", "int64"):
            raise ValueError(f"When `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' or 'in64'. "
                             f"Received: dtype={kwargs['dtype']}")
        if output_mode not in _OUTPUT_MODES:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {_OUTPUT_MODES}. "
                             f"Received: output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError(f"`sparse` may only be true if `output_mode` is `\"one_hot\"`, `\"multi_hot\"`, or "
                             f"`\"count\"`. Received: sparse={sparse} and output_mode={output_mode}")
        if sparse:
            raise NotImplementedError("Hashing(sparse=True) is not supported yet (no SparseTensor output).")
        self.num_bins, self.mask_value, self.output_mode, self.sparse = num_bins, mask_value, output_mode, sparse
        self.strong_hash = salt is not None
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = list(salt)
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError(f"The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a "
                                 f"single integer. Received: salt={salt}.")
        self.built = True

    def _bins(self, values):
        bins = self.num_bins
        mask = None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = _math.equal(values, self.mask_value)
        if values.dtype.is_floating:
            values = _math.cast(values, "int64")
        if values.dtype.name != "string":
            values = as_string(values)
        if self.strong_hash:
            values = to_hash_bucket_strong(values, bins, key=self.salt)
        else:
            values = to_hash_bucket_fast(values, bins)
        if mask is not None:
            values = _array.where(mask, _array.zeros_like(values), values + 1)
        return values

    def call(self, inputs):
        bins = self._bins(convert_to_tensor(inputs))
        if self.output_mode == "int":
            return bins if self._dtype.name == "int64" else _math.cast(bins, self._dtype)
        return encode_categorical(bins, self.output_mode, self.num_bins, self._dtype)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        if len(input_shape) == 0:
            return (self.num_bins,)
        return tuple(input_shape[:-1]) + (self.num_bins,)

    def get_config(self):
        return {**super().get_config(), "num_bins": self.num_bins, "salt": self.salt, "mask_value": self.mask_value,
                "output_mode": self.output_mode, "sparse": self.sparse}
