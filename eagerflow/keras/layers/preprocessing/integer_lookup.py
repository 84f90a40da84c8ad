"""keras.layers.IntegerLookup: integers to int64 indices of a vocabulary (or back, invert=True); the
index layout, adapt and the lookup itself are IndexLookup's (index_lookup.py)."""
from __future__ import annotations

from .index_lookup import IndexLookup


class IntegerLookup(IndexLookup):
    """Integers -> int64 indices of a vocabulary (see the module docstring); the OOV token is -1."""
    _is_string = False

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1, vocabulary=None,
                 vocabulary_dtype="int64", idf_weights=None, invert=False, output_mode="int", sparse=False,
                 pad_to_max_tokens=False, name=None, **kwargs):
        if vocabulary_dtype != "int64":
            raise ValueError(f"Only `vocabulary_dtype='int64'` is supported at this time. Received: "
                             f"vocabulary_dtype={vocabulary_dtype}")
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         **kwargs)

    def _max_tokens_message(self, max_tokens):
        return (f"If `max_tokens` is set for `IntegerLookup`, it must be greater than 1. Received: "
                f"max_tokens={max_tokens}")

    def _dtype_config(self):
        return {"vocabulary_dtype": "int64"}

    def _encoding_config(self):
        return {}
