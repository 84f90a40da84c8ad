"""`Dataset.save` / `Dataset.load` (and tf.data.experimental.save / load): eagerflow's own format.

TensorFlow's snapshot format is not reproduced; this one is small, documented here, and safe to load
from an untrusted directory: no pickle, no code, every name and size checked before use.

A saved dataset is a directory written atomically (io/atomic.py: filled under a temporary name and
renamed into place, so an interrupted save leaves the previous one intact):

    dataset_spec.json   {"format": "eagerflow.data.save", "version": 1,
                         "element_spec": <structure, below>, "compression": "" | "GZIP",
                         "cardinality": <elements in all>,
                         "shards": [{"index": <shard_func value>, "file": "shard_<index>.npys[.gz]",
                                     "count": <elements>}, ...]}   (ascending index)
    shard_<index>.npys  the shard's elements in the order they were saved; per element, per component
                        (the element spec flattened), NumPy .npy records one after another (bfloat16:
                        its bits as uint16); a tf.string component is two records, its int64 byte
                        lengths (the component's shape) and its bytes joined (uint8). With "GZIP" each shard file is one gzip stream.

The element spec structure in JSON: {"tensor": {"dtype": "<tf dtype name>", "shape": [dims or null]
or null}}, {"tuple": [...]}, {"namedtuple": {"name": ..., "fields": [...], "items": [...]}},
{"dict": [[key, item], ...]}. Records are read with `allow_pickle=False` and checked against the spec.

`shard_func(element)` -> int64 scalar picks each element's shard (default: one shard, 0). `load` reads
the shards one after another in ascending index (TensorFlow's default reader interleaves them, so its
order across shards is not fixed); `reader_func(datasets)` gets a dataset of the shard datasets, as in
TensorFlow, and returns the dataset to load.
"""
from __future__ import annotations

import collections
import gzip
import json
import os
import re

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import DataLossError, InvalidArgumentError, NotFoundError
from ..core.shape import TensorShape
from ..core.tensor import TensorSpec, make_eager
from .dataset import Dataset
from .structure import DatasetSpec

FORMAT, VERSION, SPEC_FILE = "eagerflow.data.save", 1, "dataset_spec.json"
_SHARD_FILE = re.compile(r"shard_-?\d{1,20}\.npys(\.gz)?")
_LOADABLE = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
             "bfloat16", "float32", "float64", "complex64", "complex128", "string"}


def _compression(value):
    kind = "" if value in (None, "", "NONE") else value
    if kind not in ("", "GZIP"):
        raise ValueError(f"`compression` must be None or 'GZIP', got {value!r}.")
    return kind


# --- the element spec as JSON ----------------------------------------------------------------------

def spec_to_json(spec):
    if isinstance(spec, TensorSpec):
        shape = None if spec.shape.rank is None else spec.shape.as_list()
        return {"tensor": {"dtype": spec.dtype.name, "shape": shape}}
    if isinstance(spec, tuple) and hasattr(type(spec), "_fields"):
        return {"namedtuple": {"name": type(spec).__name__, "fields": list(spec._fields),
                               "items": [spec_to_json(s) for s in spec]}}
    if isinstance(spec, tuple):
        return {"tuple": [spec_to_json(s) for s in spec]}
    if isinstance(spec, dict):
        if not all(isinstance(k, str) for k in spec):
            raise TypeError("Dataset.save: dictionary keys of an element must be strings.")
        return {"dict": [[k, spec_to_json(s)] for k, s in spec.items()]}
    raise TypeError(f"Dataset.save supports elements made of dense tensors (in tuples, namedtuples and dicts), "
                    f"not {spec!r}.")


def spec_from_json(value):
    """The element spec a JSON structure describes; anything unexpected is DataLossError."""
    try:
        (kind, body), = value.items()
        if kind == "tensor":
            if body["dtype"] not in _LOADABLE:
                raise ValueError(f"dtype {body['dtype']!r}")
            shape = body["shape"]
            if shape is not None and not all(d is None or (type(d) is int and d >= 0) for d in shape):
                raise ValueError(f"shape {shape!r}")
            return TensorSpec(TensorShape(shape), _dt.as_dtype(body["dtype"]))
        if kind == "tuple":
            return tuple(spec_from_json(v) for v in body)
        if kind == "namedtuple":
            fields = [str(f) for f in body["fields"]]
            cls = collections.namedtuple(str(body["name"]), fields)
            return cls(*[spec_from_json(v) for v in body["items"]])
        if kind == "dict":
            return {str(k): spec_from_json(v) for k, v in body}
        raise ValueError(f"kind {kind!r}")
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise DataLossError(None, None, f"The saved element spec is not valid: {e}") from None


# --- save ----------------------------------------------------------------------------------------

def _write_component(f, value, spec):
    array = np.asarray(value)
    if spec.dtype == _dt.string:
        flat = [v if isinstance(v, bytes) else str(v).encode() for v in array.reshape(-1).tolist()]
        np.lib.format.write_array(f, np.array([len(v) for v in flat], np.int64).reshape(array.shape),
                                  allow_pickle=False)
        np.lib.format.write_array(f, np.frombuffer(b"".join(flat), np.uint8), allow_pickle=False)
        return
    if array.dtype.kind == "V":  # bfloat16 and other ml_dtypes: their bits, as unsigned integers
        array = array.view(f"u{array.dtype.itemsize}")
    np.lib.format.write_array(f, array, allow_pickle=False)


def _shard_function(shard_func, spec):
    if shard_func is None:
        return None
    from .functions import call_with_element, output_spec, trace
    fn = trace(shard_func, spec, call_with_element, name="shard_func")
    out = output_spec(fn)
    if nest.is_nested(out) or out.dtype != _dt.int64 or out.shape.rank != 0:
        raise InvalidArgumentError(None, None, "`shard_func` must return a scalar int64.")
    return fn


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """Writes every element of `dataset` under `path` (see the module docstring). `checkpoint_args`
    is accepted; an interrupted save is simply not there (the previous content stays)."""
    from ..core.context import state
    from ..io.atomic import atomic_directory
    if state.graph is not None:
        raise RuntimeError("`tf.data.Dataset.save()` is only supported in eager mode.")
    kind = _compression(compression)
    spec = dataset.element_spec
    spec_json = spec_to_json(spec)
    flat_spec = nest.flatten(spec, expand_composites=True)
    shard_of = _shard_function(shard_func, spec)
    path = os.fspath(path)
    with atomic_directory(path) as tmp:
        files, counts = {}, collections.Counter()
        try:
            for element in dataset._elements():
                flat = nest.flatten(element, expand_composites=True)
                index = 0 if shard_of is None else int(shard_of(*flat).numpy())
                if index not in files:
                    name = f"shard_{index}.npys" + (".gz" if kind else "")
                    target = os.path.join(tmp, name)
                    files[index] = gzip.open(target, "wb") if kind else open(target, "wb")
                for value, component in zip(flat, flat_spec):
                    _write_component(files[index], value.numpy(), component)
                counts[index] += 1
        finally:
            for f in files.values():
                f.close()
        shards = [{"index": i, "file": f"shard_{i}.npys" + (".gz" if kind else ""), "count": counts[i]}
                  for i in sorted(files)]
        meta = {"format": FORMAT, "version": VERSION, "element_spec": spec_json, "compression": kind,
                "cardinality": sum(counts.values()), "shards": shards}
        with open(os.path.join(tmp, SPEC_FILE), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1)


# --- load ----------------------------------------------------------------------------------------

def _read_metadata(path):
    spec_path = os.path.join(path, SPEC_FILE)
    if not os.path.isfile(spec_path):
        raise NotFoundError(None, None, f"tf.data snapshot element_spec file not found: {spec_path}.")
    try:
        with open(spec_path, encoding="utf-8") as f:
            meta = json.load(f)
        if meta.get("format") != FORMAT or meta.get("version") != VERSION:
            raise ValueError("not an eagerflow saved dataset (format/version)")
        shards = meta["shards"]
        for shard in shards:
            if not isinstance(shard["file"], str) or not _SHARD_FILE.fullmatch(shard["file"]):
                raise ValueError(f"shard file name {shard['file']!r}")
            if type(shard["count"]) is not int or shard["count"] < 0:
                raise ValueError(f"shard count {shard['count']!r}")
        _compression(meta["compression"])
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise DataLossError(None, None, f"{spec_path}: not a valid saved dataset ({e})") from None
    return meta


def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
    """The dataset saved under `path`. `element_spec` (optional) must have the saved structure and dtypes;
    `compression` is read from the save (an argument is accepted and must agree)."""
    path = os.fspath(path)
    meta = _read_metadata(path)
    saved_spec = spec_from_json(meta["element_spec"])
    kind = meta["compression"]
    if compression not in (None, "") and _compression(compression) != kind:
        raise InvalidArgumentError(None, None, f"The dataset at {path} was saved with compression "
                                               f"{kind or 'None'!r}, not {compression!r}.")
    spec = saved_spec if element_spec is None else element_spec
    flat_saved = nest.flatten(saved_spec, expand_composites=True)
    flat_given = nest.flatten(spec, expand_composites=True)
    if len(flat_given) != len(flat_saved) or any(g.dtype != s.dtype for g, s in zip(flat_given, flat_saved)):
        raise ValueError(f"`element_spec` {spec!r} does not match the saved element spec {saved_spec!r}.")
    shards = [SavedShardDataset(os.path.join(path, s["file"]), spec, s["count"], kind) for s in meta["shards"]]
    if reader_func is not None:
        return reader_func(_DatasetsDataset(shards, spec))
    return LoadedDataset(shards, spec)


class SavedShardDataset(Dataset):
    """The elements of one shard file, read in order."""
    _name = "_ShardDataset"
    _indexable = False

    def __init__(self, file, spec, count, compression):
        self._file, self._spec, self._size, self._gzip = file, spec, count, bool(compression)

    def _stream(self):
        flat_spec = nest.flatten(self._spec, expand_composites=True)
        opener = gzip.open if self._gzip else open
        try:
            f = opener(self._file, "rb")
        except OSError as e:
            from ..io.gfile import os_error
            raise os_error(self._file, e) from None
        with f:
            for _ in range(self._size):
                flat = [_read_component(f, s, self._file) for s in flat_spec]
                yield nest.pack_sequence_as(self._spec, flat, expand_composites=True)


def _read_array(f, where):
    try:
        return np.lib.format.read_array(f, allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise DataLossError(None, None, f"{where}: a record could not be read ({e})") from None


def _read_component(f, spec, where):
    if spec.dtype == _dt.string:
        lengths, blob = _read_array(f, where), _read_array(f, where)
        if lengths.dtype != np.int64 or blob.dtype != np.uint8 or blob.ndim != 1 or \
                (lengths < 0).any() or int(lengths.sum()) != blob.size:
            raise DataLossError(None, None, f"{where}: a string record is inconsistent")
        data, ends = blob.tobytes(), np.cumsum(lengths.reshape(-1)).tolist()
        starts = [0] + ends[:-1]
        values = np.empty(lengths.size, dtype=object)
        values[:] = [data[a:b] for a, b in zip(starts, ends)]
        array = values.reshape(lengths.shape)
    else:
        array, expected = _read_array(f, where), np.dtype(spec.dtype.np_dtype)
        if expected.kind == "V" and array.dtype == np.dtype(f"u{expected.itemsize}"):
            array = array.view(expected)
        if array.dtype != expected:
            raise DataLossError(None, None, f"{where}: a record has dtype {array.dtype}, expected {spec.dtype.name}")
    if not spec.shape.is_compatible_with(TensorShape(list(array.shape))):
        raise DataLossError(None, None, f"{where}: a record has shape {array.shape}, expected {spec.shape}")
    return make_eager(array, spec.dtype)


class LoadedDataset(Dataset):
    """The shards one after another (ascending shard index); the cardinality is the saved count."""
    _name = "_LoadDataset"
    _indexable = False

    def __init__(self, shards, spec):
        self._shards, self._spec = shards, spec
        self._size = sum(s._size for s in shards)

    def _stream(self):
        for shard in self._shards:
            yield from shard._stream()


class _DatasetsDataset(Dataset):
    """A dataset whose elements are the shard datasets (what `reader_func` is given)."""
    _name = "_ShardsDataset"
    _indexable = False

    def __init__(self, shards, spec):
        self._shards, self._spec, self._size = shards, DatasetSpec(spec), len(shards)

    def _stream(self):
        yield from self._shards
