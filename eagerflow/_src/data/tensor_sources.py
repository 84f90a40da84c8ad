"""The in-memory sources of tf.data: `from_tensor_slices`, `from_tensors`, `range` and `counter`.

Why apart from dataset.py: these are the indexable leaves every pipeline starts from (element i is
computed from i, with ops when traced), while dataset.py holds the Dataset API itself; trace/datasets.py
keys them by their class names, which stay as they were.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.context import state
from ..core.convert import convert_to_tensor, to_array
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import EagerTensor, Tensor, TensorSpec
from .dataset import Dataset
from .reader import FunctionReader
from .structure import is_static, normalize, refuse_no_components


class _TensorSliceDataset(Dataset):
    """Element i: row i of every component."""
    _name = "_TensorSliceDataset"

    def __init__(self, tensors):
        if tensors is None:
            raise ValueError("Invalid `element`. `element` should not be empty.")
        self._tensors = normalize(tensors)
        if _carries_composites(self, self._tensors):
            from .composite_elements import slices_size_and_spec
            self._size, self._spec = slices_size_and_spec(self._tensors)
            return
        flat = nest.flatten(self._tensors, expand_composites=True)
        first = None
        for t in flat:
            if t.shape.rank == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
            dim = t.shape[0] if t.shape.rank is not None else None
            if first is not None and dim is not None and first != dim:
                raise ValueError(f"Dimensions {first} and {dim} are not compatible")
            first = dim if first is None else first
        if first is None:  # only known at run time (a tensor of a graph being traced)
            from ..ops.array.basic import shape
            first = shape(flat[0])[0]
        self._size = first
        self._spec = nest.map_structure(lambda t: TensorSpec(TensorShape(t.shape.as_list()[1:])
                                                              if t.shape.rank is not None else None, t.dtype),
                                        self._tensors, expand_composites=True)

    def _stream(self):  # composites (see _carries_composites)
        from .composite_elements import source_rows
        return source_rows(self._tensors, self._size)

    def _open(self, epochs):
        from ..ops.array.slicing import gather

        def rows(index, epoch):
            return nest.map_structure(lambda t: gather(t, index), self._tensors, expand_composites=True)
        return FunctionReader(self._spec, rows, rows)


class _TensorDataset(Dataset):
    """One element: the tensors themselves."""
    _name = "_TensorDataset"

    def __init__(self, tensors):
        if tensors is None:
            raise refuse_no_components("TensorDataset", "Toutput_types", "Toutput_types", self._built_in_trace)
        self._tensors = normalize(tensors)
        self._size = 1
        from .structure import spec_of
        self._spec = spec_of(self._tensors)
        _carries_composites(self, self._tensors)

    def _stream(self):  # composites (see _carries_composites)
        yield self._tensors

    def _open(self, epochs):
        from ..ops.array.basic import expand_dims, zeros_like
        from ..ops.array.slicing import gather

        def copies(indices, epoch):
            zeros = np.zeros_like(indices) if isinstance(indices, np.ndarray) else zeros_like(indices)
            return nest.map_structure(lambda t: gather(expand_dims(t, 0), zeros), self._tensors, expand_composites=True)
        return FunctionReader(self._spec, lambda i, epoch: self._tensors, copies)


def _carries_composites(dataset, tensors) -> bool:
    """A source of RaggedTensors or SparseTensors is a stream (data/composite_elements.py: batching them is
    not stacking), and a tf.function keys it by identity rather than rebuild it on placeholders."""
    from .composite_elements import COMPOSITES
    if not any(isinstance(leaf, COMPOSITES) for leaf in nest.flatten(tensors)):
        return False
    dataset._indexable, dataset._recipe = False, None
    return True


class _RangeDataset(Dataset):
    """start, start + step, ... below stop (Python ints, as `range`). Inside a trace the bounds may
    be tensors known only at run time (`Dataset.range(n)` of a tf.function argument): the length
    is then computed with ops, ceil((stop - start) / step) clipped at 0, as an int32 tensor."""
    _name = "_RangeDataset"

    def __init__(self, args, output_type):
        if not 1 <= len(args) <= 3:
            raise ValueError("Invalid number of arguments")
        self._dtype = _dt.as_dtype(output_type)
        self._spec = TensorSpec([], self._dtype)
        if any(isinstance(a, Tensor) and not isinstance(a, EagerTensor) for a in args):
            self._symbolic_bounds(args)
            return
        # a non-integer bound is TensorFlow's TypeError ("Cannot convert 'a' to EagerTensor of dtype int64")
        values = [int(a.numpy()) if isinstance(a, Tensor) else int(to_array(a, _dt.int64)) for a in args]
        if len(values) == 3 and values[2] == 0:
            raise InvalidArgumentError(None, None, "step must be a non-zero integer.")
        r = range(*values)
        self._start, self._step = r.start, r.step
        self._size = len(r)

    def _symbolic_bounds(self, args):
        from ..ops.math.elementwise import cast, maximum
        bounds = [cast(convert_to_tensor(a), _dt.int64) for a in args]
        if len(bounds) == 1:
            bounds = [convert_to_tensor(np.int64(0))] + bounds
        if len(bounds) == 2:
            bounds.append(convert_to_tensor(np.int64(1)))
        start, stop, step = bounds
        count = maximum(-((start - stop) // step), convert_to_tensor(np.int64(0)))  # ceil by floor division
        self._size = cast(count, _dt.int32)
        self._start, self._step = cast(start, self._dtype), cast(step, self._dtype)

    def _open(self, epochs):
        from ..ops.math.elementwise import cast

        def value(i, epoch):
            if isinstance(self._start, Tensor):  # bounds known at run time only
                return cast(convert_to_tensor(i), self._dtype) * self._step + self._start
            if is_static(i) or isinstance(i, np.ndarray):
                return convert_to_tensor(np.asarray(self._start + np.asarray(i) * self._step,
                                                    dtype=self._dtype.np_dtype))
            return cast(i, self._dtype) * self._step + self._start if state.graph is not None else \
                convert_to_tensor((i.numpy() * self._step + self._start).astype(self._dtype.np_dtype))
        return FunctionReader(self._spec, value, value)
