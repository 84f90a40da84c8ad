"""VocabularyLookup: each value of `x` replaced by the value its key maps to, or `default` when the key is
not in the table. The table is two 1-D tensors, `keys` sorted ascending and `values` in the same order,
so one op serves Keras' StringLookup / IntegerLookup (token -> index) and their inverse (index -> token).

It plays the part of TensorFlow's LookupTableFindV2 on a static hash table, without a resource handle:
the table travels as ordinary (constant) inputs, so it runs eagerly, is captured by tf.function like
any tensor, and the generated code calls the same kernel. The kernel is a binary search (searchsorted)
over the sorted keys, O(n log V); for strings, when the batch is at least as large as the table, one
dict built from the table and probed per string is faster (Python comparisons make the search slow).
No gradient (keys and ids are discrete).
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop


def _utf8(x):
    """String tensors hold bytes; an array of Python str (a NumPy unicode array fed to a model) is encoded."""
    if x.dtype.kind == "U" or (x.dtype == object and x.size and isinstance(x.reshape(-1)[0], str)):
        return np.array([s.encode("utf-8") if isinstance(s, str) else s for s in x.reshape(-1).tolist()],
                        dtype=object).reshape(x.shape)
    return x


def _lookup_kernel(keys, values, x, default):
    x = np.asarray(x)
    if keys.dtype == object:
        x = _utf8(x)
        if x.size >= keys.size:  # many strings: one dict probe each beats a Python-compare binary search
            table = dict(zip(keys.tolist(), values.tolist()))
            fallback = default.item() if isinstance(default, np.ndarray) else default
            out = np.empty(x.shape, dtype=values.dtype)
            out.reshape(-1)[:] = [table.get(s, fallback) for s in x.reshape(-1).tolist()]
            return out
    if keys.size == 0:
        return np.full(x.shape, default, dtype=values.dtype)
    pos = np.minimum(np.searchsorted(keys, x), keys.size - 1)
    found = keys[pos] == x
    return np.where(found, values[pos], np.asarray(default, dtype=values.dtype)).astype(values.dtype, copy=False)


def _lookup_infer(inputs, attrs):
    keys, values, x, default = inputs
    if keys.dtype is not x.dtype:
        raise InvalidArgumentError(None, None, f"Expected keys of type {keys.dtype.name} for the lookup, got "
                                   f"{x.dtype.name}")
    if values.dtype is not default.dtype:
        raise InvalidArgumentError(None, None, f"Expected a default value of type {values.dtype.name}, got "
                                   f"{default.dtype.name}")
    return [Spec(x.shape, values.dtype)]


VocabularyLookup = defop(
    "VocabularyLookup", inputs=("keys", "values", "x", "default"), kernel=_lookup_kernel, infer=_lookup_infer,
    grad=NO_GRADIENT, doc="values[i] where keys[i] == x (keys sorted ascending), else default.")


def vocabulary_lookup(keys, values, x, default):
    """Looks up every element of `x` among the ascending `keys`; see the module docstring."""
    return bind(VocabularyLookup, [as_tensor(keys), as_tensor(values), as_tensor(x), as_tensor(default)])
