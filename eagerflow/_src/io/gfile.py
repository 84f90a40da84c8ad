"""`tf.io.gfile`: TensorFlow's file API on local files, with TensorFlow's errors.

Why not plain `open`: TensorFlow programs catch `tf.errors.NotFoundError` around file access and
rely on GFile's quirks, restated here from TensorFlow 2.21's behaviour:
- `GFile(path)` opens nothing; the file is opened at the first read (a missing file fails there,
  "<path>; No such file or directory") or created at the first write.
- Text mode reads UTF-8 text with no newline translation ("\\r\\n" stays in `read()`); lines end
  at "\\n" and `readline()` drops every "\\r". Text mode accepts bytes to write and binary
  mode accepts str (both are written as bytes).
- `read(n)`, `tell()` and `seek()` count bytes. A closed GFile reopens on the next read.
- `mkdir` of an existing directory and `makedirs` of an existing tree succeed; `walk` of a
  missing directory yields nothing; `glob("*.txt")` names its matches "./a.txt".
"""
from __future__ import annotations

import collections
import glob as _glob
import os
import shutil

from ..core.errors import (AlreadyExistsError, FailedPreconditionError, InvalidArgumentError, NotFoundError,
                           PermissionDeniedError, UnknownError)

_MODES = {"r", "w", "a", "r+", "w+", "a+"}

FileStatistics = collections.namedtuple("FileStatistics", ["length", "mtime_nsec", "is_directory"])


def os_error(path, error: OSError):
    """The TensorFlow error for an OSError on `path`: its class and "<path>; <reason>"."""
    path = os.fspath(path)
    if isinstance(error, FileNotFoundError):
        return NotFoundError(None, None, f"{path}; No such file or directory")
    if isinstance(error, IsADirectoryError):
        return FailedPreconditionError(None, None, f"{path}; Is a directory")
    if isinstance(error, NotADirectoryError):
        return FailedPreconditionError(None, None, f"{path}; Not a directory")
    if isinstance(error, PermissionError):
        return PermissionDeniedError(None, None, f"{path}; Permission denied")
    if isinstance(error, FileExistsError):
        return AlreadyExistsError(None, None, f"{path}; File exists")
    return UnknownError(None, None, f"{path}; {error.strerror or error}")


def _as_bytes(data):
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


class GFile:
    """A file handle with TensorFlow's lazy open and text/binary rules (see the module docstring)."""

    def __init__(self, name, mode="r"):
        self.__name = os.fspath(name)
        self.__mode = mode
        base = mode.replace("b", "")
        if base not in _MODES:
            raise InvalidArgumentError(None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._binary = "b" in mode
        self._readable = base.startswith("r") or "+" in base
        self._writable = not base.startswith("r") or "+" in base
        self._file = None

    name = property(lambda self: self.__name, doc="The path the file was opened with.")
    mode = property(lambda self: self.__mode, doc="The mode string it was opened with.")

    def _open(self, for_write):
        if self._file is None:
            base = self.__mode.replace("b", "")
            py_mode = {"r": "rb", "w": "wb", "a": "ab", "r+": "r+b", "w+": "w+b", "a+": "a+b"}[base]
            if for_write and base == "r+" and not os.path.exists(self.__name):
                py_mode = "w+b"
            try:
                self._file = open(self.__name, py_mode)
            except OSError as e:
                raise os_error(self.__name, e) from None
        return self._file

    def _reader(self):
        if not self._readable:
            raise PermissionDeniedError(None, None, "File isn't open for reading")
        return self._open(False)

    def _decode(self, data: bytes):
        return data if self._binary else data.decode("utf-8")

    def size(self):
        """The file's length in bytes."""
        return stat(self.__name).length

    def write(self, file_content):
        if not self._writable:
            raise PermissionDeniedError(None, None, "File isn't open for writing")
        self._open(True).write(_as_bytes(file_content))

    def read(self, n=-1):
        """`n` bytes (all that is left when n is -1), as str in text mode."""
        f = self._reader()
        try:
            return self._decode(f.read() if n is None or n < 0 else f.read(n))
        except IsADirectoryError as e:
            raise os_error(self.__name, e) from None

    def readline(self):
        """The next line with its "\\n" ("" at the end of the file), without any "\\r" (TensorFlow's
        line reader drops them)."""
        return self._decode(self._reader().readline().replace(b"\r", b""))

    def readlines(self):
        return list(self)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def tell(self):
        return self._reader().tell() if self._readable else self._open(True).tell()

    def seek(self, offset=None, whence=0, position=None):
        """Moves to `offset` bytes (TensorFlow also accepts the deprecated `position=`)."""
        offset = position if offset is None else offset
        self._open(False).seek(offset, whence)

    def seekable(self):
        return True

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        f = getattr(self, "_file", None)
        if f is not None:
            f.close()


def exists(path):
    return os.path.exists(os.fspath(path))


def isdir(path):
    return os.path.isdir(os.fspath(path))


def _checked(path, action):
    try:
        return action()
    except OSError as e:
        raise os_error(path, e) from None


def mkdir(path):
    """Creates one directory; its parent must exist. An existing directory is fine."""
    path = os.fspath(path)
    if os.path.isdir(path):
        return
    _checked(path, lambda: os.mkdir(path))


def makedirs(path):
    """Creates a directory and its missing parents; an existing one is fine."""
    path = os.fspath(path)
    _checked(path, lambda: os.makedirs(path, exist_ok=True))


def listdir(path):
    """The names in a directory (without "." and ".."), in sorted order."""
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise NotFoundError(None, None, f"Could not find directory {path}")
    return sorted(os.listdir(path))


def glob(pattern):
    """The paths matching a pattern; a pattern with no directory part names matches "./name"."""
    if isinstance(pattern, (list, tuple)):
        return [match for p in pattern for match in glob(p)]
    pattern = os.fspath(pattern)
    if isinstance(pattern, bytes):
        pattern = pattern.decode("utf-8")
    prefix = "" if os.path.dirname(pattern) else "./"
    return sorted(prefix + m for m in _glob.glob(pattern))


def remove(path):
    """Deletes a file (a directory is FailedPreconditionError, as in TensorFlow)."""
    path = os.fspath(path)
    if os.path.isdir(path):
        raise FailedPreconditionError(None, None, f"{path}; Is a directory")
    _checked(path, lambda: os.remove(path))


def rmtree(path):
    path = os.fspath(path)
    if not os.path.exists(path):
        raise NotFoundError(None, None, f"{path} not found")
    _checked(path, lambda: shutil.rmtree(path))


def _check_target(src, dst, overwrite):
    if not os.path.exists(src):
        raise NotFoundError(None, None, f"{src}; No such file or directory")
    if not overwrite and os.path.exists(dst):
        raise AlreadyExistsError(None, None, "file already exists")


def copy(src, dst, overwrite=False):
    src, dst = os.fspath(src), os.fspath(dst)
    _check_target(src, dst, overwrite)
    _checked(src, lambda: shutil.copyfile(src, dst))


def rename(src, dst, overwrite=False):
    src, dst = os.fspath(src), os.fspath(dst)
    _check_target(src, dst, overwrite)
    _checked(src, lambda: os.replace(src, dst))


def stat(path):
    """FileStatistics(length, mtime_nsec, is_directory) of a path."""
    path = os.fspath(path)
    st = _checked(path, lambda: os.stat(path))
    return FileStatistics(st.st_size, st.st_mtime_ns, os.path.isdir(path))


def join(path, *paths):
    return os.path.join(path, *paths)


def walk(top, topdown=True, onerror=None):
    """(directory, subdirectory names, file names) for each directory of the tree under `top`;
    nothing for a missing `top`."""
    top = os.fspath(top)
    try:
        names = listdir(top)
    except NotFoundError as e:
        if onerror is not None:
            onerror(e)
        return
    dirs = [n for n in names if os.path.isdir(os.path.join(top, n))]
    files = [n for n in names if n not in dirs]
    if topdown:
        yield top, dirs, files
    for d in dirs:
        yield from walk(os.path.join(top, d), topdown, onerror)
    if not topdown:
        yield top, dirs, files
