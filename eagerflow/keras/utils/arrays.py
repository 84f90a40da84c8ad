"""Keras' array helpers: `to_categorical`, `normalize`, `pad_sequences` (NumPy in, NumPy out)."""
from __future__ import annotations

import numpy as np


def to_categorical(x, num_classes=None):
    """One-hot rows for integer class labels (`keras.utils.to_categorical`), float64 as Keras 3 returns
    them for NumPy input; a trailing axis of size 1 is replaced by the classes."""
    x = np.asarray(x, dtype=np.int64)
    if x.ndim > 1 and x.shape[-1] == 1:
        x = x[..., 0]
    n = int(x.max()) + 1 if num_classes is None else int(num_classes)
    return np.eye(n, dtype=np.float64)[x]


def normalize(x, axis=-1, order=2):
    """`x` divided by its `order`-norm along `axis` (a zero norm leaves the row as it is)."""
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """Sequences of different lengths as one [n, maxlen, ...] array: each cut to `maxlen` (dropping
    from the start with truncating="pre", the end with "post") and filled with `value` before
    ("pre") or after ("post") it."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape, has_sample_shape = [], (), False
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError as exc:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {x}") from exc
        if not has_sample_shape and len(x):
            sample_shape, has_sample_shape = np.asarray(x).shape[1:], True
    if maxlen is None:
        maxlen = int(np.max(lengths))  # an empty list fails here, as in Keras
    is_dtype_str = np.issubdtype(np.dtype(dtype), np.str_)
    if isinstance(value, str) and dtype is not object and not is_dtype_str:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\nYou should set "
                         f"`dtype=object` for variable length strings.")
    out = np.full((len(sequences), maxlen) + tuple(sample_shape), value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq):
            continue
        if truncating == "pre":
            trunc = seq[-maxlen:]
        elif truncating == "post":
            trunc = seq[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {trunc.shape[1:]} of sequence at position {i} is different from "
                             f"expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(trunc)] = trunc
        elif padding == "pre":
            out[i, -len(trunc):] = trunc
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out
