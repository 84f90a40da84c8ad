"""The version folders under a model's base path, as TensorFlow Serving reads them: every
sub-folder whose name is a non-negative integer is a version (`DIR/1`, `DIR/00002`); other entries
are ignored. A fingerprint of a folder's files tells the poller whether a version that failed to
load has changed since (it is retried only then, so a half-copied folder loads once it is complete).
"""
from __future__ import annotations

import os

_MAX_VERSION = 2**63 - 1


def version_folders(base_path: str) -> dict:
    """{version: folder} under `base_path`; {} where the base path does not exist or cannot be read."""
    try:
        entries = list(os.scandir(base_path))
    except OSError:
        return {}
    found = {}
    for entry in entries:
        name = entry.name
        if name.isascii() and name.isdigit() and int(name) <= _MAX_VERSION and entry.is_dir():
            found.setdefault(int(name), entry.path)  # '1' and '01' name one version: the first seen serves
    return found


def fingerprint(folder: str) -> tuple:
    """(relative path, size, mtime) of every file under `folder`, sorted: changes when anything is written."""
    seen = []
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            try:
                status = os.stat(path)
            except OSError:
                continue
            seen.append((os.path.relpath(path, folder), status.st_size, status.st_mtime_ns))
    return tuple(sorted(seen))
