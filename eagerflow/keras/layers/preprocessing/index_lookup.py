"""What keras.layers.StringLookup and IntegerLookup share: tokens to indices of a vocabulary (or back, invert=True),
as Keras 3.15 computes them.

Index layout (what get_vocabulary() lists): in "int" mode the mask token (if any) at 0, then
`num_oov_indices` OOV slots, then the tokens; in the other modes the mask token has no slot and masked
inputs are dropped. An unknown token goes to the one OOV slot, or with several slots to a slot picked by
a hash (FarmHash of a string, floormod of an integer), as Keras does. "one_hot" / "multi_hot" / "count"
return int64 like Keras' TensorFlow backend, "tf_idf" float32 (count times the token's idf weight; the
OOV slots weigh the mean of the token weights).

The table is a VocabularyLookup op (ops/lookup/vocabulary.py) over constant key / value tensors built
once per vocabulary, so the layer runs eagerly, in tf.function, in Dataset.map and inside a model.
`adapt` orders tokens by count, ties by the larger token first (Keras' order).

A RaggedTensor input keeps its rows in "int" mode; the other modes encode each row. An adapted
vocabulary is not part of the config (as in Keras): `.keras` saving writes it as asset files
(keras/saving/layer_assets.py), and the config's `vocabulary_size` stands in until they are read.
"""
from __future__ import annotations

import collections
import math
import os

import numpy as np

from ...._src.composite.ragged_tensor import RaggedTensor
from ...._src.core.context import executing_eagerly
from ...._src.core.convert import convert_to_tensor
from ...._src.core.errors import FailedPreconditionError
from ...._src.core.tensor import wrap_array
from ...._src.io.atomic import atomic_file
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.debugging.checks import Assert
from ...._src.ops.array.slicing import boolean_mask
from ...._src.ops.strings.hashing import to_hash_bucket_fast
from ...._src.ops.lookup.vocabulary import vocabulary_lookup
from ..base import Layer
from ..core.lambda_layer import in_safe_mode
from .category_encoding import encode_categorical

OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")
# Keras 3.15's refusal of a vocabulary path in a config loaded with safe_mode=True (its wording).
_VOCABULARY_FILE_REFUSED = (
    "Requested the loading of a vocabulary file outside of the model archive. This carries a potential risk of "
    "loading arbitrary and sensitive files and thus it is disallowed by default. If you trust the source of the "
    "artifact, you can override this error by passing `safe_mode=False` to the loading function, or calling "
    "`keras.config.enable_unsafe_deserialization(). ")
_OOV = -2  # the lookup's default while OOV slots are still to be chosen (-1 is a dropped mask token)


class IndexLookup(Layer):
    """What StringLookup and IntegerLookup share; `_is_string` picks the token type."""
    _is_string = True

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", sparse=False, pad_to_max_tokens=False,
                 **kwargs):
        # the saved size stands in until the vocabulary itself is loaded (a model is rebuilt from its config
        # before its assets are read, and an encoding's width depends on it)
        self._saved_vocabulary_size = kwargs.pop("vocabulary_size", None)
        # Keras 3.15: an encoding's width is fixed by the first vocabulary (given, set or adapted; or the
        # config's size) unless padded to max_tokens; and a layer given a vocabulary cannot adapt
        self._frozen_vocab_size = self._saved_vocabulary_size
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        for key in ("oov_method", "salt", "encoding"):  # written by get_config; derived here
            kwargs.pop(key, None)
        super().__init__(**kwargs)
        cls = type(self).__name__
        if output_mode not in OUTPUT_MODES:
            raise ValueError(f"Unknown value for `output_mode` argument of {cls}. Allowed values are: "
                             f"{OUTPUT_MODES}. Received: output_mode={output_mode}")
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(self._max_tokens_message(max_tokens))
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"If pad_to_max_tokens is True, must set `max_tokens`. Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be greater than or equal to 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        if invert and output_mode != "int":
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: output_mode={output_mode}")
        if output_mode == "tf_idf" and vocabulary is not None and idf_weights is None:
            raise ValueError("When specifying the `vocabulary` argument, in TF-IDF output mode, the `idf_weights` "
                             "argument must also be provided.")
        if sparse:
            raise NotImplementedError(f"{cls}(sparse=True) is not supported yet (no SparseTensor output).")
        self.max_tokens, self.num_oov_indices = max_tokens, num_oov_indices
        self.mask_token, self.oov_token, self.invert = mask_token, oov_token, invert
        self.output_mode, self.sparse, self.pad_to_max_tokens = output_mode, sparse, pad_to_max_tokens
        self.input_vocabulary = None if isinstance(vocabulary, str) else _plain_list(vocabulary)
        self._vocabulary_in_config = vocabulary is not None
        self.input_idf_weights = _plain_list(idf_weights)
        self._tokens = None  # the vocabulary without special tokens; None until set or adapted
        self.idf_weights = None
        self._tables = None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        self.built = True

    def _max_tokens_message(self, max_tokens):
        return f"If set, `max_tokens` must be greater than 1. Received: max_tokens={max_tokens}"

    # --- the index layout ---
    def _oov_start(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start(self):
        return self._oov_start() + self.num_oov_indices

    def _token(self, value):
        """One token as the layer stores it: str (bytes decoded as UTF-8) or int."""
        if self._is_string:
            return value.decode("utf-8") if isinstance(value, bytes) else str(value)
        return int(value)

    def get_vocabulary(self, include_special_tokens=True):
        tokens = list(self._tokens or [])
        if not include_special_tokens:
            return tokens
        specials = [self.mask_token] if self._oov_start() else []
        return specials + [self.oov_token] * self.num_oov_indices + tokens

    def vocabulary_size(self):
        if self._tokens is None and self._saved_vocabulary_size is not None:
            return self._saved_vocabulary_size
        return self._token_start() + len(self._tokens or [])

    # --- setting the vocabulary ---
    def set_vocabulary(self, vocabulary, idf_weights=None):
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        elif idf_weights is not None:
            raise ValueError(f"`idf_weights` should only be set if output_mode is `'tf_idf'`. Received: "
                             f"output_mode={self.output_mode} and idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            if in_safe_mode():  # a loaded config naming a file: read only with safe_mode=False
                raise ValueError(_VOCABULARY_FILE_REFUSED + f"Vocabulary file: '{vocabulary}'")
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = [line.rstrip("\r\n") for line in f]
        tokens = [self._token(t) for t in _plain_list(vocabulary)]
        repeated = sorted({t for t in tokens if tokens.count(t) > 1}, key=tokens.index)
        if repeated:
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please uniquify your dataset. "
                             f"The repeated terms are: {repeated}")
        specials = ([self.mask_token] if self.mask_token is not None else []) + [self.oov_token] * self.num_oov_indices
        if specials and tokens[:len(specials)] == specials:
            tokens = tokens[len(specials):]
        if self.mask_token is not None and self.mask_token in tokens:
            where = [i for i, t in enumerate(tokens) if t == self.mask_token]
            raise ValueError(f"Found reserved mask token at unexpected location in `vocabulary`. Note that passed "
                             f"`vocabulary` does not need to include the OOV and mask tokens. Either remove all mask "
                             f"and OOV tokens, or include them only at the start of the vocabulary in precisely this "
                             f"order: {specials}. Received: mask_token={self.mask_token} at vocabulary index {where}")
        size = self._token_start() + len(tokens)
        if self.max_tokens is not None and size > self.max_tokens:
            raise ValueError(f"Attempted to set a vocabulary larger than the maximum vocab size. Received vocabulary "
                             f"size is {size}; `max_tokens` is {self.max_tokens}.")
        weights = None
        if idf_weights is not None:
            weights = np.asarray(_plain_list(idf_weights), np.float32).reshape(-1)
            if weights.size != len(tokens):
                raise ValueError(f"`idf_weights` must be the same length as vocabulary. len(idf_weights) is "
                                 f"{weights.size}; len(vocabulary) is {len(tokens)}")
        self._check_vocabulary_size(size)
        self._set_tokens(tokens, weights)
        self._frozen_vocab_size = size

    def _fixes_vocabulary_size(self):
        return self.output_mode != "int" and not self.pad_to_max_tokens

    def _check_vocabulary_size(self, size):
        """Keras' refusal to change the width of an encoding once a vocabulary fixed it."""
        if self._fixes_vocabulary_size() and self._frozen_vocab_size is not None and size != self._frozen_vocab_size:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, the "
                               f"vocabulary size cannot be changed after the layer is called. Old vocab size is "
                               f"{self._frozen_vocab_size}, new vocab size is {size}")

    def _set_tokens(self, tokens, weights):
        self._tokens = tokens
        self._tables = None
        if weights is None:
            self.idf_weights = None
            return
        oov = [float(np.mean(weights))] * self.num_oov_indices if weights.size else [0.0] * self.num_oov_indices
        full = np.concatenate([np.asarray(oov, np.float32), weights])
        if self.pad_to_max_tokens:
            full = np.concatenate([full, np.zeros(self.max_tokens - full.size, np.float32)])
        self.idf_weights = wrap_array(full.astype(np.float32))

    # --- adapt ---
    def adapt(self, data, steps=None, batch_size=None):
        """Counts tokens over `data` (list, array, tensor or Dataset of batches) and keeps the most frequent
        (ties: the larger token first); in "tf_idf" mode also the number of documents (rows) per token."""
        self._adapt_documents(documents_of(batch) for batch in adapt_batches(data, steps))

    def _adapt_documents(self, batches):
        """Sets the vocabulary from an iterable of batches, each an iterable of documents (sequences of raw
        tokens)."""
        counts, doc_counts, num_docs = collections.Counter(), collections.Counter(), 0
        skip = {self.mask_token, self.oov_token}
        for batch in batches:
            if self._has_input_vocabulary:
                raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static vocabulary via "
                                 "`vocabulary` argument or `set_vocabulary()` method.")
            for doc in batch:
                toks = [t for t in (self._token(v) for v in doc) if t not in skip]
                counts.update(toks)
                doc_counts.update(set(toks))
                num_docs += 1
        ranked = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
        if self.max_tokens is not None:
            ranked = ranked[:max(self.max_tokens - self._token_start(), 0)]
        weights = None
        if self.output_mode == "tf_idf":
            weights = np.asarray([math.log(1 + num_docs / (1 + doc_counts[t])) for t in ranked], np.float32)
        self._check_vocabulary_size(self._token_start() + len(ranked))
        self._set_tokens(ranked, weights)
        self._frozen_vocab_size = self.vocabulary_size()

    # --- the vocabulary as files of a .keras archive (Keras' assets) ---
    def _asset_files(self):
        """{file name: bytes} that restore the adapted state: vocabulary.txt (one token a line, the special
        tokens first, as Keras writes it) and, in "tf_idf" mode, idf_weights.txt. Empty before adapt and when
        the config carries the vocabulary (a list or a file path), which then wins on load as in Keras."""
        if self._tokens is None or self._vocabulary_in_config:
            return {}
        tokens = self.get_vocabulary()  # the mask token first where the layer has one, as Keras writes it
        files = {"vocabulary.txt": "\n".join(str(t) for t in tokens).encode("utf-8")}
        if self.idf_weights is not None:
            weights = np.asarray(self.idf_weights.numpy(), np.float32)[self.num_oov_indices:]
            weights = weights[:len(self._tokens)]
            files["idf_weights.txt"] = "\n".join(repr(float(w)) for w in weights).encode("utf-8")
        return files

    def _load_asset_files(self, files):
        if "vocabulary.txt" not in files or self._vocabulary_in_config:
            return
        text = files["vocabulary.txt"].decode("utf-8")
        tokens = [self._token(t) for t in text.split("\n")] if text else []
        if self._oov_start() and tokens[:1] == [self.mask_token]:
            tokens = tokens[1:]
        tokens = tokens[self.num_oov_indices:] if tokens[:self.num_oov_indices] == [self.oov_token] * \
            self.num_oov_indices else tokens
        weights = None
        if "idf_weights.txt" in files:
            lines = files["idf_weights.txt"].decode("utf-8").split("\n")
            weights = np.asarray([float(w) for w in lines if w], np.float32)
        self._check_vocabulary_size(self._token_start() + len(tokens))
        self._set_tokens(tokens, weights)
        self._frozen_vocab_size = self.vocabulary_size()

    def save_assets(self, dir_path):
        """Writes the vocabulary files (see `_asset_files`) into the folder `dir_path`."""
        for name, data in self._asset_files().items():
            with atomic_file(os.path.join(os.fspath(dir_path), name)) as fh:
                fh.write(data)

    def load_assets(self, dir_path):
        files = {}
        for name in ("vocabulary.txt", "idf_weights.txt"):
            path = os.path.join(os.fspath(dir_path), name)
            if os.path.isfile(path):
                with open(path, "rb") as fh:
                    files[name] = fh.read()
        self._load_asset_files(files)

    def finalize_state(self):
        """Keras' hook after adapt: nothing left to do."""

    # --- calling ---
    def _lookup_tables(self):
        """(keys sorted, their ids) for tokens -> ids and (ids, tokens) for the inverse, built once per
        vocabulary as constant tensors."""
        if self._tables is None:
            np_type = object if self._is_string else np.int64
            enc = (lambda t: t.encode("utf-8")) if self._is_string else int
            keys = [enc(t) for t in self._tokens or []]
            ids = list(range(self._token_start(), self._token_start() + len(keys)))
            if self.mask_token is not None:
                keys.append(enc(self.mask_token))
                ids.append(0 if self.output_mode == "int" else -1)
            order = sorted(range(len(keys)), key=keys.__getitem__)
            forward = (np.array([keys[i] for i in order], dtype=np_type), np.array([ids[i] for i in order], np.int64))
            vocab = self.get_vocabulary()
            inverse = (np.arange(len(vocab), dtype=np.int64), np.array([enc(t) for t in vocab], dtype=np_type))
            self._tables = tuple(wrap_array(a) for a in forward + inverse)  # eager even when built while tracing
        return self._tables

    def call(self, inputs):
        if self._fixes_vocabulary_size() and self._frozen_vocab_size is None and executing_eagerly():
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, you must "
                               "set the layer's vocabulary before calling it. Either pass a `vocabulary` argument to "
                               "the layer, or call `adapt` with some sample data.")
        if self._tokens is None and executing_eagerly():
            raise FailedPreconditionError(None, None, "Table not initialized.")
        if isinstance(inputs, RaggedTensor):  # ids per token; the row structure kept ("int") or encoded per row
            ids = inputs.with_flat_values(self._lookup(inputs.flat_values))
            if self.output_mode == "int":
                return ids
            return self._encode(ids.to_tensor(default_value=-1))  # -1: one_hot's empty row, counted nowhere
        out = self._lookup(convert_to_tensor(inputs))
        return out if self.output_mode == "int" else self._encode(out)

    def _lookup(self, x):
        """Tokens -> ids (or ids -> tokens, invert=True). With no vocabulary yet (only while tracing, as a
        functional model is built before its vocabulary is loaded) every token is out of vocabulary."""
        keys, ids, inv_keys, inv_tokens = self._lookup_tables()
        if self.invert:
            x = _math.cast(x, "int64") if x.dtype.name != "int64" else x
            oov = self.oov_token.encode("utf-8") if self._is_string else int(self.oov_token)
            return vocabulary_lookup(inv_keys, inv_tokens, x, convert_to_tensor(oov, dtype=inv_tokens.dtype))
        if self._is_string:
            x = _math.cast(x, "string") if x.dtype.name != "string" else x
        elif x.dtype.name != "int64":
            x = _math.cast(x, "int64")
        default = self._oov_start() if self.num_oov_indices == 1 else _OOV
        out = vocabulary_lookup(keys, ids, x, convert_to_tensor(default, dtype="int64"))
        if self.num_oov_indices > 1:
            n = self.num_oov_indices
            slot = to_hash_bucket_fast(x, n) if self._is_string else _math.floormod(x, convert_to_tensor(n, "int64"))
            out = _array.where(_math.equal(out, _OOV), slot + self._oov_start(), out)
        elif self.num_oov_indices == 0:
            oov = _math.equal(out, _OOV)
            Assert(_math.logical_not(_reduce.reduce_any(oov)), [
                "When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values",
                boolean_mask(x, oov), "consider setting `num_oov_indices=1`."])
        return out

    def _encode(self, out):
        """Ids -> the "one_hot" / "multi_hot" / "count" / "tf_idf" vector of each sample."""
        depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
        if self.output_mode != "tf_idf":
            return encode_categorical(out, self.output_mode, depth, "int64")
        counts = encode_categorical(out, "count", depth, "float32")
        weights = self.idf_weights if self.idf_weights is not None else wrap_array(np.zeros(depth, np.float32))
        return counts * weights

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
        return (depth,) if len(input_shape) == 0 else tuple(input_shape[:-1]) + (depth,)

    def get_config(self):
        return {**super().get_config(), "invert": self.invert, "max_tokens": self.max_tokens,
                "num_oov_indices": self.num_oov_indices, "oov_token": self.oov_token,
                "mask_token": self.mask_token, "output_mode": self.output_mode, "sparse": self.sparse,
                "pad_to_max_tokens": self.pad_to_max_tokens, **self._dtype_config(),
                "idf_weights": self.input_idf_weights, "vocabulary": self.input_vocabulary,
                "vocabulary_size": None if self._tokens is None else self.vocabulary_size(),
                "oov_method": "floormod", "salt": None, **self._encoding_config()}

    def _dtype_config(self):
        return {}

    def _encoding_config(self):
        return {"encoding": "utf-8"}


def _plain_list(values):
    """A list of Python values from a list, array or tensor (None stays None)."""
    if values is None:
        return None
    if hasattr(values, "numpy"):
        values = values.numpy()
    if isinstance(values, np.ndarray):
        return [v.decode("utf-8") if isinstance(v, bytes) else v for v in values.tolist()]
    return [v.item() if isinstance(v, np.generic) else v for v in values]


def documents_of(batch):
    """The documents of one batch: the innermost rows of a RaggedTensor, the last-axis rows of a dense
    batch, each scalar of a 0-D or 1-D one."""
    if isinstance(batch, RaggedTensor):
        values, splits = batch.flat_values.numpy(), batch.nested_row_splits[-1].numpy()
        if values.ndim > 1:  # uniform inner axes below the ragged one: each innermost row flattened
            values = values.reshape(values.shape[0], -1)
            return [values[a:b].reshape(-1) for a, b in zip(splits[:-1], splits[1:])]
        return [values[a:b] for a, b in zip(splits[:-1], splits[1:])]
    arr = np.asarray(batch.numpy() if hasattr(batch, "numpy") else batch, dtype=object)
    return arr.reshape(-1, 1) if arr.ndim <= 1 else arr.reshape(-1, arr.shape[-1])


def adapt_batches(data, steps):
    """What `adapt` iterates: a Dataset's batches (its first `steps` when given), or the data as one batch."""
    from ...._src.data.dataset import Dataset
    if isinstance(data, Dataset):
        return data.take(steps) if steps is not None else data
    return [data]

