"""`tf.IndexedSlices`: some rows of a tensor (values, their row indices, the dense shape).

Why it exists: `Variable.scatter_*` take their updates in this form, as in TensorFlow. It converts
to a dense tensor where a tensor is needed (`tf.convert_to_tensor`, any op), rows at repeated
indices summed, as TensorFlow densifies it. It is a composite (composite/__init__.py) with an
IndexedSlicesSpec (indexed_slices_spec.py), so a tf.function takes and returns it whole.
"""
from __future__ import annotations

import warnings

from ..core.convert import convert_to_tensor
from ..core.shape import TensorShape
from ..core.tensor import EagerTensor, Tensor

LARGE_DENSE_ELEMENTS = 100_000_000  # where making one dense earns a warning while tracing


class IndexedSlices:
    """values[i] is row indices[i] of a tensor of shape dense_shape (None when unknown)."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = values if isinstance(values, Tensor) else convert_to_tensor(values)
        self._indices = indices if isinstance(indices, Tensor) else convert_to_tensor(indices)
        self._dense_shape = (None if dense_shape is None else
                             dense_shape if isinstance(dense_shape, Tensor) else convert_to_tensor(dense_shape))

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        """The dense shape when it is known statically (TF: TensorShape(None) without dense_shape)."""
        if self._dense_shape is None:
            return TensorShape(None)
        static = getattr(self._dense_shape, "_static_value", lambda: None)()
        if static is not None:
            return TensorShape([int(d) for d in static])
        producer = getattr(self._dense_shape, "op", None)  # tf.shape(x) of a traced x: x's static shape
        if producer is not None and producer.type == "Shape" and producer.inputs[0].shape.is_fully_defined():
            return producer.inputs[0].shape
        return TensorShape(None)

    def _as_tensor(self):
        """The dense tensor: rows scattered into zeros (repeated indices summed). While tracing, a
        dense shape of 100,000,000 elements or more is worth TensorFlow's UserWarning (a gather's
        gradient made dense may take far more memory than its rows)."""
        if self._dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices for argument `value` without "
                             f"dense_shape: {self}")
        if not isinstance(self._dense_shape, EagerTensor):
            count = self.shape.num_elements()
            if count is not None and count >= LARGE_DENSE_ELEMENTS:
                warnings.warn(f"Converting sparse IndexedSlices to a dense Tensor with {count} elements. This may "
                              f"consume a large amount of memory.", stacklevel=3)
        from ..ops.array.basic import expand_dims
        from ..ops.array.slicing import scatter_nd_to_shape
        return scatter_nd_to_shape(expand_dims(self._indices, -1), self._values, self._dense_shape)

    def __neg__(self):
        from ..ops.math.elementwise import negative
        return IndexedSlices(negative(self._values), self._indices, self._dense_shape)

    def _refuse_conversion(self, dtype):
        """convert_to_tensor(slices, dtype) with another dtype: TensorFlow's ValueError."""
        if dtype is not self.dtype:
            raise ValueError(f"Incompatible tensor conversion requested to `dtype` {dtype.name} for IndexedSlices "
                             f"({self}) with dtype {self.dtype.name}")

    def __str__(self):
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})"

    def __repr__(self):
        return f"IndexedSlices(indices={self._indices!r}, values={self._values!r}, dense_shape={self._dense_shape!r})"

    @property
    def _type_spec(self):
        from .indexed_slices_spec import spec_of  # not at the top: the spec module imports this one
        return spec_of(self._values, self._indices, self._dense_shape, self.shape)

    # --- composite protocol (core/nest.py, trace/) ---
    def __tf_flatten__(self):
        parts = [self._values, self._indices]
        return parts if self._dense_shape is None else parts + [self._dense_shape]

    def __tf_unflatten__(self, components):
        return IndexedSlices(*components)

    def _composite_key(self, tensors):
        tensors.extend(self.__tf_flatten__())
        return self._type_spec._composite_key(None)
