"""`iter(dataset)`: an iterator over one pass, usable eagerly and inside tf.function.

Eagerly `next(it)` computes the next element now. Inside a traced function `next(it)` (or
`it.get_next()`) becomes an IteratorGetNext op that pulls from this iterator when the function
runs, so every *call* of the function advances it, as TensorFlow's iterator resource does (reading
it at trace time would freeze one element into the graph). Past the end, the op raises
OutOfRangeError "End of sequence" when the function runs (the element a call took before that is
gone, as in TensorFlow).

How the op reaches the iterator:
- an iterator passed as a tf.function argument is fed as a `resource` tensor (its handle,
  `_argument_handle`), as TensorFlow feeds its iterator resource: the trace is keyed by the
  element spec only (trace/signature.py), so every iterator of that spec shares it (TensorFlow
  2.21: `iter(ds.batch(2))` and `iter(ds.batch(3))` of a range share one trace), and the graph
  holds no iterator at all;
- an iterator the function closes over is bound to its op through a weak reference
  (`_IteratorRef`), so a cached trace does not keep it alive.
"""
from __future__ import annotations

import dis
import sys
import threading
import weakref

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.errors import OutOfRangeError
from ..graph.graph import OperatorNotAllowedInGraphError
from ..ops.registry import bind
from ..ops.variables.resource import ResourceHandle
from .stream import IteratorGetNext, IteratorHasNext, flat_arrays, unpack

_END = object()


def _next_arrays(iterator, spec):
    element = iterator._pull()
    if element is _END:
        raise OutOfRangeError(None, None, "End of sequence")
    return flat_arrays(element, spec)


def _has_next(iterator):
    """For a `for` over the iterator: is there a next element? (it is put back for get_next)"""
    element = iterator._pull()
    if element is _END:
        return np.bool_(False)
    iterator._put_back(element)
    return np.bool_(True)


class _FedIterator:
    """What the graph's IteratorGetNext holds for an iterator argument: only the element spec; the
    iterator itself is the op's input (its handle, fed at each call)."""

    def __init__(self, spec):
        self.spec = spec

    def get_next(self, iterator):
        return _next_arrays(iterator, self.spec)

    def has_next(self, iterator):
        return _has_next(iterator)


class _IteratorRef:
    """What the graph's IteratorGetNext holds for an iterator the function closes over: the
    iterator, weakly (the op's input is a constant token)."""

    def __init__(self, iterator):
        self._iterator = weakref.ref(iterator)
        self.spec = iterator.element_spec

    def _get(self):
        iterator = self._iterator()
        if iterator is None:
            raise OutOfRangeError(None, None, "The iterator this function reads no longer exists.")
        return iterator

    def get_next(self, token=None):
        return _next_arrays(self._get(), self.spec)

    def has_next(self, token=None):
        return _has_next(self._get())


class IteratorHandle(ResourceHandle):
    """An eager iterator as a tf.function input: a scalar `resource` tensor whose value is the
    iterator (what IteratorGetNext pulls from when the function runs)."""

    __slots__ = ()

    def __repr__(self):
        return "<tf.Tensor: shape=(), dtype=resource, value=<iterator handle>>"

    __str__ = __repr__


class _RestOfIterator:
    """`for x in iterator` inside a trace: a loop over the elements the iterator has left."""

    size = None

    def __init__(self, ref, token):
        self._ref, self._token = ref, token

    def has_element(self, index):
        return bind(IteratorHasNext, (self._token,), {"holder": self._ref})

    def element(self, index):
        return unpack(self._ref, bind(IteratorGetNext, (self._token,), {"holder": self._ref}))


_FOR_ITER = dis.opmap["FOR_ITER"]
_PYTHON_LOOP_MESSAGE = (
    "Iterating over a tf.data.Dataset or iterator with a Python `for` loop is not allowed while tracing a "
    "tf.function that AutoGraph did not convert (its source code is not available, or conversion is off): "
    "in a graph `next` never reaches an end, so the loop would add ops forever. Make the source available "
    "(define the function in a file), or write the loop as `dataset.reduce(...)` or `tf.while_loop`; "
    "`next(iterator)` itself is allowed.")


def _called_by_python_for_loop() -> bool:
    """Whether `__next__` was called by a Python `for` (or comprehension) in the calling frame, not by
    `next(...)`: only a loop over an unconverted function's dataset reaches here that way, and in a
    graph it would never end (TensorFlow 2.21 keeps tracing it without end)."""
    try:
        frame = sys._getframe(2)
        return frame.f_code.co_code[frame.f_lasti] == _FOR_ITER
    except (AttributeError, IndexError, ValueError):  # no frame introspection: never refuse
        return False


class OwnedIterator:
    """TensorFlow's `OwnedIterator`: `next`, `get_next`, `get_next_as_optional`, `element_spec`."""

    def __init__(self, dataset):
        self._dataset = dataset
        self._spec = dataset.element_spec
        self._ref = None
        self._handle = None  # the placeholder of a stand-in (`_symbolic`)
        if state.graph is not None:  # made inside a trace: a fresh pass at each call of the function
            from .stream import StreamLoopSource
            self._graph_pass = _IndexedPass(dataset) if dataset._indexable else StreamLoopSource(dataset)
            return
        self._graph_pass = None
        self._elements = dataset._elements()
        self._lock = threading.Lock()
        self._back = []  # elements put back by a loop's test (_IteratorRef.has_next)

    @classmethod
    def _symbolic(cls, handle, spec):
        """The stand-in a traced function receives for an iterator argument: `next` pulls from
        whatever iterator is fed to the resource placeholder `handle` when the function runs."""
        it = object.__new__(cls)
        it._dataset, it._spec, it._graph_pass = None, spec, None
        it._ref, it._handle = _FedIterator(spec), handle
        return it

    def _argument_handle(self):
        """The tensor fed for this iterator as a tf.function argument (trace/signature.py), or None
        for one made inside a trace (keyed by identity then)."""
        if self._handle is not None:  # a stand-in passed on to a nested tf.function
            return self._handle
        if self._graph_pass is not None:
            return None
        h = object.__new__(IteratorHandle)
        h._value = self
        h._dtype = _dt.resource
        return h

    @property
    def element_spec(self):
        return self._spec

    def __iter__(self):
        return self

    def __next__(self):
        if state.graph is not None:
            if _called_by_python_for_loop():
                raise OperatorNotAllowedInGraphError(_PYTHON_LOOP_MESSAGE)
            return self._next_in_graph()
        element = self._pull()
        if element is _END:
            raise StopIteration
        return element

    def _pull(self):
        """The next element or _END; one thread at a time (a Python generator is not reentrant)."""
        with self._lock:
            return self._back.pop() if self._back else next(self._elements, _END)

    def _put_back(self, element):
        with self._lock:
            self._back.append(element)

    def _loop_source(self):
        """For autograph/operators.py: `for x in iterator` inside a trace loops over what is left."""
        if self._graph_pass is not None:
            return self._graph_pass.rest()
        if self._ref is None:
            self._ref = _IteratorRef(self)
        return _RestOfIterator(self._ref, self._token())

    def _token(self):
        """The op input: the fed handle of an argument, a constant for a closed-over iterator."""
        return self._handle if self._handle is not None else convert_to_tensor(0)

    def _next_in_graph(self):
        if self._graph_pass is not None:
            return self._graph_pass.element(None)
        if self._ref is None:
            self._ref = _IteratorRef(self)
        return unpack(self._ref, bind(IteratorGetNext, (self._token(),), {"holder": self._ref}))

    def get_next(self):
        """The next element; OutOfRangeError (not StopIteration) past the end."""
        if state.graph is not None:
            return self._next_in_graph()
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self):
        """Eagerly: an Optional with the next element, or an empty one past the end."""
        if self._handle is not None or self._graph_pass is not None:
            raise NotImplementedError("get_next_as_optional inside tf.function is not supported here: "
                                      "use get_next() and catch tf.errors.OutOfRangeError outside")
        element = self._pull()
        return Optional(None if element is _END else element, self.element_spec)

    def __repr__(self):
        return f"<OwnedIterator element_spec={self.element_spec!r}>"


class _IndexedPass:
    """An iterator made inside a trace over an indexable dataset: each call of the function starts
    at element 0, so the k-th `next` is element k, computed by ops (sources may be the function's
    own tensors)."""

    def __init__(self, dataset):
        self._reader, self._size, self._index = dataset._open(1), dataset._size, 0
        self._dataset, self._graph, self._stream = dataset, state.graph, None

    def element(self, _):
        from .structure import is_static
        if self._stream is None and state.graph is not self._graph:
            # `next` inside a loop body or branch: the index must advance when the function runs,
            # so from here on the elements come from a run-time pass (opened in the function's graph).
            from .stream import StreamLoopSource
            rest = self._dataset.skip(self._index) if self._index else self._dataset
            with self._graph.as_default():
                self._stream = StreamLoopSource(rest)
        if self._stream is not None:
            return self._stream.element(None)
        if is_static(self._size) and 0 <= self._size <= self._index:
            raise OutOfRangeError(None, None, "End of sequence")
        self._index += 1
        return self._reader.element(self._index - 1, 0)

    def rest(self):
        """A loop source over the elements after those already taken; the pass ends with it."""
        from .stream import IndexLoopSource
        from .structure import is_static
        source = IndexLoopSource(self._reader, self._size, self._index)
        if is_static(self._size) and self._size >= 0:
            self._index = self._size
        return source


class Optional:
    """`tf.experimental.Optional` (also `tf.data.experimental.Optional`), eagerly: a value of
    `element_spec`'s structure, or nothing."""

    def __init__(self, value, element_spec):
        self._value, self.element_spec = value, element_spec

    @staticmethod
    def from_value(value):
        """An Optional holding `value` (a structure of tensors)."""
        from .structure import normalize, spec_of
        value = normalize(value)
        return Optional(value, spec_of(value))

    @staticmethod
    def empty(element_spec):
        """An Optional with nothing in it, of `element_spec`'s structure."""
        return Optional(None, element_spec)

    def has_value(self, name=None):
        return convert_to_tensor(self._value is not None)

    def get_value(self, name=None):
        if self._value is None:
            from ..core.errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, "The given optional does not have a value.")
        return self._value

    def __repr__(self):
        return f"<Optional has_value={self._value is not None} element_spec={self.element_spec!r}>"


class IteratorSpec:
    """`tf.data.IteratorSpec`: the type of an iterator over elements of `element_spec`."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def value_type(self):
        return OwnedIterator

    @staticmethod
    def from_value(iterator):
        return IteratorSpec(iterator.element_spec)

    def is_compatible_with(self, other):
        spec = other if isinstance(other, IteratorSpec) else IteratorSpec.from_value(other)
        return self == spec

    def __eq__(self, other):
        return isinstance(other, IteratorSpec) and repr(self._element_spec) == repr(other._element_spec)

    def __hash__(self):
        return hash(repr(self._element_spec))

    def __repr__(self):
        return f"IteratorSpec({self._element_spec!r},)"


def _numpy_value(leaf):
    """A leaf as NumPy gives it: an array (a RaggedTensor's rows, object array when their lengths differ; a
    SparseTensor made dense), as TensorFlow 2.21's NumpyIterator."""
    from ..composite.sparse_tensor import SparseTensor
    if isinstance(leaf, SparseTensor):
        indices, values = leaf.indices.numpy(), leaf.values.numpy()
        dense = np.zeros(leaf.dense_shape.numpy(), values.dtype)
        dense[tuple(indices.T)] = values
        return dense
    return leaf.numpy()


class NumpyIterator:
    """`tf.data.NumpyIterator`, what `Dataset.as_numpy_iterator()` returns: the dataset's elements
    with every tensor as a NumPy value (a string scalar as bytes, as TensorFlow gives it)."""

    def __init__(self, dataset):
        from ..core import nest
        self._nest = nest
        self._iterator = iter(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        return self._nest.map_structure(_numpy_value, next(self._iterator))

    def next(self):
        return self.__next__()

    def __repr__(self):
        return f"NumpyIterator(iterator={self._iterator!r})"
