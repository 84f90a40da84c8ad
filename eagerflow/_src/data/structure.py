"""Element structures for tf.data: what counts as a component, and index arithmetic that works on
Python ints (eager iteration) and on int32 tensors (a loop index inside a traced graph).

tf.data treats tuples, namedtuples and dicts as structure but a Python *list* as one tensor
(`from_tensor_slices([1, 2, 3])` has scalar elements), unlike `tf.nest`; `normalize` applies that.
"""
from __future__ import annotations

import numpy as np

from ..core import nest
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.tensor import Tensor, TensorSpec

INFINITE = -1  # tf.data.INFINITE_CARDINALITY
UNKNOWN = -2  # tf.data.UNKNOWN_CARDINALITY


def normalize(value):
    """Tuples/namedtuples/dicts kept as structure; every other leaf (lists too) becomes a tensor."""
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return type(value)(*[normalize(v) for v in value])
    if isinstance(value, tuple):
        return tuple(normalize(v) for v in value)
    if isinstance(value, dict):
        return {k: normalize(value[k]) for k in value}
    if value is None:
        raise TypeError("tf.data does not support None components")
    if isinstance(value, Tensor) or hasattr(type(value), "_type_spec"):  # a tensor, RaggedTensor, SparseTensor
        return value
    return convert_to_tensor(value)


class NoComponents(TypeError):
    """An element that is None as a whole: no component at all, which TensorFlow's dataset ops
    refuse (see `refuse_no_components`)."""


def normalize_element(value):
    """`normalize` for a whole element; None is an element without components (NoComponents)."""
    if value is None:
        raise NoComponents("tf.data does not support None components")
    return normalize(value)


def refuse_no_components(op_name, graph_attr, eager_attr, traced) -> Exception:
    """TensorFlow's error for a dataset op given an element of no components: its op needs at least
    one output type, refused eagerly by the kernel and while tracing by the graph builder."""
    if traced:
        return ValueError(f"Attr '{graph_attr}' of '{op_name}' Op passed list of length 0 less than minimum 1.")
    return InvalidArgumentError(None, None, f"Length for attr '{eager_attr}' of 0 must be at least minimum 1")


def spec_of(structure):
    """The spec structure of a structure of tensors (the element_spec): TensorSpecs, and a composite's own
    spec (RaggedTensorSpec, SparseTensorSpec)."""
    from .composite_elements import spec_of as leaf_specs
    return leaf_specs(structure)


def is_static(n) -> bool:
    return isinstance(n, (int, np.integer))


def minimum(a, b):
    if is_static(a) and is_static(b):
        return min(int(a), int(b))
    from ..ops.math.elementwise import minimum as _minimum
    return _minimum(convert_to_tensor(a), convert_to_tensor(b))


def maximum(a, b):
    if is_static(a) and is_static(b):
        return max(int(a), int(b))
    from ..ops.math.elementwise import maximum as _maximum
    return _maximum(convert_to_tensor(a), convert_to_tensor(b))


def index_range(start, stop):
    """The indices start..stop-1: a NumPy array when both are ints, else an int32 tensor."""
    if is_static(start) and is_static(stop):
        return np.arange(int(start), int(stop), dtype=np.int32)
    from ..ops.array.sequences import range as _range
    return _range(start, stop)


def stack_elements(elements):
    """Per component, the elements stacked along a new first dimension."""
    from ..ops.array.joining import stack
    return nest.map_structure(lambda *xs: stack(list(xs)), *elements, expand_composites=True)


class DatasetSpec:
    """The spec of an element that is itself a dataset (`window`'s elements)."""

    def __init__(self, element_spec, dataset_shape=()):
        from ..core.shape import TensorShape
        self.element_spec = element_spec
        self.shape = TensorShape(list(dataset_shape))

    def _probe(self):
        """An empty dataset of this spec."""
        from .dataset import Dataset
        from ..ops.array.basic import zeros
        spec = self.element_spec
        empty = nest.map_structure(lambda s: zeros([0] + [d or 0 for d in s.shape.as_list()], s.dtype), spec,
                                   expand_composites=True)
        return Dataset.from_tensor_slices(empty)

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, {self.shape!r})"
