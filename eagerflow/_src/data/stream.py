"""Running a dataset's Python at run time from inside a traced function.

An indexable dataset becomes ops in the graph (each element computed from its index, reader.py).
A stream (filter, flat_map, from_generator, ...) is Python that yields elements, so inside a trace
it is reached through three stateful ops, as TensorFlow reaches its dataset kernels through an
iterator resource:

  IteratorOpenPass(fed..., holder)  starts a fresh pass (one per call of the function); its inputs
                                    are the tf.function's dataset arguments the stream reads
  IteratorHasNext(token, holder)    pulls the next element into the holder: is there one?
  IteratorGetNext(token, holder)    hands out that element (or pulls one: `next(iterator)`)

(For an iterator passed into a tf.function the token is the iterator itself, fed as a resource
tensor, and the holder knows only the element spec: data/iterator.py.)

The holder is a Python object bound to the ops as an attribute (codegen binds it as a global of
the generated code). A pass lives in thread-local storage, so calls from several threads each
run their own pass. The elements are eager values, so a stream's sources must be eager: a stream
built inside the function over the function's own tensors cannot run at run time (TypeError).
"""
from __future__ import annotations

import copy
import threading
import weakref

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import InvalidArgumentError, OutOfRangeError
from ..core.shape import TensorShape
from ..core.tensor import EagerTensor, Tensor
from ..ops.registry import FILES, NO_GRADIENT, PYTHON, Spec, bind, defop
from .structure import is_static

_END = object()


def flat_arrays(element, spec):
    """The element's components as NumPy arrays (what the op's kernel returns)."""
    flat = nest.flatten(element, expand_composites=True)
    return tuple(np.asarray(t._value if isinstance(t, EagerTensor) else t) for t in flat)


def _detached(dataset):
    """The dataset as a graph may hold it: one built while tracing belongs to the graph (copied,
    held strongly), one from outside (the user's, maybe a trace-cache key) only by weak proxy, so a
    cached trace never keeps its own key alive, e.g. `for x in ds.filter(p)` with `ds` an argument."""
    from .dataset import Dataset
    if not dataset._built_in_trace:
        return weakref.proxy(dataset)
    if "_fed_as" in vars(dataset):  # a dataset argument's rebuilt pipeline: replaced at each run (_substituted)
        return dataset
    clone = copy.copy(dataset)
    for name, value in vars(dataset).items():
        if isinstance(value, Dataset):
            setattr(clone, name, _detached(value))
        elif isinstance(value, (tuple, list, dict)) and any(
                isinstance(v, Dataset) for v in nest.flatten(value, expand_composites=True)):
            setattr(clone, name, nest.map_structure(lambda v: _detached(v) if isinstance(v, Dataset) else v, value,
                                                    expand_composites=True))
    return clone


def _substituted(dataset, replace):
    """A copy of a chain built while tracing with the nodes in `replace` (id -> dataset) swapped."""
    from .dataset import Dataset
    if id(dataset) in replace:
        return replace[id(dataset)]
    if not dataset._built_in_trace:
        return dataset

    def swap(v):
        return _substituted(v, replace) if isinstance(v, Dataset) else v
    clone = copy.copy(dataset)
    for name, value in vars(dataset).items():
        if isinstance(value, Dataset):
            setattr(clone, name, swap(value))
        elif isinstance(value, (tuple, list, dict)) and any(
                isinstance(v, Dataset) for v in nest.flatten(value, expand_composites=True)):
            setattr(clone, name, nest.map_structure(swap, value, expand_composites=True))
    return clone


class PassHolder:
    """One run-time pass over a dataset per thread. A dataset the user passed in is held weakly
    (the graph that binds this holder must not keep it alive through a trace-cache entry); one
    built while tracing belongs to the graph (see _detached).

    `fed`: the tf.function's dataset arguments the chain reads, as the trace rebuilt them on
    placeholders (trace/datasets.py sets `_fed_as`, their resource placeholder). Their elements
    are Python-reachable only through the datasets the call passes, so IteratorOpenPass takes
    those as inputs and each pass runs the chain over them."""

    def __init__(self, dataset, fed=()):
        if dataset._built_in_trace:
            owned = _detached(dataset)
            self._dataset = lambda: owned
        else:
            self._dataset = weakref.ref(dataset)
        self._fed = list(fed)  # held: built on placeholders, they hold none of the user's data
        self.spec = dataset.element_spec
        self._local = threading.local()

    def open(self, *fed):
        dataset = self._dataset()
        if dataset is None:
            raise OutOfRangeError(None, None, "The dataset this loop iterates no longer exists.")
        if self._fed:
            dataset = _substituted(dataset, {id(node): value for node, value in zip(self._fed, fed)})
        try:
            self._local.elements = dataset._elements()
        except ReferenceError:  # a weakly held input of a dataset built while tracing
            raise OutOfRangeError(None, None, "The dataset this loop iterates no longer exists.") from None
        self._local.peeked = _END
        return np.int32(0)

    def has_next(self, token=None):
        local = self._local
        if local.peeked is _END:
            local.peeked = next(local.elements, _END)
        return np.bool_(local.peeked is not _END)

    def get_next(self, token=None):
        local = self._local
        value = local.peeked if local.peeked is not _END else next(local.elements, _END)
        local.peeked = _END
        if value is _END:
            raise OutOfRangeError(None, None, "End of sequence")
        return flat_arrays(value, self.spec)


def _spec_outputs(holder):
    from .composite_elements import component_specs
    return [Spec(s.shape, s.dtype) for s in component_specs(holder.spec)]


IteratorOpenPass = defop(
    "IteratorOpenPass", inputs=("fed_datasets",), kernel=lambda *fed, holder: holder.open(*fed),
    grad=NO_GRADIENT, stateful=True,
    infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.int32)],
    doc="Starts a fresh pass over a stream dataset (once per call of the traced function).")

IteratorHasNext = defop(
    "IteratorHasNext", inputs=("token",), kernel=lambda token, holder: holder.has_next(token), grad=NO_GRADIENT,
    stateful=True, infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.bool_)],
    doc="Pulls the pass's next element into its holder; false at the end.")

IteratorGetNext = defop(
    "IteratorGetNext", inputs=("token",), kernel=lambda token, holder: holder.get_next(token), grad=NO_GRADIENT,
    multi_output=True, stateful=True, infer=lambda inputs, attrs: _spec_outputs(attrs["holder"]),
    doc="The next element of a pass or iterator (OutOfRangeError past the end).")


# A pipeline's sources read files (TFRecordDataset, TextLineDataset) and its transforms may run Python.
IteratorOpenPass.effects = IteratorHasNext.effects = IteratorGetNext.effects = FILES | PYTHON


def _check_eager_sources(dataset):
    """Refuses a stream over tensors of the function being traced; returns the tf.function dataset
    arguments it reads (rebuilt on placeholders: fed at run time, see PassHolder)."""
    from .dataset import Dataset
    seen, stack, fed = set(), [dataset], []
    while stack:
        ds = stack.pop()
        if id(ds) in seen:
            continue
        seen.add(id(ds))
        if vars(ds).get("_fed_as") is not None:
            fed.append(ds)
            continue
        for value in vars(ds).values():
            for leaf in (nest.flatten(value, expand_composites=True) if isinstance(value, (tuple, dict)) else [value]):
                if isinstance(leaf, Dataset):
                    stack.append(leaf)
                elif isinstance(leaf, Tensor) and not isinstance(leaf, EagerTensor):
                    raise TypeError(f"{type(dataset).__name__.lstrip('_')} over tensors of the function being "
                                    "traced cannot be iterated here: build this dataset outside the tf.function "
                                    "and pass it in (its Python runs when the function runs)")
    return fed


def unpack(holder, values):
    from .composite_elements import pack_components
    values = values if isinstance(values, (list, tuple)) else [values]
    return pack_components(holder.spec, values)


class StreamLoopSource:
    """A `for` over a stream inside a trace: the loop's test pulls the next element
    (`has_element`), its body takes it (`element`)."""

    size = None

    def __init__(self, dataset):
        from .structure import DatasetSpec
        if any(isinstance(s, DatasetSpec) for s in nest.flatten(dataset.element_spec, expand_composites=True)):
            raise TypeError("Elements that are datasets (`window`'s) cannot be loop values inside tf.function: "
                            "turn each window into tensors first, e.g. `.flat_map(lambda w: w.batch(size))`")
        fed = _check_eager_sources(dataset)
        self._holder = PassHolder(dataset, fed)
        self._token = bind(IteratorOpenPass, tuple(d._fed_as for d in fed), {"holder": self._holder})

    def has_element(self, index):
        return bind(IteratorHasNext, (self._token,), {"holder": self._holder})

    def element(self, index):
        return unpack(self._holder, bind(IteratorGetNext, (self._token,), {"holder": self._holder}))

    def rest(self):
        """A `for` over an iterator made on this pass: the loop continues the same pass."""
        return self


class _SingleHolder:
    """get_single_element inside a trace: each run opens a pass (IteratorOpenPass, before) and
    takes exactly one element."""

    def __init__(self, dataset, fed):
        self._pass = PassHolder(dataset, fed)
        self.spec = self._pass.spec

    def get_next(self, token=None):
        if not self._pass.has_next():
            raise InvalidArgumentError(None, None, "Dataset was empty.")
        value = self._pass.get_next()
        if self._pass.has_next():
            raise InvalidArgumentError(None, None, "Dataset had more than one element.")
        return value


def single_element(dataset):
    from ..core.context import state
    if state.graph is None:
        elements = dataset._elements()
        first = next(elements, _END)
        if first is _END:
            raise InvalidArgumentError(None, None, "Dataset was empty.")
        if next(elements, _END) is not _END:
            raise InvalidArgumentError(None, None, "Dataset had more than one element.")
        return first
    if dataset._indexable and is_static(dataset._size) and dataset._size == 1:
        return dataset._open(1).element(0, 0)
    fed = _check_eager_sources(dataset)
    holder = _SingleHolder(dataset, fed)
    token = bind(IteratorOpenPass, tuple(d._fed_as for d in fed), {"holder": holder._pass})
    return unpack(holder, bind(IteratorGetNext, (token,), {"holder": holder}))


class IndexLoopSource:
    """A `for` over an indexable dataset inside a trace: elements offset..size-1 of one pass
    (size None: without end)."""

    def __init__(self, reader, size, offset=0):
        self._reader, self._offset = reader, offset
        self.size = None if (is_static(size) and size < 0) else size - offset

    def element(self, index):
        return self._reader.element(index + self._offset if self._offset else index, 0)


def loop_source(dataset):
    if dataset._indexable:
        return IndexLoopSource(dataset._open(1), dataset._size)
    return StreamLoopSource(dataset)
