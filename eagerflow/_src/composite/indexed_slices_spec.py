"""`tf.IndexedSlicesSpec`: the type of an IndexedSlices (indexed_slices.py), so one can be a
tf.function argument or output, as in TensorFlow.

The components are (values, indices[, dense_shape]); the spec holds the dense shape ([None] plus the
values' row shape, merged with dense_shape's value where it is known), the dtypes, and the indices'
shape (the number of rows), which TensorFlow keys traces by, like the values' shape.
"""
from __future__ import annotations

from ..core import dtypes as _dt
from ..core.shape import TensorShape, as_shape
from ..core.tensor import TensorSpec
from .binding import bind_components
from .indexed_slices import IndexedSlices


def _dims(shape):
    return None if shape.rank is None else tuple(shape.as_list())


class IndexedSlicesSpec:
    """The type of an IndexedSlices: dense shape, dtype, indices dtype, dense_shape dtype (None when
    the value has no dense_shape) and indices shape."""

    __slots__ = ("_shape", "_dtype", "_indices_dtype", "_dense_shape_dtype", "_indices_shape")

    def __init__(self, shape=None, dtype=_dt.float32, indices_dtype=_dt.int64, dense_shape_dtype=None,
                 indices_shape=None):
        self._shape = as_shape(shape)
        self._dtype = _dt.as_dtype(dtype)
        self._indices_dtype = _dt.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else _dt.as_dtype(dense_shape_dtype)
        self._indices_shape = as_shape([None] if indices_shape is None else indices_shape)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    @property
    def value_type(self):
        return IndexedSlices

    def _component_specs(self):
        rows = self._indices_shape.as_list() if self._indices_shape.rank is not None else [None]
        inner = self._shape.as_list()[1:] if self._shape.rank is not None else None
        values = TensorSpec(None if inner is None else rows[:1] + inner, self._dtype)
        specs = [values, TensorSpec(self._indices_shape, self._indices_dtype)]
        if self._dense_shape_dtype is not None:
            specs.append(TensorSpec([self._shape.rank], self._dense_shape_dtype))
        return specs

    def _key(self):
        return (self._dtype, _dims(self._shape), self._indices_dtype, self._dense_shape_dtype,
                _dims(self._indices_shape))

    def __eq__(self, other):
        return type(other) is IndexedSlicesSpec and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (f"IndexedSlicesSpec({self._shape!r}, {self._dtype!r}, {self._indices_dtype!r}, "
                f"{self._dense_shape_dtype!r}, {self._indices_shape!r})")

    # --- tracing (trace/signature.py, trace/placeholders.py, trace/call_binding.py) ---
    def _composite_key(self, tensors):
        return ("C", IndexedSlicesSpec, ("T", self._dtype, _dims(self._shape)), self._indices_dtype,
                self._dense_shape_dtype, _dims(self._indices_shape))

    @staticmethod
    def _from_key(part, indices_dtype, dense_shape_dtype, indices_dims):
        _, dtype, dims = part
        return IndexedSlicesSpec(None if dims is None else list(dims), dtype, indices_dtype, dense_shape_dtype,
                                 None if indices_dims is None else list(indices_dims))

    def _placeholders(self, placeholder):
        parts = [placeholder(s) for s in self._component_specs()]
        return IndexedSlices(*parts)

    def bind_value(self, value, flat):
        """A ConcreteFunction's argument check: an IndexedSlices whose parts fit the component specs."""
        return bind_components(self, value, IndexedSlices, "dense_shape", flat)


def spec_of(values, indices, dense_shape, static_dense_shape):
    """The IndexedSlicesSpec of (values, indices, dense_shape) as TensorFlow derives it."""
    shape = TensorShape([None]).concatenate(values.shape[1:]) if values.shape.rank is not None \
        else TensorShape(None)
    if static_dense_shape is not None and static_dense_shape.rank is not None:
        shape = shape.merge_with(static_dense_shape) if shape.rank is not None else static_dense_shape
    rows = values.shape.as_list()[:1] if values.shape.rank else [None]
    indices_shape = indices.shape.merge_with(TensorShape(rows)) if indices.shape.rank == 1 else indices.shape
    return IndexedSlicesSpec(shape, values.dtype, indices.dtype, None if dense_shape is None else dense_shape.dtype,
                             indices_shape)
