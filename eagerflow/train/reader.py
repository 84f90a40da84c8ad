"""`tf.train.load_checkpoint`, `load_variable`, `list_variables`: a checkpoint's tensors by key.

The argument is a checkpoint prefix or a directory (its newest checkpoint). Checkpoints in TensorFlow's
format are read through formats/tensor_bundle.py (sizes checked before allocating, checksums verified);
those in eagerflow's earlier JSON format through legacy_json.py, keyed by their object paths.
"""
from __future__ import annotations

import os

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.errors import NotFoundError
from .._src.formats.tensor_bundle import BundleReader
from . import legacy_json
from .checkpoint_state import latest_checkpoint


def _missing(path):
    return NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                                     f"files for {path}")


def checkpoint_prefix(ckpt_dir_or_file) -> str:
    """The prefix `ckpt_dir_or_file` names: itself, or a directory's newest checkpoint."""
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        newest = latest_checkpoint(path)
        if newest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return newest
    return path


class CheckpointReader:
    """What `load_checkpoint` returns: TensorFlow's CheckpointReader methods over one checkpoint."""

    def __init__(self, prefix):
        self._prefix = os.fspath(prefix)
        if os.path.lexists(f"{self._prefix}.index"):
            self._bundle = BundleReader(self._prefix)
            self._legacy = None
        elif legacy_json.exists(self._prefix):
            self._bundle = None
            self._legacy = legacy_json.read_checkpoint(self._prefix)
        else:
            raise _missing(self._prefix)

    def _keys(self):
        return self._bundle.keys() if self._bundle is not None else sorted(self._legacy)

    def has_tensor(self, tensor_str) -> bool:
        return tensor_str in (self._bundle if self._bundle is not None else self._legacy)

    def get_tensor(self, tensor_str):
        """The tensor's value as a NumPy array (a scalar as a NumPy scalar; strings as bytes)."""
        if not self.has_tensor(tensor_str):
            raise NotFoundError(None, None, f"Key {tensor_str} not found in checkpoint")
        value = self._bundle.read(tensor_str) if self._bundle is not None else self._legacy[tensor_str]
        return value[()] if value.ndim == 0 else value

    def get_variable_to_shape_map(self) -> dict:
        if self._bundle is not None:
            return {key: list(self._bundle.shape(key)) for key in self._keys()}
        return {key: list(np.shape(value)) for key, value in self._legacy.items()}

    def get_variable_to_dtype_map(self) -> dict:
        if self._bundle is not None:
            return {key: self._bundle.dtype(key) for key in self._keys()}
        return {key: _dt.string if value.dtype.kind in "OSU" else _dt.from_numpy(value.dtype)
                for key, value in self._legacy.items()}

    def debug_string(self) -> bytes:
        shapes, dtypes = self.get_variable_to_shape_map(), self.get_variable_to_dtype_map()
        return "".join(f"{key} ({dtypes[key].name}) {shapes[key]}\n" for key in self._keys()).encode()


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    """A CheckpointReader over `ckpt_dir_or_file` (a prefix, or a directory's newest checkpoint)."""
    return CheckpointReader(checkpoint_prefix(ckpt_dir_or_file))


def load_variable(ckpt_dir_or_file, name):
    """The value stored under `name` (a trailing ":0" is dropped, as TensorFlow does)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file) -> list:
    """[(key, shape)] of every tensor in the checkpoint, sorted by key."""
    reader = load_checkpoint(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    return [(key, shapes[key]) for key in sorted(shapes)]
