"""StringNGrams (`tf.strings.ngrams`): the n-grams of each row of tokens, joined by a separator.

What TensorFlow does, restated: for every row, for each width in `ngram_widths` (in order), the row is
padded with `pad_width` copies of the left and right pad strings (pad_width -1: width - 1 copies;
never more than width - 1) and every window of `width` tokens becomes one string. With
`preserve_short_sequences`, a non-empty row too short for any n-gram gives one n-gram of the whole
(padded) row. The op works on a flat vector of tokens with row splits; `ngrams` regroups its output
as the input was shaped (a vector for a vector, rows for a matrix or a RaggedTensor). No gradient:
the values are strings.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..array.basic import reshape
from ..operands import as_tensor
from ..ragged.factories import from_row_splits
from ..registry import NO_GRADIENT, Spec, bind, defop


def _grams(tokens, width, pad_width, left, right, separator):
    """The n-grams of one row of `width` tokens, padding with at most width - 1 pad strings a side."""
    pad = min(width - 1 if pad_width < 0 else pad_width, width - 1)
    padded = [left] * pad + list(tokens) + [right] * pad
    return [separator.join(padded[i:i + width]) for i in range(max(0, len(padded) - width + 1))]


def _ngrams_kernel(data, data_splits, separator=b" ", ngram_widths=(), left_pad=b"", right_pad=b"",
                   pad_width=0, preserve_short_sequences=False):
    tokens = [t if isinstance(t, bytes) else str(t).encode("utf-8") for t in np.asarray(data, object).reshape(-1)]
    splits = [int(s) for s in data_splits]
    out, out_splits = [], [0]
    for start, end in zip(splits[:-1], splits[1:]):
        row = tokens[start:end]
        grams = [g for width in ngram_widths for g in _grams(row, width, pad_width, left_pad, right_pad, separator)]
        if not grams and preserve_short_sequences and row:
            grams = _grams(row, len(row) + 2 * max(pad_width, 0), pad_width, left_pad, right_pad, separator)
        out += grams
        out_splits.append(len(out))
    values = np.empty(len(out), dtype=object)
    values[:] = out
    return values, np.array(out_splits, np.int64)


def _ngrams_infer(inputs, attrs):
    R.check_input_dtype("StringNGrams", inputs, 0, _dt.string)
    splits = inputs[1].shape
    return [Spec(TensorShape([None]), _dt.string), Spec(splits if splits.rank == 1 else TensorShape([None]),
                                                        _dt.int64)]


StringNGrams = defop("StringNGrams", inputs=("data", "data_splits"), multi_output=True, kernel=_ngrams_kernel,
                     infer=_ngrams_infer, grad=NO_GRADIENT,
                     doc="The n-grams of each row of a flat vector of tokens (rows given by splits).")


def _pads(pad_values, padding_width):
    """(left pad, right pad, pad width) attributes from ngrams' arguments, refused as TensorFlow does."""
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")
    if padding_width is not None and padding_width <= 0:
        raise ValueError("padding_width must be greater than 0.")
    if pad_values is None:
        return b"", b"", 0
    if isinstance(pad_values, (str, bytes)):
        left = right = pad_values
    elif isinstance(pad_values, (list, tuple)):
        left, right = pad_values[0], pad_values[1]
    else:
        raise TypeError("pad_values must be a string, tuple or list.")
    as_bytes = lambda v: v if isinstance(v, bytes) else str(v).encode("utf-8")  # noqa: E731
    return as_bytes(left), as_bytes(right), -1 if padding_width is None else int(padding_width)


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None, preserve_short_sequences=False,
           name=None):
    """`tf.strings.ngrams`: the n-grams of the innermost rows of `data` (a vector, a matrix or a
    RaggedTensor of strings), shaped as the rows were."""
    from ...composite.ragged_tensor import RaggedTensor
    widths = [int(ngram_width)] if np.ndim(ngram_width) == 0 else [int(w) for w in ngram_width]
    if any(w <= 0 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    left, right, pad_width = _pads(pad_values, padding_width)
    attrs = {"separator": separator.encode("utf-8") if isinstance(separator, str) else separator,
             "ngram_widths": tuple(widths), "left_pad": left, "right_pad": right, "pad_width": pad_width,
             "preserve_short_sequences": bool(preserve_short_sequences)}
    if isinstance(data, RaggedTensor):
        nested = data.nested_row_splits
        grams, splits = bind(StringNGrams, (data.flat_values, nested[-1]), attrs, name)
        return RaggedTensor.from_nested_row_splits(grams, list(nested[:-1]) + [splits], validate=False)
    if isinstance(data, Tensor) and data.dtype is not _dt.string:
        raise ValueError(f"data: Tensor conversion requested dtype string for Tensor with dtype {data.dtype.name}: "
                         f"{data!r}")
    tokens = as_tensor(data, _dt.string)
    dims = tokens.shape.as_list() if tokens.shape.rank is not None else None
    if dims is None:
        raise ValueError("Rank of data must be known for ngrams.")
    if not dims:
        raise ValueError("Data must have rank>0")
    if any(d is None for d in dims):
        raise ValueError(f"ngrams needs a dense input of known shape; got {tokens.shape}")
    rows, width = int(np.prod(dims[:-1], dtype=np.int64)), dims[-1]
    splits = as_tensor(np.arange(rows + 1, dtype=np.int64) * width)
    grams, gram_splits = bind(StringNGrams, (reshape(tokens, [-1]), splits), attrs, name)
    if len(dims) == 1:
        return grams
    # every row has as many tokens, so as many n-grams: a dense result
    return reshape(from_row_splits(grams, gram_splits, validate=False).to_tensor(), dims[:-1] + [-1])
