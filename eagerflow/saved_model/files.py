"""The safe file layer of the SavedModel and checkpoint formats: JSON documents and `.npy` tensors.

Why its own file: everything read from disk passes through here, and here only, so the rules that
make loading safe sit in one place:
- JSON is parsed with NaN/Infinity refused, a size cap before reading, and no object hooks;
- a tensor file is an `.npy` whose header is read and checked (dtype, shape, C order) *before* the
  data, against what the JSON document declared, and whose data size must equal the bytes left in
  the file: an allocation is never larger than a file that is really there;
- every file's SHA-256 is recorded by the writer and checked by the reader;
- nothing is unpickled (`allow_pickle=False`), nothing is executed;
- only regular files are opened (a FIFO would hang the load, a device such as /dev/zero would never
  end), and a tensor file only inside the model directory: a symlink may point within it, never out.
Every failure is a `DataLossError` naming the file and the problem.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.errors import DataLossError
from .._src.io.atomic import write_file_atomically

MAX_JSON_BYTES = 64 << 20  # a model description larger than this is not one we wrote
MAX_TENSOR_BYTES = 16 << 30
_NPY_MAGIC = b"\x93NUMPY"
_MAX_NPY_HEADER = 4096 + 16  # magic, version, length field and the header (parse_npy reads at most 4096)
# The dtypes a tensor file may hold (strings travel as fixed-width bytes, see write_tensor).
STORABLE = {d.name: d for d in (_dt.float16, _dt.float32, _dt.float64, _dt.int8, _dt.int16, _dt.int32,
                                _dt.int64, _dt.uint8, _dt.uint16, _dt.uint32, _dt.uint64, _dt.bool_,
                                _dt.complex64, _dt.complex128, _dt.string, _dt.bfloat16)}
# NumPy's .npy format does not know ml_dtypes' bfloat16: such a tensor is stored as its uint16 bit
# patterns and declared "bfloat16" in the JSON reference, which the reader checks and views back.
_BITS_OF = {"bfloat16": np.dtype(np.uint16)}


def data_loss(path, problem) -> DataLossError:
    return DataLossError(None, None, f"{path}: {problem}")


# --- opening files ---
_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def read_regular_file(path, limit, what, inside=None) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them; with `inside`, the file
    (symlinks resolved) must lie within that directory. Opened without following a final symlink
    and without blocking, then checked with fstat, so what is read is what was checked: a FIFO,
    device or socket is refused before a byte is read."""
    real = os.path.realpath(path)
    if inside is not None:
        root = os.path.realpath(inside)
        if os.path.commonpath([root, real]) != root:
            raise data_loss(path, f"the {what} file is a link to {real[:200]!r}, outside the model directory "
                                  f"{root[:200]!r}: refused")
    try:
        fd = os.open(real, _READ_FLAGS)
    except OSError as err:
        raise data_loss(path, f"cannot read the {what} file ({err.strerror})") from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise data_loss(path, f"the {what} file is not a regular file (it is a {_kind(info.st_mode)}): refused")
        if info.st_size > limit:
            raise data_loss(path, f"the {what} file is {info.st_size} bytes, more than the {limit} allowed")
        try:
            return fh.read(info.st_size + 1)  # never more than what is on disk (+1 sees a file still growing)
        except OSError as err:
            raise data_loss(path, f"cannot read the {what} file ({err.strerror})") from None


def _kind(mode):
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISSOCK, "socket"), (stat.S_ISDIR, "directory")):
        if test(mode):
            return name
    return "special file"


# --- JSON ---
def _refuse_constant(name):
    raise ValueError(f"non-standard JSON number {name}")


def write_json(path, document):
    text = json.dumps(document, allow_nan=False, indent=1, sort_keys=False)
    write_file_atomically(path, text.encode("utf-8"))


def read_json(path, what="SavedModel"):
    """The parsed document; DataLossError if it is not one JSON object of sane size in a regular file."""
    raw = read_regular_file(path, MAX_JSON_BYTES, what)
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise data_loss(path, f"not a valid JSON document ({str(err)[:200]})") from None
    if not isinstance(document, dict):
        raise data_loss(path, f"the {what} document is not a JSON object")
    return document


# --- tensors ---
def write_tensor(directory, relative, array) -> dict:
    """Writes `array` as `<directory>/<relative>` (.npy, no pickle); returns its JSON reference."""
    dtype = _dt.from_numpy(array.dtype) if array.dtype != object else None
    if array.dtype == object:  # a string tensor: an object array of bytes
        stored = np.array([v if isinstance(v, bytes) else str(v).encode() for v in array.reshape(-1)],
                          dtype=np.bytes_).reshape(array.shape)
        dtype = _dt.string
    else:
        stored = np.array(array, order="C")  # (ascontiguousarray would make a scalar 1-d)
        if dtype is not None and dtype.name in _BITS_OF:
            stored = stored.view(_BITS_OF[dtype.name])
    if dtype is None or dtype.name not in STORABLE:
        raise ValueError(f"Cannot save a tensor of dtype {array.dtype} to a SavedModel")
    path = os.path.join(directory, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        np.lib.format.write_array(fh, stored, allow_pickle=False)
    with open(path, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    return {"file": relative, "dtype": dtype.name, "shape": list(array.shape), "sha256": digest}


def read_tensor(directory, ref, where) -> np.ndarray:
    """The array a JSON tensor reference names, checked against it; `where` names the reference
    in messages. The file must be inside `directory`."""
    if not isinstance(ref, dict) or set(ref) != {"file", "dtype", "shape", "sha256"}:
        raise data_loss(where, "a tensor reference must have exactly the keys file, dtype, shape, sha256")
    relative, dtype_name, shape, digest = ref["file"], ref["dtype"], ref["shape"], ref["sha256"]
    if not isinstance(relative, str) or not relative or relative.startswith(("/", "\\")) \
            or ".." in relative.replace("\\", "/").split("/") or "\x00" in relative:
        raise data_loss(where, f"tensor file name {str(relative)[:80]!r} is not a plain relative path")
    if dtype_name not in STORABLE:
        raise data_loss(where, f"tensor dtype {str(dtype_name)[:40]!r} is not one a tensor file may hold")
    if not (isinstance(shape, list) and len(shape) <= 32
            and all(type(d) is int and 0 <= d < 2 ** 40 for d in shape)):
        raise data_loss(where, "tensor shape must be a list of at most 32 non-negative integers")
    if not isinstance(digest, str):
        raise data_loss(where, "tensor checksum must be a string")
    path = os.path.join(directory, relative)
    data = read_regular_file(path, _declared_bytes(STORABLE[dtype_name], shape), "tensor", inside=directory)
    if hashlib.sha256(data).hexdigest() != digest:
        raise data_loss(path, "checksum mismatch: the tensor file is corrupted or was changed")
    return parse_npy(path, data, STORABLE[dtype_name], tuple(shape))


def _declared_bytes(dtype, shape):
    """The most bytes an .npy file of this dtype and shape can hold (a string's width is in the
    file's own header, so strings get the general cap)."""
    if dtype is _dt.string:
        return MAX_TENSOR_BYTES
    count = 1
    for d in shape:
        count *= d
    itemsize = _BITS_OF[dtype.name].itemsize if dtype.name in _BITS_OF else np.dtype(dtype.np_dtype).itemsize
    return min(MAX_TENSOR_BYTES, _MAX_NPY_HEADER + count * itemsize)


def parse_npy(path, data: bytes, dtype, shape) -> np.ndarray:
    """An .npy file's bytes -> array, header checked against the declared dtype and shape first."""
    import io
    if not data.startswith(_NPY_MAGIC) or len(data) < 10:
        raise data_loss(path, "not an .npy tensor file (bad magic)")
    stream = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            header = np.lib.format.read_array_header_1_0(stream, max_header_size=4096)
        elif version in ((2, 0), (3, 0)):
            header = np.lib.format.read_array_header_2_0(stream, max_header_size=4096)
        else:
            raise ValueError(f"unsupported .npy version {version}")
    except Exception as err:  # NumPy reports a malformed header with several exception types
        raise data_loss(path, f"bad .npy header ({str(err)[:160]})") from None
    file_shape, fortran, file_dtype = header
    if fortran:
        raise data_loss(path, "Fortran-ordered tensor data is not written by eagerflow")
    if file_dtype.hasobject:
        raise data_loss(path, "the tensor file holds Python objects (refused: loading would unpickle)")
    expected = np.dtype(np.bytes_) if dtype is _dt.string else _BITS_OF.get(dtype.name) or np.dtype(dtype.np_dtype)
    if dtype is _dt.string:
        if file_dtype.kind != "S":
            raise data_loss(path, f"declared string tensor holds dtype {file_dtype}")
    elif file_dtype != expected:
        raise data_loss(path, f"declared dtype {dtype.name} but the file holds {file_dtype}")
    if tuple(file_shape) != shape:
        raise data_loss(path, f"declared shape {list(shape)} but the file holds {list(file_shape)}")
    count = 1
    for d in shape:
        count *= d
    offset = stream.tell()
    if count * file_dtype.itemsize != len(data) - offset:
        raise data_loss(path, f"truncated or padded: {count * file_dtype.itemsize} data bytes declared, "
                              f"{len(data) - offset} present")
    array = np.frombuffer(data, dtype=file_dtype, count=count, offset=offset).reshape(shape).copy()
    if dtype is _dt.string:
        out = np.empty(shape, dtype=object)
        out.reshape(-1)[:] = list(array.reshape(-1))
        return out
    if dtype.name in _BITS_OF:
        return array.view(dtype.np_dtype)  # ImportError naming the extra when ml_dtypes is missing
    return array
