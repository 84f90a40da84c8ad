"""TensorFlow's tensor bundle: the `PREFIX.index` + `PREFIX.data-00000-of-00001` files that hold a checkpoint's
or a SavedModel's variables.

The index is a sorted table (sorted_table.py): key "" holds a `BundleHeaderProto` (shard count, endianness,
version); every other key is a tensor's name with its `BundleEntryProto`: dtype, shape, which data shard, the
offset and size of its bytes there, and their masked CRC-32C. A number tensor's bytes are its little-endian
elements; a string tensor's are the varint64 lengths of its elements, a masked CRC-32C of those lengths (each
taken as 4 bytes), then the elements' bytes; its entry checksum covers the lengths as 4-byte words, the length
checksum and the bytes.

The data may be spread over several `.data-K-of-N` files (the header's shard count; each entry names its
shard), and a tensor may be stored in slices (tensor_slices.py: a partitioned variable, or one a sharding policy
cut), each slice an entry of its own under a binary key; the reader puts such a tensor back together.

`write_bundle` writes every file under a temporary name and renames them into place only once all are written
(index, then data), so a write that fails leaves the previous bundle as it was.
`BundleReader` opens only the files of the prefix it is given, checks every entry against its data file's size
before allocating (a sliced tensor's slices against the whole and their bytes against the files), verifies
checksums on read, and raises `DataLossError` naming the file for anything damaged.
"""
from __future__ import annotations

import contextlib
import os
import stat
import struct

import numpy as np

from ..core import dtypes as _dtypes
from ..core.errors import DataLossError, NotFoundError
from ..io.atomic import atomic_file
from ..io.records import _mask
from ..io.crc32c import crc32c
from . import sorted_table, tensor_slices
from .dtypes import datatype_number, dtype_from_number
from .tensor_proto import shape_proto

BUNDLE_VERSION = 1  # the producer version TensorFlow stamps on the bundles it writes
HEADER_KEY = b""


def data_path(prefix: str, shard: int = 0, num_shards: int = 1) -> str:
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


def index_path(prefix: str) -> str:
    return f"{prefix}.index"


def _as_array(value):
    """(ndarray, DType) for a value to save: a NumPy array, a tensor or variable (`.numpy()`), or a pair."""
    if isinstance(value, tuple) and len(value) == 2:
        array, dtype = value
        return np.asarray(array), _dtypes.as_dtype(dtype)
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        return np.asarray(value.numpy()), _dtypes.as_dtype(value.dtype)
    array = np.asarray(value)
    if array.dtype.kind in "OUS":
        return array, _dtypes.string
    return array, _dtypes.from_numpy(array.dtype)


def _length_words(sizes) -> bytes:
    """The string lengths as the checksums see them: 4 bytes each (8 for a length past 2**32 - 1)."""
    return b"".join(struct.pack("<I", n) if n <= 0xFFFFFFFF else struct.pack("<Q", n) for n in sizes)


def _string_bytes(array: np.ndarray):
    """(stored bytes, entry checksum before masking) of a string tensor, in TensorFlow's layout."""
    elements = [e.encode() if isinstance(e, str) else bytes(e) for e in array.reshape(-1).tolist()]
    sizes = [len(e) for e in elements]
    words = _length_words(sizes)
    length_check = struct.pack("<I", _mask(crc32c(words)))
    body = b"".join(elements)
    lengths = b"".join(sorted_table.varint(n) for n in sizes)
    return lengths + length_check + body, crc32c(words + length_check + body)


def _stored_pieces(tensors, max_shard_size):
    """[(name, full shape, extents or None, dtype, piece, string payload and checksum or None, byte count)] in key
    order:
    each tensor whole, or cut in slices along its first axis when `max_shard_size` bytes cannot hold it."""
    out = []
    for name in sorted(tensors, key=lambda n: n.encode()):
        array, dtype = _as_array(tensors[name])
        if dtype.name in ("resource", "variant"):
            raise TypeError(f"tensor {name!r}: a {dtype.name} tensor cannot be saved in a checkpoint")
        if dtype == _dtypes.string:
            encoded = _string_bytes(array)
            out.append((name, array.shape, None, dtype, array, encoded, len(encoded[0])))
            continue
        array = np.asarray(_dtypes.cast_array(array, dtype))
        itemsize = dtype.np_dtype.itemsize
        pieces = [(None, array)] if max_shard_size is None else \
            tensor_slices.plan_pieces(array, itemsize, max_shard_size)
        out.extend((name, array.shape, extents, dtype, piece, None, piece.size * itemsize) for extents, piece in pieces)
    return out


def _assign_shards(pieces, max_shard_size) -> list:
    """The data shard of each piece: filled in order, a new one started when the next piece would overflow."""
    shards, shard, used = [], 0, 0
    for *_, size in pieces:
        if max_shard_size is not None and used and used + size > max_shard_size:
            shard, used = shard + 1, 0
        shards.append(shard)
        used += size
    return shards


def _slice_proto(extents):
    from .protos import tensor_bundle_pb2

    return tensor_bundle_pb2.TensorSliceProto(extent=[
        tensor_bundle_pb2.TensorSliceProto.Extent(start=start, length=length) for start, length in extents])


def write_bundle(prefix, tensors, max_shard_size=None) -> None:
    """Write `tensors` (name -> array, tensor, variable or (array, dtype)) as a bundle at `prefix`: one data shard,
    or with `max_shard_size` (bytes) as many `.data-K-of-N` shards as needed, a number tensor larger than a shard
    stored in slices along its first axis (a string tensor is never cut)."""
    from .protos import tensor_bundle_pb2, versions_pb2

    prefix = os.fspath(prefix)
    os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
    pieces = _stored_pieces(tensors, max_shard_size)
    shards = _assign_shards(pieces, max_shard_size)
    num_shards = (shards[-1] + 1) if shards else 1
    entries, sliced = [], {}
    with contextlib.ExitStack() as stack:
        files = [stack.enter_context(atomic_file(data_path(prefix, k, num_shards))) for k in range(num_shards)]
        offsets = [0] * num_shards
        for (name, shape, extents, dtype, piece, encoded, _), shard in zip(pieces, shards):
            if encoded is not None:
                payload, checksum = encoded
            else:
                payload = np.ascontiguousarray(piece).astype(dtype.np_dtype.newbyteorder("<"), copy=False).tobytes()
                checksum = crc32c(payload)
            files[shard].write(payload)
            entry = tensor_bundle_pb2.BundleEntryProto(
                dtype=datatype_number(dtype), shape=shape_proto(piece.shape), shard_id=shard,
                offset=offsets[shard], size=len(payload), crc32c=_mask(checksum))
            offsets[shard] += len(payload)
            if extents is None:
                key = name.encode()
            else:
                key = tensor_slices.slice_key(name, extents)
                whole = sliced.setdefault(name, tensor_bundle_pb2.BundleEntryProto(
                    dtype=entry.dtype, shape=shape_proto(shape), shard_id=shard))
                whole.slices.append(_slice_proto(extents))
            entries.append((key, entry.SerializeToString(deterministic=True)))
        entries.extend((name.encode(), whole.SerializeToString(deterministic=True)) for name, whole in sliced.items())
        for data in files:
            data.flush()
            os.fsync(data.fileno())  # on disk before the index that describes them replaces the old one
        header = tensor_bundle_pb2.BundleHeaderProto(num_shards=num_shards, version=versions_pb2.VersionDef(
            producer=BUNDLE_VERSION))
        entries.sort()
        table = sorted_table.build_table([(HEADER_KEY, header.SerializeToString(deterministic=True))] + entries)
        with atomic_file(index_path(prefix)) as index:
            index.write(table)


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def _open_regular(path):
    """A binary file object for the regular file at `path`, or DataLossError: opened without blocking and
    checked with fstat, so a FIFO or a device named like a bundle file is refused before a byte is read (a FIFO
    would hang the read, /dev/zero would never end)."""
    fd = os.open(path, _OPEN_FLAGS)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = next((name for test, name in _KINDS if test(mode)), "not a file")
        raise DataLossError(None, None, f"{path}: not a regular file (it is {kind})")
    return os.fdopen(fd, "rb")


class BundleReader:
    """The tensors of the bundle at `prefix`: `keys()`, `dtype(key)`, `shape(key)`, `read(key)`."""

    def __init__(self, prefix):
        from .protos import tensor_bundle_pb2

        self.prefix = os.fspath(prefix)
        self._index_file = index_path(self.prefix)
        try:
            with _open_regular(self._index_file) as fh:
                raw = fh.read()
        except FileNotFoundError:
            raise NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any "
                                            f"matching files for {self.prefix}") from None
        table = sorted_table.read_table(raw, self._index_file)
        try:
            header = tensor_bundle_pb2.BundleHeaderProto.FromString(table.pop(HEADER_KEY))
            self._entries, self._pieces = {}, {}
            for key, value in table.items():
                entry = tensor_bundle_pb2.BundleEntryProto.FromString(value)
                if tensor_slices.is_slice_key(key):
                    self._pieces[key] = entry
                else:
                    self._entries[key.decode()] = entry
        except KeyError:
            raise self._corrupt(self._index_file, "it has no bundle header") from None
        except Exception as err:  # protobuf's DecodeError, UnicodeDecodeError: a damaged entry
            raise self._corrupt(self._index_file, f"an entry does not parse ({type(err).__name__})") from None
        if header.endianness != 0:
            raise self._corrupt(self._index_file, "it was written big-endian, which eagerflow does not read")
        self.num_shards = header.num_shards or 1
        if not 1 <= self.num_shards <= 100000:
            raise self._corrupt(self._index_file, f"it claims {header.num_shards} data shards")
        self._shard_sizes = {}

    @staticmethod
    def _corrupt(filename, why):
        return DataLossError(None, None, f"{filename}: {why}")

    def keys(self) -> list:
        return sorted(self._entries)

    def __contains__(self, key) -> bool:
        return key in self._entries

    def _entry(self, key):
        try:
            return self._entries[key]
        except KeyError:
            raise NotFoundError(None, None, f"Key {key} not found in checkpoint") from None

    def dtype(self, key):
        try:
            return dtype_from_number(self._entry(key).dtype)
        except ValueError as err:
            raise self._corrupt(self._index_file, f"tensor {key!r}: {err}") from None

    def shape(self, key) -> list:
        entry = self._entry(key)
        dims = [d.size for d in entry.shape.dim]
        if any(d < 0 for d in dims):
            raise self._corrupt(self._index_file, f"tensor {key!r} has a negative dimension {dims}")
        return dims

    def _data_file(self, shard: int):
        if not 0 <= shard < self.num_shards:
            raise self._corrupt(self._index_file, f"an entry names data shard {shard} of {self.num_shards}")
        path = data_path(self.prefix, shard, self.num_shards)
        if shard not in self._shard_sizes:
            try:
                with _open_regular(path) as fh:
                    self._shard_sizes[shard] = os.fstat(fh.fileno()).st_size
            except FileNotFoundError:
                raise NotFoundError(None, None, f"{path}: the checkpoint's data file is missing") from None
        return path, self._shard_sizes[shard]

    def read(self, key) -> np.ndarray:
        """The tensor's value as a NumPy array (strings: an object array of bytes); checksums verified. A tensor
        stored in slices (a partitioned variable, or one a sharding policy cut) is put back together."""
        entry = self._entry(key)
        dtype, shape = self.dtype(key), self.shape(key)
        if dtype.name in ("resource", "variant"):
            raise self._corrupt(self._index_file, f"tensor {key!r} has dtype {dtype.name}, which a checkpoint "
                                                   "cannot hold")
        if len(entry.slices):
            return self._read_sliced(key, entry, dtype, shape)
        return self._read_stored(key, entry, dtype, shape)

    def _read_stored(self, key, entry, dtype, shape) -> np.ndarray:
        """The value of one entry whose bytes lie in a data file: the whole tensor `key`, or one of its pieces."""
        path, file_size = self._data_file(entry.shard_id)
        if entry.offset < 0 or entry.size < 0 or entry.offset + entry.size > file_size:
            raise self._corrupt(path, f"tensor {key!r} claims bytes {entry.offset}..{entry.offset + entry.size} "
                                      f"of a {file_size}-byte file")
        count = int(np.prod(shape, dtype=np.float64))
        if dtype == _dtypes.string:
            if count > entry.size:  # every element needs at least its one-byte length
                raise self._corrupt(path, f"tensor {key!r} claims {count} strings in {entry.size} bytes")
        elif count * dtype.np_dtype.itemsize != entry.size:
            raise self._corrupt(path, f"tensor {key!r} of shape {shape} and dtype {dtype.name} needs "
                                      f"{count * dtype.np_dtype.itemsize} bytes; its entry says {entry.size}")
        with _open_regular(path) as fh:
            fh.seek(entry.offset)
            payload = fh.read(entry.size)
        if dtype == _dtypes.string:
            value, checksum = self._parse_strings(payload, count, key, path)
            value = value.reshape(shape)
        else:
            checksum = crc32c(payload)
            value = np.frombuffer(payload, dtype.np_dtype.newbyteorder("<")).astype(dtype.np_dtype).reshape(shape)
        if _mask(checksum) != entry.crc32c:
            raise self._corrupt(path, f"the checksum of tensor {key!r} does not match its bytes")
        return value

    def _pieces_of(self, key, entry, shape):
        """[(index into the whole tensor, piece entry, piece shape)] for a sliced tensor, each piece checked
        against the whole (rank, bounds, dtype) and their bytes together against the data files' sizes, so a
        hostile index cannot make the reader allocate more than the files hold."""
        out, stored, shard_sizes = [], 0, {}
        for slice_proto in entry.slices:
            try:
                extents = tensor_slices.extents(slice_proto, shape)
            except ValueError as err:
                raise self._corrupt(self._index_file, f"tensor {key!r}: {err}") from None
            piece = self._pieces.get(tensor_slices.slice_key(key, [(start, k) for start, _, k in extents]))
            where = ", ".join(f"{start}:{start + length}" for start, length, _ in extents)
            if piece is None:
                raise self._corrupt(self._index_file, f"tensor {key!r}: its slice [{where}] has no entry")
            lengths = [length for _, length, _ in extents]
            if len(piece.slices) or piece.dtype != entry.dtype or [d.size for d in piece.shape.dim] != lengths:
                raise self._corrupt(self._index_file, f"tensor {key!r}: the entry of its slice [{where}] does "
                                                       "not match the tensor")
            shard_sizes[piece.shard_id] = self._data_file(piece.shard_id)[1]
            stored += max(piece.size, 0)
            out.append((tuple(slice(start, start + length) for start, length, _ in extents), piece, lengths))
        if stored > sum(shard_sizes.values()):
            raise self._corrupt(self._index_file, f"tensor {key!r}: its slices claim {stored} bytes, more than "
                                                   "its data files hold")
        return out

    def _read_sliced(self, key, entry, dtype, shape) -> np.ndarray:
        pieces = self._pieces_of(key, entry, shape)
        value = np.empty(shape, object if dtype == _dtypes.string else dtype.np_dtype)
        covered = np.zeros(shape, bool)
        for index, piece, lengths in pieces:
            value[index] = self._read_stored(key, piece, dtype, lengths)
            covered[index] = True
        if not covered.all():
            raise self._corrupt(self._index_file, f"tensor {key!r}: its slices do not cover its shape {shape}")
        return value

    def _parse_strings(self, payload: bytes, count: int, key, path):
        sizes, pos = [], 0
        try:
            for _ in range(count):
                size, pos = sorted_table.read_varint(payload, pos, len(payload))
                sizes.append(size)
        except sorted_table.Damaged:
            raise self._corrupt(path, f"the string lengths of tensor {key!r} run past its bytes") from None
        if pos + 4 + sum(sizes) != len(payload):
            raise self._corrupt(path, f"the strings of tensor {key!r} do not fill its {len(payload)} bytes")
        length_check = payload[pos:pos + 4]
        pos += 4
        body_start = pos
        out = np.empty(count, dtype=object)
        for i, size in enumerate(sizes):
            out[i] = payload[pos:pos + size]
            pos += size
        return out, crc32c(_length_words(sizes) + length_check + payload[body_start:])

    def read_all(self) -> dict:
        return {key: self.read(key) for key in self.keys()}
