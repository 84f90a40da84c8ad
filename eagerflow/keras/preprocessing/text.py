"""`keras.preprocessing.text`: the legacy word-index Tokenizer that older tutorials build their
vocabularies with (`Tokenizer(num_words, oov_token).fit_on_texts(...)`, then `texts_to_sequences` and
`pad_sequences`), and its helpers. Keras 3.15 keeps them for such programs; new code uses the
`TextVectorization` layer, which runs inside a model.

Everything here is plain Python on lists and dicts, as in Keras: a word's index is its rank by count
over the fitted texts (ties in order of first appearance), counting from 1, with the out-of-vocabulary
token, when given, at 1 ahead of every word; `num_words` keeps only indices below it when texts are
turned into sequences or matrices, leaving the index itself whole.
"""
from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict, defaultdict

import numpy as np

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'
_MODES = ("binary", "count", "tfidf", "freq")


def text_to_word_sequence(input_text, filters=FILTERS, lower=True, split=" "):
    """The words of `input_text`: lowercased if asked, every character of `filters` read as `split`,
    split there, empty pieces dropped."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in input_text.split(split) if word]


def hashing_trick(text, n, hash_function=None, filters=FILTERS, lower=True, split=" ", analyzer=None):
    """Each word of `text` hashed to an index in [1, n - 1] (0 is left for padding). `hash_function`:
    None for Python's `hash` (which differs between processes unless PYTHONHASHSEED is set), "md5" for
    a stable one, or any callable of a string."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        def hash_function(word):
            return int(hashlib.md5(word.encode()).hexdigest(), 16)
    words = text_to_word_sequence(text, filters, lower, split) if analyzer is None else analyzer(text)
    return [hash_function(word) % (n - 1) + 1 for word in words]


def one_hot(input_text, n, filters=FILTERS, lower=True, split=" ", analyzer=None):
    """`hashing_trick` with Python's `hash`: despite its name, one index per word, not a one-hot array."""
    return hashing_trick(input_text, n, hash, filters, lower, split, analyzer)


class Tokenizer:
    """Builds a word index from texts (`fit_on_texts`) and turns texts into index sequences or
    [texts, num_words] matrices. See the module docstring for how indices are given."""

    def __init__(self, num_words=None, filters=FILTERS, lower=True, split=" ", char_level=False, oov_token=None,
                 analyzer=None, **kwargs):
        if "nb_words" in kwargs:  # the Keras 1 spelling, still accepted by Keras
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self.word_counts = OrderedDict()
        self.word_docs = defaultdict(int)
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words, self.document_count = num_words, document_count
        self.char_level, self.oov_token, self.analyzer = char_level, oov_token, analyzer
        self.index_docs = defaultdict(int)
        self.word_index, self.index_word = {}, {}

    def _words(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [piece.lower() for piece in text] if isinstance(text, list) else text.lower()
            return list(text)
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, self.filters, self.lower, self.split)

    def fit_on_texts(self, texts):
        """Counts the words of `texts` (strings, or lists of tokens) and rebuilds the word index."""
        for text in texts:
            self.document_count += 1
            words = self._words(text)
            for word in words:
                self.word_counts[word] = self.word_counts.get(word, 0) + 1
            for word in set(words):
                self.word_docs[word] += 1
        ranked = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)  # stable: ties keep order
        vocabulary = ([self.oov_token] if self.oov_token is not None else []) + [word for word, _ in ranked]
        self.word_index = {word: i for i, word in enumerate(vocabulary, start=1)}
        self.index_word = {i: word for word, i in self.word_index.items()}
        self.index_docs = defaultdict(int)
        for word, count in self.word_docs.items():
            self.index_docs[self.word_index[word]] = count

    def fit_on_sequences(self, sequences):
        """Counts, for `tfidf` matrices, the documents each index appears in."""
        self.document_count += len(sequences)
        for sequence in sequences:
            for i in set(sequence):
                self.index_docs[i] += 1

    def _kept(self, i):
        return not self.num_words or i < self.num_words

    def texts_to_sequences(self, texts):
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        """For each text, its words' indices: a word past `num_words` or unknown becomes the
        out-of-vocabulary token's index, or is dropped when there is no such token."""
        oov = self.word_index.get(self.oov_token) if self.oov_token is not None else None
        for text in texts:
            vector = []
            for word in self._words(text):
                i = self.word_index.get(word)
                if i is not None and self._kept(i):
                    vector.append(i)
                elif oov is not None:
                    vector.append(oov)
            yield vector

    def sequences_to_texts(self, sequences):
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        """The inverse of `texts_to_sequences_generator`, words joined by spaces."""
        oov = self.index_word.get(self.word_index.get(self.oov_token)) if self.oov_token is not None else None
        for sequence in sequences:
            words = []
            for i in sequence:
                word = self.index_word.get(i)
                if word is not None and self._kept(i):
                    words.append(word)
                elif oov is not None:
                    words.append(oov)
            yield " ".join(words)

    def texts_to_matrix(self, texts, mode="binary"):
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """[len(sequences), num_words] float64: per index, 1 (`binary`), its count (`count`), its share of
        the sequence (`freq`), or (1 + log count) * log(1 + documents / (1 + documents holding it)) (`tfidf`)."""
        if not self.num_words:
            if not self.word_index:
                raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
            num_words = len(self.word_index) + 1
        else:
            num_words = self.num_words
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        if mode not in _MODES:
            raise ValueError("Unknown vectorization mode:", mode)
        matrix = np.zeros((len(sequences), num_words))
        for row, sequence in enumerate(sequences):
            counts = defaultdict(int)
            for i in sequence:
                if i < num_words:
                    counts[i] += 1
            for i, count in counts.items():
                if mode == "count":
                    matrix[row, i] = count
                elif mode == "freq":
                    matrix[row, i] = count / len(sequence)
                elif mode == "binary":
                    matrix[row, i] = 1
                else:
                    idf = math.log(1 + self.document_count / (1 + self.index_docs.get(i, 0)))
                    matrix[row, i] = (1 + math.log(count)) * idf
        return matrix

    def get_config(self):
        """Settings and counts; the counts and indices as JSON strings, as Keras writes them."""
        return {
            "num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
            "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
            "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
            "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
            "word_index": json.dumps(self.word_index),
        }

    def to_json(self, **kwargs):
        """`{"class_name": "Tokenizer", "config": get_config()}` as a JSON string (`tokenizer_from_json` reads it)."""
        return json.dumps({"class_name": self.__class__.__name__, "config": self.get_config()}, **kwargs)


def tokenizer_from_json(json_string):
    """The Tokenizer that `Tokenizer.to_json` wrote."""
    config = dict(json.loads(json_string).get("config"))
    word_counts = json.loads(config.pop("word_counts"))
    word_docs = json.loads(config.pop("word_docs"))
    index_docs = {int(k): v for k, v in json.loads(config.pop("index_docs")).items()}
    index_word = {int(k): v for k, v in json.loads(config.pop("index_word")).items()}
    word_index = json.loads(config.pop("word_index"))
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = OrderedDict(word_counts)
    tokenizer.word_docs = defaultdict(int, word_docs)
    tokenizer.index_docs = defaultdict(int, index_docs)
    tokenizer.index_word, tokenizer.word_index = index_word, word_index
    return tokenizer
