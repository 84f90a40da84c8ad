"""`tf.data.experimental.make_csv_dataset`: batches of CSV rows as an OrderedDict of columns (and the
label column apart, with `label_name`).

TensorFlow builds it as files -> shuffle(files) -> interleave(CsvDataset, cycle num_parallel_reads,
block 1) -> shuffle(rows) -> repeat(num_epochs) -> batch (full batches only when num_epochs is None)
-> map(to OrderedDict) -> prefetch. This dataset gives the same batches in the same orders for a seed,
but works on whole columns: each pass parses every file in bulk (csv_parse.py), computes the row order
the interleave and the shuffle buffer hand rows out in (shuffle.py's `buffered_order`, with the seeds
each pass of TensorFlow's two shuffles takes), and cuts batches with NumPy gathers. A malformed record
raises once the batches TensorFlow would have handed out before reaching it are out.
"""
from __future__ import annotations

import collections
import itertools

import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape
from ..core.tensor import TensorSpec, make_eager
from ..ops.random.draws import get_seed
from .csv_dataset import CsvDataset
from .csv_inference import file_names, header_names, inferred_defaults, selected_indices, text_opener
from .dataset import AUTOTUNE, Dataset
from .file_sources import _interleaved
from .shuffle import PassSeeds, buffered_order
from .structure import INFINITE, UNKNOWN


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding="utf-8"):
    paths = file_names(file_pattern)
    opener = None
    if column_names is None or column_defaults is None:
        opener = text_opener(compression_type, encoding)
    elif compression_type not in (None, "", "GZIP", "ZLIB"):
        raise ValueError(f"Received unknown `compression_type` {compression_type}. Expected: GZIP, ZLIB or  "
                         "(empty string).")
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        column_names = header_names(paths, field_delim, use_quote_delim, opener)
    column_names = list(column_names)
    if len(column_names) != len(set(column_names)):
        ordered = sorted(column_names)
        repeats = {a for a, b in zip(ordered, ordered[1:]) if a == b}
        raise ValueError("Either `column_names` argument or CSV header row contains duplicate column names: "
                         f"{repeats}.")
    select = None if select_columns is None else selected_indices(select_columns, column_names)
    if column_defaults is None:
        column_defaults = inferred_defaults(paths, len(column_names), field_delim, use_quote_delim, na_value,
                                            header, num_rows_for_inference, select, opener)
    column_defaults = list(column_defaults)
    if select is not None and len(column_defaults) != len(select):
        raise ValueError("If specified, `column_defaults` and `select_columns` must have the same length: "
                         f"`column_defaults` has length {len(column_defaults)}, `select_columns` has length "
                         f"{len(select)}.")
    if select is not None and len(column_names) > len(select):
        column_names = [column_names[i] for i in select]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. Received: "
                         f"{label_name}.")
    rows = CsvDataset(paths, column_defaults, compression_type=compression_type, header=header,
                      field_delim=field_delim, use_quote_delim=use_quote_delim, na_value=na_value, select_cols=select)
    if ignore_errors:
        rows = rows.ignore_errors()
    cycle = 1 if num_parallel_reads is None else int(num_parallel_reads)
    batches = CsvBatchesDataset(rows, paths, column_names, label_name, int(batch_size), num_epochs, bool(shuffle),
                                int(shuffle_buffer_size), shuffle_seed, cycle)
    return batches.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


class CsvBatchesDataset(Dataset):
    """The batches of make_csv_dataset (see the module docstring); a stream."""
    _name = "_MapDataset"
    _indexable = False

    def __init__(self, rows, paths, column_names, label_name, batch_size, num_epochs, shuffle, buffer_size, seed,
                 cycle):
        self._rows, self._paths = rows, list(paths)
        self._names, self._label = list(column_names), label_name
        self._batch, self._epochs = batch_size, num_epochs
        # AUTOTUNE: TensorFlow 2.21 read the files one after the other (checked on a 2-core machine)
        self._buffer, self._cycle = buffer_size, 1 if cycle == AUTOTUNE else max(cycle, 1)
        self._file_seeds = self._row_seeds = None
        if shuffle:
            self._file_seeds = PassSeeds(*get_seed(seed), True)
            self._row_seeds = PassSeeds(*get_seed(seed), True)
        lead = batch_size if num_epochs is None else None
        specs = [TensorSpec(TensorShape([lead]), s.dtype) for s in rows.element_spec]
        self._spec = self._structure(specs)
        self._size = INFINITE if num_epochs is None else UNKNOWN

    def _structure(self, columns):
        features = collections.OrderedDict(zip(self._names, columns))
        if self._label is None:
            return features
        label = features.pop(self._label)
        return features, label

    def _pass(self, parsed):
        """One sweep of the rows: (columns of every file, the order rows come out in, the error met)."""
        paths = self._paths
        if self._file_seeds is not None:
            (pair,) = self._file_seeds.take(1)
            paths = [paths[i] for i in buffered_order(len(paths), len(paths), pair)]
        files = []
        for path in paths:
            if path not in parsed:
                parsed[path] = self._rows._read(path)
            files.append(parsed[path])
        offsets = np.cumsum([0] + [len(columns[0]) for columns, _ in files])
        if self._cycle > 1:
            order, error = _interleaved_order(files, offsets, self._cycle)
        else:  # file after file: the rows in place, up to the first bad record
            broken = [k for k, (_, error) in enumerate(files) if error is not None]
            stop = offsets[broken[0] + 1] if broken else offsets[-1]
            order, error = np.arange(stop), (files[broken[0]][1] if broken else None)
        order = np.asarray(order, np.int64)
        if self._row_seeds is not None:
            (pair,) = self._row_seeds.take(1)
            shuffled = order[buffered_order(len(order), self._buffer, pair)] if len(order) else order
            if error is not None:  # only what left the buffer before the read reached the bad record
                shuffled = shuffled[:max(0, len(order) - self._buffer + 1)]
            order = shuffled
        merged = [np.concatenate(parts) for parts in zip(*(columns for columns, _ in files))]
        return merged, order, error

    def _stream(self):
        dtypes = [s.dtype for s in self._rows.element_spec]
        parsed = {}
        held = None
        epochs = itertools.count() if self._epochs is None else range(int(self._epochs))
        for _ in epochs:
            merged, order, error = self._pass(parsed)
            if not len(order) and error is None:  # no rows at all: a repeat of nothing ends, as TensorFlow's
                break
            rows = [m[order] for m in merged]
            held = rows if held is None else [np.concatenate([h, r]) for h, r in zip(held, rows)]
            start = 0
            while len(held[0]) - start >= self._batch:
                yield self._element(held, start, start + self._batch, dtypes)
                start += self._batch
            held = [h[start:] for h in held]
            if error is not None:
                raise error
        if held is not None and len(held[0]) and self._epochs is not None:
            yield self._element(held, 0, len(held[0]), dtypes)

    def _element(self, columns, start, stop, dtypes):
        tensors = [make_eager(np.ascontiguousarray(c[start:stop]) if t != _dt.string else c[start:stop].copy(), t)
                   for c, t in zip(columns, dtypes)]
        return self._structure(tensors)


def _interleaved_order(files, offsets, cycle):
    """The rows' positions in the order a deterministic interleave reads them, and the error met."""
    streams = [_positions(k, len(columns[0]), error is not None) for k, (columns, error) in enumerate(files)]
    order = []
    for file_index, row in _interleaved(iter(streams), cycle):
        if row < 0:
            return order, files[file_index][1]
        order.append(offsets[file_index] + row)
    return order, None


def _positions(file_index, count, broken):
    """(file, row) for each good row of a file, then (file, -1) where a bad record stops it."""
    for row in range(count):
        yield file_index, row
    if broken:
        yield file_index, -1
