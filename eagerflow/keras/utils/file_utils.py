"""`keras.utils.get_file`, reading only from Keras' cache folder: the file a tutorial would download is
looked up where Keras 3 keeps it (`$KERAS_HOME/<cache_subdir>`, else `~/.keras/<cache_subdir>`) under the
name Keras gives it, checked against `file_hash`, and extracted there when asked. eagerflow never reaches
the network: an absent file is a FileNotFoundError that says which URL to save as which path.

Extraction is safe and atomic: archive members with absolute paths, `..` parts, links or device files
are refused, and the members are unpacked into a temporary folder that replaces the extraction folder
only once complete (io/atomic.py), so a failed extraction leaves the previous one intact.
"""
from __future__ import annotations

import hashlib
import os
import tarfile
import urllib.parse
import zipfile


def keras_home() -> str:
    """Keras 3's base folder: $KERAS_HOME, else ~/.keras (/tmp/.keras when the home folder is read-only)."""
    if "KERAS_HOME" in os.environ:
        return os.environ["KERAS_HOME"]
    base = os.path.expanduser("~")
    return os.path.join(base if os.access(base, os.W_OK) else "/tmp", ".keras")


def _hash_matches(path, file_hash, algorithm):
    if algorithm == "auto":
        algorithm = "sha256" if len(file_hash) == 64 else "md5"
    digest = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest() == str(file_hash), algorithm


def _safe_member(name, base):
    target = os.path.realpath(os.path.join(base, name))
    return not os.path.isabs(name) and (target == base or target.startswith(base + os.sep))


def _extract(archive_path, destination, formats):
    """Unpacks `archive_path` (tar or zip, per `formats`) as `destination`; False when it is neither."""
    from ..._src.io.atomic import atomic_directory
    for kind in formats:
        if kind == "tar" and tarfile.is_tarfile(archive_path):
            with tarfile.open(archive_path) as archive, atomic_directory(destination) as tmp:
                base = os.path.realpath(tmp)
                members = archive.getmembers()
                for member in members:
                    if not (member.isfile() or member.isdir()) or not _safe_member(member.name, base):
                        raise ValueError(f"Refusing to extract {member.name!r} from {archive_path}: only files and "
                                         "folders inside the extraction folder are extracted")
                archive.extractall(tmp, members=members)
            return True
        if kind == "zip" and zipfile.is_zipfile(archive_path):
            with zipfile.ZipFile(archive_path) as archive, atomic_directory(destination) as tmp:
                base = os.path.realpath(tmp)
                for info in archive.infolist():
                    if not _safe_member(info.filename, base) or (info.external_attr >> 16) & 0o170000 == 0o120000:
                        raise ValueError(f"Refusing to extract {info.filename!r} from {archive_path}: only files "
                                         "and folders inside the extraction folder are extracted")
                archive.extractall(tmp)
            return True
        if kind not in ("tar", "zip"):
            raise NotImplementedError(kind)
    return False


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, archive_format="auto", cache_dir=None, force_download=False):
    """The path of `fname` in Keras' cache folder (its extraction folder with `extract=True`), as Keras 3
    names them; see the module docstring."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    datadir = os.path.join(os.path.expanduser(cache_dir or keras_home()), cache_subdir)
    given = fname
    fname = os.fspath(fname) if fname else ""
    if not fname:
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
        if not fname:
            raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'.Please specify the "
                             "`fname` argument.")
    elif os.sep in fname:
        raise ValueError("Paths are no longer accepted as the `fname` argument. To specify the file's parent "
                         f"directory, use the `cache_dir` argument. Received: fname={fname}")
    extraction_dir = None
    if extract or untar:
        if given and "." in fname:
            target = os.path.join(datadir, fname)
            extraction_dir = os.path.join(datadir, f"{fname[:fname.find('.')]}_extracted")
        else:
            target = os.path.join(datadir, f"{fname}_archive")
            extraction_dir = os.path.join(datadir, fname)
    else:
        target = os.path.join(datadir, fname)
    if force_download or not os.path.isfile(target):
        reason = "force_download=True asks for a fresh download" if force_download else "it is not there"
        raise FileNotFoundError(f"keras.utils.get_file: eagerflow does not download files, and {reason}. Download "
                                f"{origin} and save it as {target}")
    if file_hash is not None:
        matches, algorithm = _hash_matches(target, file_hash, hash_algorithm)
        if not matches:
            raise ValueError(f"{target} is incomplete or outdated: its {algorithm} file hash does not match the "
                             f"provided value of {file_hash}. Download {origin} again and save it there.")
    if extraction_dir is None:
        return target
    formats = ["tar"] if untar else (["tar", "zip"] if archive_format == "auto" else
                                     [archive_format] if isinstance(archive_format, str) else list(archive_format or []))
    if not _extract(target, extraction_dir, formats):
        import warnings
        warnings.warn("Could not extract archive.", stacklevel=2)
    return extraction_dir
