"""`keras.preprocessing.sequence`: pad_sequences (the same function as keras.utils.pad_sequences) and the
legacy helpers older tutorials use: TimeseriesGenerator (batches of windows over a series, a PyDataset
that `fit` takes), skipgrams and make_sampling_table (word2vec training pairs). Keras 3.15 keeps them
for such programs; new code uses `keras.utils.timeseries_dataset_from_array` and tf.data."""
from __future__ import annotations

import json
import random

import numpy as np

from ..utils.arrays import pad_sequences  # noqa: F401
from ..utils.py_dataset import PyDataset


class TimeseriesGenerator(PyDataset):
    """Batches of (windows, targets): the window ending before row r is `data[r - length:r:sampling_rate]`
    and its target `targets[r]`, for r from `start_index + length` to `end_index` (default: the last
    row) every `stride` rows, `batch_size` windows a batch (or `batch_size` rows drawn at random with
    `shuffle`); `reverse` gives each window latest row first."""

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0, end_index=None,
                 shuffle=False, reverse=False, batch_size=128, **kwargs):
        super().__init__(**kwargs)
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is {len(data)} while "
                             f"target length is {len(targets)}")
        self.data, self.targets = data, targets
        self.length, self.sampling_rate, self.stride = length, sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index={self.end_index}` is disallowed, "
                             f"as no part of the sequence would be left to be used as current step.")

    def __len__(self):
        span = self.batch_size * self.stride
        return (self.end_index - self.start_index + span) // span

    def __getitem__(self, index):
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            first = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(first, min(first + self.batch_size * self.stride, self.end_index + 1), self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate] for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        if self.reverse:
            return samples[:, ::-1, ...], targets
        return samples, targets

    def get_config(self):
        """The generator's settings, the data and targets as lists (JSON-able)."""
        def listed(values):
            return values.tolist() if isinstance(values, np.ndarray) else values
        return {"data": listed(self.data), "targets": listed(self.targets), "length": self.length,
                "sampling_rate": self.sampling_rate, "stride": self.stride, "start_index": self.start_index - self.length,
                "end_index": self.end_index, "shuffle": self.shuffle, "reverse": self.reverse,
                "batch_size": self.batch_size}

    def to_json(self, **kwargs):
        return json.dumps({"class_name": self.__class__.__name__, "config": self.get_config()}, **kwargs)


def make_sampling_table(size, sampling_factor=1e-5):
    """For word ranks 0..size-1 (rank 0 read as 1), the probability of keeping a word when sampling
    skipgram pairs: min(1, sqrt(f)) with f = sampling_factor * rank * (log(rank) + gamma) + ..., Zipf's
    estimate of 1 / frequency, so frequent words are kept less often."""
    gamma = 0.577
    rank = np.arange(size)
    rank[0] = 1
    inverse_frequency = rank * (np.log(rank) + gamma) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inverse_frequency
    return np.minimum(1.0, f / np.sqrt(f))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True, categorical=False,
              sampling_table=None, seed=None):
    """([word, context] pairs, labels): every pair of non-zero words at most `window_size` apart is a
    positive (label 1, or [0, 1] with `categorical`); `negative_samples` times as many pairs of a word
    and a random index in [1, vocabulary_size) are negatives (0, or [1, 0]). `sampling_table[word]` is
    the chance a word is used at all. `shuffle` mixes pairs and labels alike (`seed` makes it repeatable)."""
    rng = random.Random(seed) if seed is not None else random
    couples, labels = [], []
    for i, word in enumerate(sequence):
        if not word:
            continue
        if sampling_table is not None and sampling_table[word] < rng.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([word, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        words = [pair[0] for pair in couples]
        rng.shuffle(words)
        if words:
            couples += [[words[i % len(words)], rng.randint(1, vocabulary_size - 1)] for i in range(count)]
            labels += [[1, 0] if categorical else 0] * count
    if shuffle:
        order = list(range(len(couples)))
        rng.shuffle(order)
        couples = [couples[i] for i in order]
        labels = [labels[i] for i in order]
    return couples, labels
