"""Dataset transformations, each as index arithmetic over its input's reader (reader.py):
batch = a run of indices, repeat = index modulo length, take/skip = an index range, shuffle = a
permutation of indices, map = the traced function applied to the element.

Each also works over a stream input (transforms_streaming.py): it is then a stream itself, and
its `_stream()` applies the same transformation to the input's elements in Python."""
from __future__ import annotations

import functools
import itertools

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.convert import convert_to_tensor, to_array
from ..core.errors import InvalidArgumentError
from ..core.tensor import EagerTensor, Tensor
from .dataset import Dataset
from .reader import FunctionReader
from .structure import (INFINITE, UNKNOWN, NoComponents, index_range, is_static, maximum, minimum,
                        refuse_no_components)


def _count(value):
    """A count or size argument as an int: a value that is not an integer is TensorFlow's TypeError
    ("Cannot convert 'a' to EagerTensor of dtype int64"), not Python's int() error."""
    if isinstance(value, Tensor):
        return int(value.numpy())
    return int(to_array(value, _dt.int64))


def _symbolic(value):
    """Whether a count is a tensor of a graph being traced (its value known only at run time)."""
    return isinstance(value, Tensor) and not isinstance(value, EagerTensor)


_UNBOUNDED = np.iinfo(np.int32).max // 2  # "endless" where a count is symbolic (room for size arithmetic)


def _count_tensor(value):
    from ..ops.math.elementwise import cast
    return cast(value, _dt.int32)


def _infinite(n):
    return is_static(n) and n == INFINITE


def _unknown(n):
    return is_static(n) and n == UNKNOWN


class PassThroughDataset(Dataset):
    """cache / with_options (and prefetch, below): the input's elements unchanged."""

    def __init__(self, parent, name):
        self._parent, self._name = parent, name
        self._spec, self._size = parent.element_spec, parent._size
        self._indexable = parent._indexable

    def _open(self, epochs):
        return self._parent._open(epochs)

    def _stream(self):
        return self._parent._elements()


class PrefetchDataset(PassThroughDataset):
    """The input's elements, computed ahead by a producer thread when iterated eagerly (data/parallel.py)."""

    def __init__(self, parent, buffer_size):
        super().__init__(parent, "_PrefetchDataset")
        self._buffer = int(buffer_size.numpy()) if isinstance(buffer_size, EagerTensor) else buffer_size

    def _elements(self):
        from .parallel import prefetched
        if not is_static(self._buffer):  # a size known only when a traced function runs: no thread
            return self._parent._elements()
        return prefetched(self._parent._elements(), int(self._buffer))


class BatchDataset(Dataset):
    """Element j: rows j*b .. j*b+b-1 of the input stacked; the last batch may be short unless
    drop_remainder, so the static batch dimension is None unless drop_remainder."""
    _name = "_BatchDataset"

    def __init__(self, parent, batch_size, drop_remainder):
        self._parent = parent
        if _symbolic(batch_size):  # inside a trace, known at run time only: no static batch dimension
            self._b = b = _count_tensor(batch_size)
        else:
            self._b = b = _count(batch_size)
            if b <= 0:
                raise InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        self._drop = bool(drop_remainder)
        lead = b if self._drop and is_static(b) else None
        from .composite_elements import batched_spec
        self._spec = batched_spec(parent.element_spec, lead)
        n = parent._size
        self._n = n
        self._indexable = parent._indexable
        if _infinite(n) or _unknown(n):
            self._size = n
        else:
            whole = n if is_static(b) else convert_to_tensor(n)
            self._size = whole // b if self._drop else (whole + b - 1) // b

    def _open(self, epochs):
        parent = self._parent._open(epochs)
        b, n = self._b, self._n

        def element(j, epoch):
            start = j * b
            if self._drop:
                idx = start + np.arange(b, dtype=np.int32) if not is_static(start) and is_static(b) else \
                    index_range(start, start + b)
            else:
                stop = start + b if _infinite(n) else minimum(start + b, n)
                idx = index_range(start, stop)
            return parent.gather(idx, epoch)
        return FunctionReader(self._spec, element)

    def _stream(self):
        from .composite_elements import has_composites, stack_with_spec
        from .structure import stack_elements
        spec = self._parent.element_spec
        stack = functools.partial(stack_with_spec, spec) if has_composites(spec) else stack_elements
        b, rows = int(self._b), []
        if hasattr(self._parent, "_batches"):  # a source that cuts whole batches itself (CsvDataset)
            yield from self._parent._batches(b, self._drop)
            return
        for element in self._parent._elements():
            rows.append(element)
            if len(rows) == b:
                yield stack(rows)
                rows = []
        if rows and not self._drop:
            yield stack(rows)


class MapDataset(Dataset):
    """map_func traced once (as tf.function does) over the input's element spec; eagerly each
    element runs the traced function, inside a traced loop its ops are inlined in the body.
    As in TensorFlow a tuple element is passed as separate arguments, anything else as one."""
    _name = "_MapDataset"

    def __init__(self, parent, map_func):
        from .functions import call_with_element, output_spec, trace
        if not callable(map_func):
            raise ValueError(f"Argument `func` must be a callable. Received func={map_func} (of type "
                             f"{type(map_func)})")
        self._parent = parent
        try:
            self._concrete = trace(map_func, parent.element_spec, call_with_element,
                                   name=getattr(map_func, "__name__", "map_func"))
        except NoComponents:
            raise refuse_no_components("MapDataset", "output_types", "output_shapes", self._built_in_trace) from None
        self._spec = output_spec(self._concrete)
        self._size = parent._size
        from .composite_elements import has_composites
        # RaggedTensor/SparseTensor results: a stream (data/composite_elements.py)
        self._indexable = parent._indexable and not has_composites(self._spec)

    _parallel = 1  # num_parallel_calls as a count of threads (data/parallel.py); set by Dataset.map

    def _open(self, epochs):
        parent = self._parent._open(epochs)

        def element(i, epoch):
            return self._concrete(*nest.flatten(parent.element(i, epoch), expand_composites=True))
        if self._parallel <= 1:
            return FunctionReader(self._spec, element)
        from .parallel import map_all
        from .structure import stack_elements

        def rows(indices, epoch):  # a batch above gathers its rows `_parallel` at a time
            if not isinstance(indices, np.ndarray):
                return reader._gather_loop(indices, epoch)
            return stack_elements(map_all(lambda i: element(int(i), epoch), indices, self._parallel))
        reader = FunctionReader(self._spec, element, rows)
        return reader

    def _indexed_elements(self):
        if self._parallel <= 1:
            return super()._indexed_elements()
        from .parallel import ordered_map
        n = self._size
        if not is_static(n):
            return super()._indexed_elements()
        reader = self._open(1)
        indices = itertools.count() if n == INFINITE else range(int(n))
        return ordered_map(lambda i: reader.element(i, 0), indices, self._parallel)

    def _stream(self):
        from .parallel import ordered_map
        flat = functools.partial(nest.flatten, expand_composites=True)
        return ordered_map(lambda element: self._concrete(*flat(element)), self._parent._elements(), self._parallel)


class RepeatDataset(Dataset):
    """Element i: the input's element i mod n, in sweep i // n (a shuffle below reorders per sweep)."""
    _name = "_RepeatDataset"

    def __init__(self, parent, count):
        self._parent = parent
        self._spec = parent.element_spec
        self._indexable = parent._indexable
        n = parent._size
        if _symbolic(count):  # inside a trace, known at run time only (negative: without end)
            from ..ops.array.basic import where
            self._count = c = _count_tensor(count)
            if _infinite(n) or (is_static(n) and n == 0):
                self._size = n
            else:
                self._size = where(c < 0, _count_tensor(convert_to_tensor(_UNBOUNDED)), n * c)
            return
        count = -1 if count is None else _count(count)
        self._count = None if count < 0 else count
        if _infinite(n):
            self._size = INFINITE
        elif self._count is None:
            self._size = 0 if is_static(n) and n == 0 else INFINITE
        elif _unknown(n):
            self._size = UNKNOWN
        else:
            self._size = n * self._count

    def _stream(self):
        sweep = 0
        while self._count is None or sweep < int(self._count):
            empty = True
            for element in self._parent._elements():
                empty = False
                yield element
            if empty:  # an empty input repeated without end is still empty
                return
            sweep += 1

    def _open(self, epochs):
        c = self._count
        # A count known at run time only: the input is opened as if swept without end.
        parent = self._parent._open(None if epochs is None or c is None or not is_static(c) else epochs * c)
        n = self._parent._size
        if _infinite(n):
            return parent

        def element(i, epoch):
            sweep = i // n
            return parent.element(i % n, sweep if c is None else epoch * c + sweep)
        return FunctionReader(self._spec, element)


class TakeDataset(Dataset):
    _name = "_TakeDataset"

    def __init__(self, parent, count):
        self._parent, self._spec = parent, parent.element_spec
        self._indexable = parent._indexable
        n = parent._size
        if _symbolic(count):  # inside a trace: min(count, n), all of it when count < 0
            from ..ops.array.basic import where
            k = _count_tensor(count)
            cap = _count_tensor(convert_to_tensor(_UNBOUNDED if _infinite(n) else n))
            self._size = minimum(where(k < 0, cap, k), cap)
            return
        k = self._k = _count(count)
        self._size = n if k < 0 or _unknown(n) else (k if _infinite(n) else minimum(k, n))

    def _open(self, epochs):
        return self._parent._open(epochs)

    def _stream(self):
        k = self._k
        if k == 0:
            return
        for i, element in enumerate(self._parent._elements()):
            yield element
            if i + 1 == k:
                return


class SkipDataset(Dataset):
    _name = "_SkipDataset"

    def __init__(self, parent, count):
        self._parent, self._spec = parent, parent.element_spec
        self._indexable = parent._indexable
        n = parent._size
        if _symbolic(count):  # inside a trace: n - count clipped at 0, nothing when count < 0
            from ..ops.array.basic import where
            k = self._k = _count_tensor(count)
            rest = _count_tensor(convert_to_tensor(_UNBOUNDED)) if _infinite(n) else maximum(n - k, 0)
            self._size = where(k < 0, _count_tensor(convert_to_tensor(0)), rest)
            return
        k = _count(count)
        self._k = k
        self._size = 0 if k < 0 else (n if _infinite(n) or _unknown(n) else maximum(n - k, 0))

    def _open(self, epochs):
        parent, k = self._parent._open(epochs), self._k
        return FunctionReader(self._spec, lambda i, e: parent.element(i + k, e),
                              lambda idx, e: parent.gather(idx + k, e))

    def _stream(self):
        if self._k < 0:
            return
        for i, element in enumerate(self._parent._elements()):
            if i >= self._k:
                yield element


class ShardDataset(Dataset):
    """Every num_shards-th element from `index` on: element i is the input's i * num_shards + index."""
    _name = "_ShardDataset"

    def __init__(self, parent, num_shards, index):
        self._parent, self._spec = parent, parent.element_spec
        self._indexable = parent._indexable
        k, j = _count(num_shards), _count(index)
        if k <= 0:
            raise InvalidArgumentError(None, None, f"Number of shards must be greater than zero (currently "
                                                   f"num_shards = {k}).")
        if not 0 <= j < k:
            raise InvalidArgumentError(None, None, f"Index must be between 0 and {k - 1} (currently index = {j}).")
        self._k, self._j = k, j
        n = parent._size
        if is_static(n) and n < 0:
            self._size = n
        else:
            self._size = maximum((n - j + k - 1) // k, 0) if is_static(n) else (n - j + k - 1) // k

    def _open(self, epochs):
        parent, k, j = self._parent._open(epochs), self._k, self._j
        return FunctionReader(self._spec, lambda i, e: parent.element(i * k + j, e),
                              lambda idx, e: parent.gather(idx * k + j, e))

    def _stream(self):
        for i, element in enumerate(self._parent._elements()):
            if i % self._k == self._j:
                yield element
