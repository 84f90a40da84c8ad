"""TensorSpec (`tf.TensorSpec`): a tensor described by its shape and dtype, without a value.

tf.function's input signatures, traced calls and SavedModel signatures are written in it; its
`most_specific_common_supertype` is what relaxing a trace's shapes (reduce_retracing) uses.
"""
from __future__ import annotations

from . import dtypes as _dt
from .shape import TensorShape, as_shape


class TensorSpec:
    """Describes a tensor by shape (None for unknown dims) and dtype: `tf.TensorSpec([None, 784])`."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=_dt.float32, name=None):
        self._shape = as_shape(shape)
        self._dtype = _dt.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None) -> "TensorSpec":
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec, name=None) -> "TensorSpec":
        return cls(spec.shape, spec.dtype, name if name is not None else spec.name)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> _dt.DType:
        return self._dtype

    @property
    def name(self):
        return self._name

    def is_compatible_with(self, spec_or_value) -> bool:
        """True if a tensor (or spec) of that dtype and shape could be passed where self is expected."""
        other_dtype = getattr(spec_or_value, "dtype", None)
        other_shape = getattr(spec_or_value, "shape", None)
        if other_dtype is None or other_shape is None:
            return False
        return self._dtype is _dt.as_dtype(other_dtype) and self._shape.is_compatible_with(other_shape)

    def most_specific_common_supertype(self, others):
        shape = self._shape
        for other in others:
            if not isinstance(other, TensorSpec) or other.dtype is not self._dtype:
                return None
            shape = shape.most_specific_compatible_shape(other.shape)
        return TensorSpec(shape, self._dtype, self._name)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self._dtype is other._dtype
                and self._shape == other._shape and self._name == other._name)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self):
        name = "None" if self._name is None else repr(self._name)
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={name})"
