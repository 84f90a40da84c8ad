"""zip, concatenate, unbatch (and enumerate, which is a zip with a range): datasets combined or
re-cut without user functions. Each keeps index arithmetic where its inputs allow it (so it
stays ops in a traced loop) and is a stream otherwise."""
from __future__ import annotations

import numpy as np

from ..core import nest
from ..core.errors import InvalidArgumentError
from ..core.tensor import TensorSpec
from .dataset import Dataset
from .reader import FunctionReader, Reader
from .structure import INFINITE, UNKNOWN, is_static, minimum


def zip_datasets(args, datasets):
    if not args and datasets is None:
        raise TypeError("Must pass at least one dataset to `zip`.")
    if args and datasets is not None:
        raise TypeError("Both `*args` and `datasets` cannot be set.")
    structure = datasets if datasets is not None else (args[0] if len(args) == 1 else tuple(args))
    return ZipDataset(structure)


def _check_zip_input(structure):
    if isinstance(structure, list):
        raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                        "`tf.data.Dataset` objects. Python `list` is not supported and you should use `tuple` "
                        "instead.")
    if isinstance(structure, tuple):
        for value in structure:
            _check_zip_input(value)
    elif isinstance(structure, dict):
        for value in structure.values():
            _check_zip_input(value)
    elif not isinstance(structure, Dataset):
        raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                        f"`tf.data.Dataset` objects but encountered object of type {type(structure)}.")


class ZipDataset(Dataset):
    """Element i: element i of every input, in the inputs' structure; as long as the shortest."""
    _name = "_ZipDataset"

    def __init__(self, structure):
        _check_zip_input(structure)
        self._structure = structure
        self._inputs = nest.flatten(structure, expand_composites=True)
        self._spec = nest.pack_sequence_as(structure, [d.element_spec for d in self._inputs], expand_composites=True)
        self._indexable = all(d._indexable for d in self._inputs)
        sizes = [d._size for d in self._inputs]
        if any(is_static(n) and n == UNKNOWN for n in sizes):
            self._size = UNKNOWN
        else:
            finite = [n for n in sizes if not (is_static(n) and n == INFINITE)]
            self._size = INFINITE if not finite else finite[0]
            for n in finite[1:]:
                self._size = minimum(self._size, n)

    def _open(self, epochs):
        readers = [d._open(epochs) for d in self._inputs]

        def pack(parts):
            return nest.pack_sequence_as(self._structure, parts, expand_composites=True)
        return FunctionReader(self._spec, lambda i, e: pack([r.element(i, e) for r in readers]),
                              lambda idx, e: pack([r.gather(idx, e) for r in readers]))

    def _stream(self):
        streams = [d._elements() for d in self._inputs]
        end = object()
        while True:
            parts = [next(s, end) for s in streams]
            if any(p is end for p in parts):
                return
            yield nest.pack_sequence_as(self._structure, parts, expand_composites=True)


def compatible_spec(a, b):
    """The spec both elements fit (shapes relaxed), or TensorFlow's TypeError."""
    def incompatible():
        return TypeError(f"Incompatible dataset elements:\n  {a} vs.   {b}")
    try:
        nest.assert_same_structure(a, b, expand_composites=True)
    except (ValueError, TypeError):
        raise incompatible() from None
    flat_a, flat_b = nest.flatten(a, expand_composites=True), nest.flatten(b, expand_composites=True)
    if any(x.dtype != y.dtype or type(x) is not type(y) or getattr(x, "ragged_rank", 0) != getattr(y, "ragged_rank", 0)
           for x, y in zip(flat_a, flat_b)):
        raise incompatible()
    return nest.pack_sequence_as(a, [_relaxed(x, x.shape.most_specific_compatible_shape(y.shape))
                                     for x, y in zip(flat_a, flat_b)], expand_composites=True)


def _relaxed(spec, shape):
    """`spec` (a TensorSpec, RaggedTensorSpec or SparseTensorSpec) with `shape`."""
    from ..composite.ragged_tensor import RaggedTensorSpec
    from ..composite.sparse_tensor import SparseTensorSpec
    if isinstance(spec, RaggedTensorSpec):
        return RaggedTensorSpec(shape, spec.dtype, spec.ragged_rank, spec.row_splits_dtype)
    if isinstance(spec, SparseTensorSpec):
        return SparseTensorSpec(shape, spec.dtype)
    return TensorSpec(shape, spec.dtype)


class ConcatenateDataset(Dataset):
    """The first input's elements, then the second's. Index arithmetic when both inputs are
    indexable and the first has a known length n (element i >= n is the second's i - n; with a
    symbolic index, a tf.cond picks the input), else a stream."""
    _name = "_ConcatenateDataset"

    def __init__(self, first, second):
        if not isinstance(second, Dataset):
            raise TypeError(f"`dataset` must be a `tf.data.Dataset` object, got {type(second)}.")
        self._inputs = (first, second)
        self._spec = compatible_spec(first.element_spec, second.element_spec)
        a, b = first._size, second._size
        if not (is_static(a) and is_static(b)):
            self._size = UNKNOWN if (is_static(a) and a < 0) or (is_static(b) and b < 0) else a + b
        elif INFINITE in (a, b):
            self._size = INFINITE
        elif UNKNOWN in (a, b):
            self._size = UNKNOWN
        else:
            self._size = a + b
        self._indexable = first._indexable and second._indexable and is_static(a) and a >= 0 and \
            not (is_static(b) and b == UNKNOWN)

    def _open(self, epochs):
        first, second = (d._open(epochs) for d in self._inputs)
        n = self._inputs[0]._size
        spec = self._spec

        def element(i, epoch):
            if is_static(i):
                return first.element(i, epoch) if i < n else second.element(i - n, epoch)
            from ..control_flow.cond import cond
            flat = cond(i < n, lambda: nest.flatten(first.element(i, epoch), expand_composites=True),
                        lambda: nest.flatten(second.element(i - n, epoch), expand_composites=True))
            return nest.pack_sequence_as(spec, list(flat) if isinstance(flat, (list, tuple)) else [flat],
                                         expand_composites=True)

        def gather(indices, epoch):
            if isinstance(indices, np.ndarray) and (indices < n).all():
                return first.gather(indices, epoch)
            if isinstance(indices, np.ndarray) and (indices >= n).all():
                return second.gather(indices - n, epoch)
            return Reader.gather(reader, indices, epoch)
        reader = FunctionReader(spec, element, gather)
        return reader

    def _stream(self):
        for dataset in self._inputs:
            yield from dataset._elements()


def _leading_dim(spec):
    flat = nest.flatten(spec, expand_composites=True)
    dims = []
    for s in flat:
        if s.shape.rank == 0:
            raise ValueError("Cannot unbatch an input with scalar components.")
        dims.append(s.shape[0] if s.shape.rank is not None else None)
    known = [d for d in dims if d is not None]
    for d in known[1:]:
        if d != known[0]:
            raise ValueError("`unbatch()` is only supported for datasets of elements whose components have a "
                             f"matching leading dimension. Encountered both {known[0]} and {d}.")
    return known[0] if known and len(known) == len(dims) else None


def unbatch(parent):
    return UnbatchDataset(parent, _leading_dim(parent.element_spec))


class UnbatchDataset(Dataset):
    """Each input element's rows, one element per row. Index arithmetic (element i = row i mod d
    of input element i // d) when every input element has the same known number of rows d."""
    _name = "_UnbatchDataset"

    def __init__(self, parent, rows):
        from .composite_elements import unbatched_spec
        self._parent, self._d = parent, rows
        self._spec = unbatched_spec(parent.element_spec)
        n = parent._size
        self._indexable = parent._indexable and rows is not None and is_static(n)
        if rows is None or not is_static(n):
            self._size = INFINITE if is_static(n) and n == INFINITE else UNKNOWN
        else:
            self._size = n if n < 0 else n * rows

    def _open(self, epochs):
        from ..ops.array.slicing import gather
        parent, d = self._parent._open(epochs), self._d

        def element(i, epoch):
            outer = parent.element(i // d, epoch)
            return nest.map_structure(lambda t: gather(t, i % d), outer, expand_composites=True)
        return FunctionReader(self._spec, element)

    def _stream(self):
        from .composite_elements import element_rows, has_composites
        spec = self._parent.element_spec
        if has_composites(spec):
            for element in self._parent._elements():
                yield from element_rows(spec, element)
            return
        for element in self._parent._elements():
            flat = nest.flatten(element, expand_composites=True)
            counts = {int(t.shape[0]) for t in flat}
            if len(counts) > 1:
                raise InvalidArgumentError(None, None, "Input element must have the same batch size in each "
                                                       f"component. Component 0 had size {int(flat[0].shape[0])} "
                                                       "but another component had a different size.")
            from ..core.tensor import make_eager
            arrays = [t.numpy() for t in flat]
            for r in range(counts.pop() if counts else 0):
                yield nest.pack_sequence_as(element, [make_eager(np.asarray(a[r]), t.dtype)
                                                      for a, t in zip(arrays, flat)], expand_composites=True)
