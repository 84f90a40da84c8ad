"""Token ops behind keras.layers.TextVectorization: `unicode_split` (each string into its UTF-8 characters,
op UnicodeCharSplit) and `ngrams` (op StringNGrams, TensorFlow's name: the n-grams of each row of a ragged
batch of tokens). Both take and give ragged rows as (flat values, row_splits), so they trace like any op;
the public functions wrap the parts in a RaggedTensor. No gradients (strings). StringNGrams is
tf.strings.ngrams' op (ops/strings/ngrams.py); TextVectorization uses it without padding.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..ragged.factories import from_row_splits
from ..registry import NO_GRADIENT, Spec, bind, defop
from .ngrams import StringNGrams


def _as_bytes(s):
    return s if isinstance(s, bytes) else str(s).encode("utf-8")


def _objects(items):
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _char_split_kernel(input):
    values, splits = [], [0]
    for s in np.asarray(input, dtype=object).reshape(-1):
        values.extend(c.encode("utf-8") for c in _as_bytes(s).decode("utf-8", errors="replace"))
        splits.append(len(values))
    return _objects(values), np.array(splits, np.int64)


def _char_split_infer(inputs, attrs):
    if inputs[0].dtype is not _dt.string:
        raise TypeError(f"Input 'input' of 'UnicodeCharSplit' Op has type {inputs[0].dtype.name} that does not "
                        f"match expected type of string.")
    rows = inputs[0].shape.as_list()[0] if inputs[0].shape.rank == 1 else None
    return [Spec(TensorShape([None]), _dt.string), Spec(TensorShape([None if rows is None else rows + 1]), _dt.int64)]


UnicodeCharSplit = defop("UnicodeCharSplit", inputs=("input",), multi_output=True, kernel=_char_split_kernel,
                         infer=_char_split_infer, grad=NO_GRADIENT,
                         doc="The UTF-8 characters of each string of a vector, as ragged (values, row_splits).")


def unicode_split(input):
    """A vector of strings -> a RaggedTensor of their UTF-8 characters (`tf.strings.unicode_split(x, "UTF-8")`)."""
    values, splits = bind(UnicodeCharSplit, (as_tensor(input, _dt.string),))
    return from_row_splits(values, splits, validate=False)


def ngrams(tokens, widths, separator=" "):
    """A RaggedTensor of tokens (rows of strings) -> the RaggedTensor of its n-grams of each width in
    `widths`, each row's 1-grams first, then its 2-grams, ..."""
    values, splits = bind(StringNGrams, (tokens.flat_values, tokens.row_splits),
                          {"separator": _as_bytes(separator), "ngram_widths": tuple(int(w) for w in widths)})
    return from_row_splits(values, splits, validate=False)
