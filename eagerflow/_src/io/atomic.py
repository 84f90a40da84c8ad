"""Writers never destroy what was there: every file and directory eagerflow saves is written under a
temporary name beside its target, flushed to disk, and renamed into place last.

Why: a save that fails half-way (a full disk, Ctrl-C, a value that cannot be saved, a crash) must
leave the previous save as it was and loadable, with no temporary left behind. Writing in place
would first truncate or delete the old files; a rename within one directory replaces the target in
one step, so a reader sees the old save or the new one, never a mix.

- `atomic_file(path)`: a file object over `.NAME.tmp-XXXX` in `path`'s directory; on success it is
  fsynced and renamed over `path`, on any exception (KeyboardInterrupt included) removed.
- `atomic_directory(path, owns=...)`: a temporary directory to fill; on success it takes `path`'s place
  in one `renameat2(RENAME_EXCHANGE)` swap where Linux offers it (two renames elsewhere). Entries of
  the old directory that the writer does not own (a user's notes beside a SavedModel) are carried over
  into the new one, as an in-place writer would have left them.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile

TEMP_MARK = ".tmp-"


def temporary_prefix(path: str) -> str:
    return f".{os.path.basename(path)}{TEMP_MARK}"


def _fsync_directory(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # not every system lets a directory be opened (Windows): the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_file(path, mode: str = "wb"):
    """Yields a file object for `path`'s new content; see the module docstring."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=temporary_prefix(path), dir=directory)
    try:
        with os.fdopen(fd, mode) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_directory(directory)


def write_file_atomically(path, data: bytes) -> None:
    """`path` holds exactly `data` afterwards, or (on failure) what it held before."""
    with atomic_file(path) as fh:
        fh.write(data)


@contextlib.contextmanager
def atomic_directory(path, owns=None):
    """Yields a temporary directory to fill with `path`'s new content; see the module docstring.

    `owns`: the entry names the writer produces (None: all of them). Entries of an existing `path` that
    are not owned and not written anew are carried over."""
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileExistsError(f"{path} exists and is not a directory")
    tmp = tempfile.mkdtemp(prefix=temporary_prefix(path), dir=parent)
    try:
        yield tmp
        if os.path.isdir(path) and owns is not None:
            _carry_over(path, tmp, set(owns))
        _fsync_tree(tmp)
        _swap_into_place(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(tmp, ignore_errors=True)  # after the swap: the previous content
    _fsync_directory(parent)


def _carry_over(old: str, new: str, owns: set) -> None:
    for entry in os.listdir(old):
        if entry in owns or os.path.lexists(os.path.join(new, entry)):
            continue
        source, target = os.path.join(old, entry), os.path.join(new, entry)
        if os.path.isdir(source) and not os.path.islink(source):
            shutil.copytree(source, target, symlinks=True)
        else:
            shutil.copy2(source, target, follow_symlinks=False)


def _fsync_tree(root: str) -> None:
    for directory, _, files in os.walk(root):
        for name in files:
            file_path = os.path.join(directory, name)
            if os.path.islink(file_path):
                continue
            fd = os.open(file_path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_directory(directory)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_renameat2 = []


def _exchange(a: str, b: str) -> bool:
    """Swaps two paths in one step (Linux renameat2 with RENAME_EXCHANGE); False where unavailable."""
    if not _renameat2:
        import ctypes
        import ctypes.util
        function = None
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            function = getattr(libc, "renameat2", None)
        except OSError:
            pass
        _renameat2.append(function)
    function = _renameat2[0]
    if function is None:
        return False
    result = function(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


def _swap_into_place(tmp: str, path: str) -> None:
    """Puts directory `tmp` at `path`; afterwards `tmp` holds the previous content (or nothing)."""
    if not os.path.lexists(path):
        os.replace(tmp, path)
        os.mkdir(tmp)  # the caller removes `tmp` after the swap: leave an empty one there
        return
    if _exchange(tmp, path):
        return
    # Two renames: between them `path` is missing for an instant; the previous content is under `aside`.
    aside = tempfile.mkdtemp(prefix=temporary_prefix(path), dir=os.path.dirname(path))
    os.rmdir(aside)
    os.replace(path, aside)
    try:
        os.replace(tmp, path)
    except BaseException:
        os.replace(aside, path)
        raise
    os.replace(aside, tmp)
