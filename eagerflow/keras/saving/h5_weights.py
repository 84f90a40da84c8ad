"""Keras 3's HDF5 weights layout (model.weights.h5 in a .keras archive, and .weights.h5 files),
written and read through h5py, the optional dependency `eagerflow[h5]`.

keras_layout.py says which group holds which variables; this module moves the values. Reading
trusts nothing in the file: every member must be a plain dataset reached by a hard link (not a
link to another file, not an external or virtual dataset that would pull bytes from elsewhere on
the disk), of a numeric type, with exactly the shape the model's variable has, checked before a
byte is read; a group must hold as many values as its owner has variables. Any problem, or a file
HDF5 cannot parse, raises ValueError (Keras' class for a file that does not fit the model) naming
the file through the caller's `fail`.
"""
from __future__ import annotations

import io
import warnings

import numpy as np

from .idf_weights import IDF, extra_names, give_idf, idf_value, read_idf
from .keras_layout import Entry, model_entries

HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
OPTIMIZER = "optimizer/vars"
# what h5py raises on a damaged file: its own errors are OSError, KeyError, ValueError, TypeError or RuntimeError
H5_ERRORS = (OSError, KeyError, ValueError, TypeError, RuntimeError, AttributeError, IndexError, OverflowError,
             MemoryError, SystemError)


class WeightsFileError(ValueError):
    """A weights file that does not fit the model or cannot be read; the message names the file."""


class Mismatch(Exception):
    """One object whose stored values do not fit its variables (another shape, another count): what
    `load_weights(skip_mismatch=True)` skips. `detail` says where in the file; `keras_text` is Keras' own
    sentence for the failure."""

    def __init__(self, owner, detail, keras_text):
        super().__init__(detail)
        self.owner, self.detail, self.keras_text = owner, detail, keras_text


def mismatch_report(mismatches) -> str:
    """Keras' text for objects that could not be loaded: how many, the first one's error, the list."""
    first = mismatches[0]
    return (f"A total of {len(mismatches)} objects could not be loaded. Example error message for object "
            f"{first.owner!r}:\n\n{first.keras_text}\n\nList of objects that could not be loaded:\n"
            f"[{', '.join(repr(m.owner) for m in mismatches)}]")


def h5py_or_none():
    try:
        import h5py
    except ImportError:
        return None
    return h5py


def require_h5py(path):
    h5py = h5py_or_none()
    if h5py is None:
        raise ImportError(f"Reading or writing the HDF5 weights file {path} needs h5py: pip install 'eagerflow[h5]' "
                          "(or pip install h5py).")
    return h5py


def to_h5_bytes(model, with_optimizer=True):
    """The model's weights (and optimizer state) as the bytes of a Keras 3 HDF5 file."""
    h5py = require_h5py("model.weights.h5")
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        for entry in model_entries(model, with_optimizer):
            group = f.require_group(entry.path)
            group.attrs["name"] = entry.name
            for i, variable in enumerate(entry.variables):
                _write_value(h5py, group, str(i), np.asarray(variable.numpy()))
            idf = idf_value(entry.owner)
            if idf is not None:
                group.create_dataset(IDF, data=idf)
    return buffer.getvalue()


def _write_value(h5py, group, name, value):
    if value.dtype.name == "bfloat16":  # HDF5 has no bfloat16: Keras stores 2 opaque bytes tagged with the type
        dataset = group.create_dataset(name, data=value.view(np.dtype("V2")))
        dataset.attrs["dtype"] = "bfloat16"
    else:
        group.create_dataset(name, data=value)


def open_h5(source, fail):
    """An open h5py.File from a path or bytes; `fail(problem)` makes the error for an unreadable one."""
    h5py = require_h5py(source if isinstance(source, str) else "model.weights.h5")
    try:
        return h5py.File(io.BytesIO(source) if isinstance(source, (bytes, bytearray)) else source, "r")
    except H5_ERRORS as e:
        raise fail(f"it is not a readable HDF5 file ({type(e).__name__}: {e}).") from None


def _values(h5, entry, fail, idf_found):
    """The arrays of the entry's group for its variables, checked; None when the group is absent.
    A tf-idf lookup's idf weights go to `idf_found[entry.folder]` as (layer, idf_weights.txt bytes)."""
    import h5py
    path, variables = entry.path, entry.variables
    try:
        link = h5.get(path, getlink=True)
        if link is None:
            return None
        group = h5[path] if isinstance(link, h5py.HardLink) else None
        if not isinstance(group, h5py.Group):
            raise fail(f"{path} is not a group of the file (a link or a dataset).")
        extra = extra_names(entry.owner)
        names = [n for n in group.keys() if n not in extra]
        if extra:
            idf = read_idf(group, entry.owner, path, h5.id.get_filesize(), fail)
            if idf is not None:
                idf_found[entry.folder] = (entry.owner, idf)
        if len(names) != len(variables):
            raise Mismatch(entry.owner, f"{path} holds {len(names)} values and the model's "
                                        f"{path.rsplit('/vars', 1)[0] or 'model'} has {len(variables)} variables.",
                           f"Layer '{entry.name}' expected {len(variables)} variables, but received {len(names)} "
                           f"variables during loading. Expected: {[v.name for v in variables]}")
        arrays = []
        for i, variable in enumerate(variables):
            arrays.append(_read_dataset(h5py, group, f"{path}/{i}", str(i), variable, fail, entry.owner))
        return arrays
    except (WeightsFileError, Mismatch):
        raise
    except H5_ERRORS as e:
        raise fail(f"{path} is corrupted ({type(e).__name__}: {e}).") from None


def _read_dataset(h5py, group, where, name, variable, fail, owner=None):
    if not isinstance(group.get(name, getlink=True), h5py.HardLink):
        raise fail(f"{where} is missing or is a link, not a stored value.")
    dataset = group[name]
    if not stored_in_file(h5py, dataset):
        raise fail(f"{where} is not a dataset stored in the file.")
    expected = tuple(variable.shape.as_list())
    dtype = variable.dtype.np_dtype
    stored = dataset.dtype
    if stored == np.dtype("V2") and _text(dataset.attrs.get("dtype")) == "bfloat16":
        stored = np.dtype("V2")  # read as raw bytes, viewed as bfloat16 below
    elif stored.kind not in "biuf":
        stored = None
    if stored is None or tuple(dataset.shape) != expected:
        detail = (f"weight {where} has shape {tuple(dataset.shape)} and dtype {dataset.dtype}; the model's variable "
                  f"{getattr(variable, 'path', variable.name)!r} expects {expected} and {np.dtype(dtype)}.")
        if stored is None:
            raise fail(detail)
        raise Mismatch(owner, detail, "The shape of the target variable and the shape of the target value in "
                                      f"`variable.assign(value)` must match. variable.shape={expected}, Received: "
                                      f"value.shape={tuple(dataset.shape)}. Target variable: {variable!r}")
    value = np.empty(expected, stored)
    if value.size:
        dataset.read_direct(value)
    if stored.kind == "V":
        value = value.view(_bfloat16())
    return value.astype(dtype, copy=False)


def stored_in_file(h5py, dataset):
    """A dataset whose bytes are in this file: not a virtual dataset, nor one with external storage."""
    return isinstance(dataset, h5py.Dataset) and not dataset.is_virtual and \
        dataset.id.get_create_plist().get_external_count() == 0


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _bfloat16():
    from ..._src.core import dtypes
    return dtypes.bfloat16.np_dtype


def checked_updates(h5, entries, fail, idf_found=None, mismatches=None):
    """(variable, value) for every entry's variables from `h5`, all checked before any is assigned. An entry
    whose values do not fit goes to `mismatches` when a list is given, else fails the whole load."""
    updates = []
    idf_found = {} if idf_found is None else idf_found
    for entry in entries:
        try:
            arrays = _values(h5, entry, fail, idf_found)
        except Mismatch as mismatch:
            if mismatches is None:
                raise fail(f"{mismatch.detail} {mismatch_report([mismatch])}") from None
            mismatches.append(mismatch)
            continue
        if arrays is None:
            if entry.variables:
                raise fail(f"it has no {entry.path} for the {len(entry.variables)} variables of "
                           f"'{entry.name}'.")
            continue
        updates.extend(zip(entry.variables, arrays))
    return updates


def assign_all(updates):
    for variable, value in updates:
        variable.assign(value)


def load_h5_weights(model, h5, fail, skip_optimizer=False, skip_mismatch=False):
    """The model's weights, and its optimizer's state when the file and the model both have one; a
    bad file changes nothing (every value is read and checked first). Objects whose stored values have
    other shapes or counts than their variables fail the load with Keras' "A total of N objects could not
    be loaded" (after the file and place), or with `skip_mismatch` keep their values, with that text as a
    warning, while the rest load. Returns {folder: idf_weights.txt bytes} of the tf-idf lookups that have no
    vocabulary yet (load_model adds them to the assets)."""
    idf_found, mismatches = {}, []
    updates = checked_updates(h5, model_entries(model, with_optimizer=False), fail, idf_found, mismatches)
    if mismatches and not skip_mismatch:
        raise fail(f"{mismatches[0].detail} {mismatch_report(mismatches)}")
    if mismatches:
        warnings.warn(mismatch_report(mismatches), stacklevel=4)
    optimizer = getattr(model, "optimizer", None)
    if not skip_optimizer and optimizer is not None:
        updates += optimizer_updates(h5, optimizer, fail)
    assign_all(updates)
    return {folder: idf for folder, (owner, idf) in idf_found.items() if not give_idf(owner, idf)}


def load_optimizer(h5, optimizer, fail, build_for=None):
    assign_all(optimizer_updates(h5, optimizer, fail, build_for))


def optimizer_updates(h5, optimizer, fail, build_for=None):
    """Keras' rule: a saved optimizer with another number of variables is skipped with a warning.
    `build_for`: the variables to build an unbuilt optimizer for when the file holds more than the
    iterations and learning rate (all Keras files of an optimizer that never stepped)."""
    try:
        if OPTIMIZER not in h5:
            return []
        stored = len(h5[OPTIMIZER].keys())
    except WeightsFileError:
        raise
    except H5_ERRORS as e:
        raise fail(f"{OPTIMIZER} is corrupted ({type(e).__name__}: {e}).") from None
    if build_for is not None and stored > 2 and not getattr(optimizer, "built", False):
        optimizer.build(build_for)
    variables = list(optimizer.variables)
    if stored != len(variables):
        message = (f"Skipping variable loading for optimizer '{optimizer.name}', because it has {len(variables)} "
                   f"variables whereas the saved optimizer has {stored} variables. ")
        if not variables:
            message += "This is likely because the optimizer has not been called/built yet."
        warnings.warn(message, stacklevel=4)
        return []
    return checked_updates(h5, [Entry(OPTIMIZER, optimizer.name, variables)], fail)
