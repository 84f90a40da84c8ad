"""A tf.data Dataset as a tf.function argument: keyed by its pipeline, fed its tensors.

TensorFlow passes a dataset to a function as a variant tensor and keys the trace by its element
spec, so `ds.batch(3)` and `ds.batch(4)` share a trace. Here a dataset is a Python description
(data/), so the trace rebuilds the pipeline on placeholders instead: every dataset records its
class and constructor arguments (`_recipe`, data/dataset.py); the key is the pipeline's structure
with the run-time parts left out, which become tensor inputs of the trace:
  * the tensors of `from_tensor_slices` (first dimension unknown: any length) and `from_tensors`;
  * counts: a batch size, `take`/`skip`/`repeat` counts (int64 scalars);
  * everything else keys by value (`range` bounds, drop_remainder, a map function by identity):
    `Dataset.range(5)` and `Dataset.range(10)` trace apart (TensorFlow shares their trace).
A dataset whose pipeline has a step not listed below keys by identity (signature.py's rule for
objects), so it stays correct, only without sharing.

A pipeline that contains a stream (filter, flat_map, from_generator, ...: data/stream.py) or any
other step not listed in `_ARGUMENTS` cannot be rebuilt: its elements come from the user's Python
objects, which the trace holds (weakly) and does not feed. Such a dataset keys by identity (held
weakly), so a trace is never reused for another dataset whose data it cannot feed; so does a
dataset changed after it was built (`Dataset.counter`, `with_options`: `_recipe` is None).

Iterators are not keyed here: an iterator argument is fed as its resource handle and keyed by its
element spec (signature.py, data/iterator.py).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.convert import convert_to_tensor
from ..core.tensor import DeviceTensor, EagerTensor, TensorSpec
from ..ops.variables.resource import ResourceHandle
from . import signature as sig

DATASET = "D"

# Per dataset class (by name: trace/ does not import data/), what each constructor argument is.
_ARGUMENTS = {
    "_TensorSliceDataset": ("sliced",),
    "_TensorDataset": ("whole",),
    # Range bounds stay values: as inputs, every loop over a range would compute its element with
    # three more ops per iteration (a cast, a multiply and an add the passes fold away for
    # constants), a price every range loop would pay for traces shared between different ranges.
    "_RangeDataset": ("static", "static"),
    "BatchDataset": ("dataset", "count", "static"),
    "MapDataset": ("dataset", "static"),
    "RepeatDataset": ("dataset", "count"),
    "TakeDataset": ("dataset", "count"),
    "SkipDataset": ("dataset", "count"),
    "PassThroughDataset": ("dataset", "static"),
    "PrefetchDataset": ("dataset", "static"),
}


def is_dataset(value) -> bool:
    return "_recipe" in getattr(value, "__dict__", ()) and hasattr(value, "element_spec")


def dataset_key(ds, tensors):
    """The key part of a dataset argument, appending its run-time inputs to `tensors`; None when
    the pipeline cannot be rebuilt (then nothing is appended)."""
    mark = len(tensors)
    part = _key(ds, tensors)
    if part is None:
        del tensors[mark:]
    else:  # the dataset itself last: a stream the function builds over it reads it (data/stream.py)
        tensors.append(_handle(ds))
    return part


class _DatasetHandle(ResourceHandle):
    """A dataset argument as a `resource` input of its trace."""

    __slots__ = ()

    def __repr__(self):
        return "<tf.Tensor: shape=(), dtype=resource, value=<dataset handle>>"

    __str__ = __repr__


def _handle(ds):
    h = object.__new__(_DatasetHandle)
    h._value = ds
    h._dtype = _dt.resource
    return h


def _key(ds, tensors):
    recipe = ds._recipe
    if recipe is None:
        return None
    cls, args, kwargs = recipe
    kinds = _ARGUMENTS.get(cls.__name__)
    if kinds is None or kwargs or len(args) != len(kinds):
        return None
    parts = []
    for kind, arg in zip(kinds, args):
        if kind == "dataset":
            part = _key(arg, tensors) if is_dataset(arg) else None
        elif kind == "count":
            part = _count(arg, tensors)
        elif kind == "counts":
            counts = [_count(a, tensors) for a in arg]
            part = None if None in counts else tuple(counts)
        elif kind in ("sliced", "whole"):
            inner = []
            part = sig.key_of(ds._tensors, inner)  # the normalized components
            if not all(type(t) in (EagerTensor, DeviceTensor) for t in inner):
                return None
            tensors.extend(inner)
            if kind == "sliced":
                part = _any_length(part)
        else:
            probe = []
            part = sig.key_of(arg, probe)
            if probe:  # a tensor where a Python value is expected: not rebuilt
                return None
        if part is None:
            return None
        parts.append((kind, part))
    return (DATASET, cls, tuple(parts))


def _count(value, tensors):
    if value is None or isinstance(value, bool):
        return ("static", value) if value is None else None
    if isinstance(value, (int, np.integer)) or (type(value) in (EagerTensor, DeviceTensor) and value.shape.rank == 0
                                                 and value.dtype.is_integer):
        tensors.append(convert_to_tensor(np.int64(int(value))))
        return (sig.TENSOR, _dt.int64, ())
    return None


def _any_length(part):
    """A key part with the first dimension of every tensor unknown."""
    if type(part) is tuple and part and part[0] == sig.TENSOR:
        shape = part[2]
        return part if not shape else (sig.TENSOR, part[1], (None,) + tuple(shape[1:]))
    if type(part) is tuple:
        return tuple(_any_length(p) for p in part)
    return part


def rebuild_argument(ds, key, placeholder):
    """The pipeline of a dataset argument over `placeholder(TensorSpec)` stand-ins, made in input
    order (the order `dataset_key` appended the tensors in). The rebuilt dataset's `_fed_as` is
    the placeholder the argument itself is fed to: a stream built over it inside the function
    runs over the dataset of each call (data/stream.py)."""
    rebuilt = rebuild(ds, key, placeholder)
    rebuilt._fed_as = placeholder(TensorSpec([], _dt.resource))
    return rebuilt


def rebuild(ds, key, placeholder):
    _, cls, parts = key
    args = []
    for arg, (kind, part) in zip(ds._recipe[1], parts):
        if kind == "dataset":
            args.append(rebuild(arg, part, placeholder))
        elif kind == "count":
            args.append(arg if part[0] == "static" else placeholder(TensorSpec([], _dt.int64)))
        elif kind == "counts":
            args.append(tuple(placeholder(TensorSpec([], _dt.int64)) for _ in part))
        elif kind in ("sliced", "whole"):
            specs = []
            _specs(part, specs)
            flat = [placeholder(s) for s in specs]
            nested = nest.is_nested(ds._tensors, expand_composites=True)
            args.append(nest.pack_sequence_as(ds._tensors, flat, expand_composites=True) if nested else flat[0])
        else:
            args.append(arg)
    return cls(*args)


def _specs(part, out):
    if type(part) is tuple and part and part[0] == sig.TENSOR:
        out.append(TensorSpec(sig.tensor_spec_shape(part), part[1]))
    elif type(part) is tuple:
        for p in part:
            _specs(p, out)
