"""keras.layers.StringLookup: strings to int64 indices of a vocabulary (or back, invert=True); the
index layout, adapt and the lookup itself are IndexLookup's (index_lookup.py)."""
from __future__ import annotations

from .index_lookup import IndexLookup


class StringLookup(IndexLookup):
    """Strings -> int64 indices of a vocabulary (see the module docstring)."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", pad_to_max_tokens=False, sparse=False,
                 encoding="utf-8", name=None, **kwargs):
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         **kwargs)
