"""keras.layers.TextVectorization: strings -> standardized -> split into tokens -> n-grams -> vocabulary
indices (padded to the longest row, or to `output_sequence_length`) or a multi-hot / count / tf-idf vector
per string, as Keras 3.15 does it.

The steps are tensor ops (tf.strings.lower, regex_replace, split, the ops of ops/strings/tokens.py), so the
layer runs eagerly, in tf.function and in Dataset.map; a callable `standardize` or `split` gets the
tensor and returns a tensor (split: a RaggedTensor). The vocabulary is a StringLookup with mask token ""
(index 0, also the padding) and OOV token "[UNK]": rows are padded with "" before the lookup, so padding
reads 0 in "int" mode and counts nowhere in the others. `adapt` counts tokens over the same steps.
"""
from __future__ import annotations

from ...._src.composite.ragged_tensor import RaggedTensor
from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.array.padding import pad as _pad
from ...._src.ops.strings.elementwise import lower
from ...._src.ops.strings.regex import regex_replace
from ...._src.ops.strings.split import split as _split_whitespace
from ...._src.ops.strings.tokens import ngrams as _ngrams
from ...._src.ops.strings.tokens import unicode_split
from ..base import Layer
from .index_lookup import adapt_batches, documents_of
from .string_lookup import StringLookup

STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
SPLIT = ("whitespace", "character")
PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'  # Keras' strip set: ASCII punctuation only


class TextVectorization(Layer):
    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation", split="whitespace", ngrams=None,
                 output_mode="int", output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None, **kwargs):
        saved_size = kwargs.pop("vocabulary_size", None)  # stands in until the vocabulary asset is loaded
        super().__init__(name=name, **kwargs)
        if not (standardize is None or callable(standardize) or standardize in STANDARDIZE):
            raise ValueError(f"Unknown value for `standardize` argument of TextVectorization. Allowed values are: "
                             f"{STANDARDIZE}. Received: standardize={standardize}")
        if not (split is None or callable(split) or split in SPLIT):
            raise ValueError(f"Unknown value for `split` argument of TextVectorization. Allowed values are: {SPLIT}. "
                             f"Received: split={split}")
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError(f"`output_sequence_length` must not be set if `output_mode` is not 'int'. Received "
                             f"output_sequence_length={output_sequence_length}.")
        if isinstance(ngrams, int) and ngrams < 1 or isinstance(ngrams, (tuple, list)) and not ngrams:
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. Received: ngrams={ngrams}")
        if ragged and output_mode != "int":
            raise ValueError(f"`ragged` must not be true if `output_mode` is `'int'`. Received: ragged={ragged} and "
                             f"output_mode={output_mode}")
        self.max_tokens, self.standardize, self.split, self.ngrams = max_tokens, standardize, split, ngrams
        self.output_mode, self.output_sequence_length = output_mode, output_sequence_length
        self.pad_to_max_tokens, self.sparse, self.ragged, self.encoding = pad_to_max_tokens, sparse, ragged, encoding
        self._ngram_widths = (None if ngrams is None else tuple(range(1, ngrams + 1)) if isinstance(ngrams, int)
                              else tuple(ngrams))
        self._lookup_layer = StringLookup(max_tokens=max_tokens, mask_token="", oov_token="[UNK]",
                                          vocabulary=vocabulary, idf_weights=idf_weights, output_mode=output_mode,
                                          pad_to_max_tokens=pad_to_max_tokens, sparse=sparse,
                                          vocabulary_size=saved_size)
        self.built = True

    # --- the vocabulary, kept by the lookup layer ---
    def get_vocabulary(self, include_special_tokens=True):
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights)

    def _asset_files(self):
        return self._lookup_layer._asset_files()

    def _load_asset_files(self, files):
        self._lookup_layer._load_asset_files(files)

    def save_assets(self, dir_path):
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path):
        self._lookup_layer.load_assets(dir_path)

    @property
    def idf_weights(self):
        return self._lookup_layer.idf_weights

    # --- the steps before the lookup ---
    def _tokens(self, inputs):
        """Standardized, split, n-grammed tokens: a RaggedTensor of rows (a dense tensor with split=None),
        and whether the input was one scalar string."""
        if isinstance(inputs, RaggedTensor):  # rows of tokens already: standardized value by value
            if self.split is not None:
                raise ValueError(f"When using `TextVectorization` to tokenize strings, the input rank must be 1 or "
                                 f"the last shape dimension must be 1. Received: inputs.shape={inputs.shape} with "
                                 f"rank={inputs.shape.rank}")
            x = inputs.with_flat_values(self._standardized(inputs.flat_values))
        else:
            x = self._standardized(convert_to_tensor(inputs, dtype_hint="string"))
        scalar = False
        if self.split is not None:
            rank = x.shape.rank
            if rank is not None and rank > 1:
                if x.shape.as_list()[-1] != 1:
                    raise ValueError(f"When using `TextVectorization` to tokenize strings, the input rank must be 1 "
                                     f"or the last shape dimension must be 1. Received: inputs.shape={x.shape} with "
                                     f"rank={rank}")
                x = _array.squeeze(x, [-1])
            elif rank == 0:
                scalar = True
                x = _array.reshape(x, [1])
            if self.split == "whitespace":
                x = _split_whitespace(x)
            elif self.split == "character":
                x = unicode_split(x)
            else:
                x = self.split(x)
        if self._ngram_widths is not None:
            x = _ngrams(x, self._ngram_widths)
        return x, scalar

    def _standardized(self, x):
        if self.standardize in ("lower", "lower_and_strip_punctuation"):
            x = lower(x)
        if self.standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            x = regex_replace(x, PUNCTUATION, "")
        if callable(self.standardize):
            x = self.standardize(x)
        return x

    def adapt(self, data, batch_size=None, steps=None):
        """Sets the vocabulary from `data` (strings: a list, array, tensor or Dataset), one document per string."""
        batches = adapt_batches(data, steps)
        self._lookup_layer._adapt_documents(documents_of(self._tokens(batch)[0]) for batch in batches)

    def call(self, inputs):
        tokens, scalar = self._tokens(inputs)
        length = self.output_sequence_length
        if self.ragged and isinstance(tokens, RaggedTensor):  # rows kept ragged, cut (never padded) to `length`
            if length is not None:
                tokens = tokens[:, :length]
            return self._lookup_layer(tokens[0] if scalar else tokens)
        if isinstance(tokens, RaggedTensor):
            tokens = tokens.to_tensor(default_value="", shape=None if length is None else [None, length])
        elif length is not None:
            tokens = _fit_last_axis(tokens, length)
        out = self._lookup_layer(tokens)
        if scalar:
            out = out[0]
        return out

    def compute_output_shape(self, input_shape):
        if self.output_mode != "int":
            depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
            return (input_shape[0] if input_shape else None, depth)
        return (input_shape[0] if input_shape else None, self.output_sequence_length)

    def get_config(self):
        lookup = self._lookup_layer
        return {**super().get_config(), "max_tokens": self.max_tokens, "standardize": self.standardize,
                "split": self.split, "ngrams": self.ngrams, "output_mode": self.output_mode,
                "output_sequence_length": self.output_sequence_length, "pad_to_max_tokens": self.pad_to_max_tokens,
                "sparse": self.sparse, "ragged": self.ragged, "vocabulary": lookup.input_vocabulary,
                "idf_weights": lookup.input_idf_weights, "encoding": self.encoding,
                "vocabulary_size": None if lookup._tokens is None else lookup.vocabulary_size()}


def _fit_last_axis(tokens, length):
    """A dense token tensor cut or padded with "" to `length` entries on its last axis."""
    tokens = tokens[..., :length]
    short = length - tokens.shape.as_list()[-1] if tokens.shape.as_list()[-1] is not None else None
    if short is None:
        raise NotImplementedError("TextVectorization(split=None, output_sequence_length=...) needs a known last axis.")
    if short <= 0:
        return tokens
    paddings = [[0, 0]] * (tokens.shape.rank - 1) + [[0, short]]
    return _pad(tokens, paddings, constant_values="")
