"""`tf.sparse.SparseTensor`: indices int64 [N, rank], values [N], dense_shape int64 [rank].

Eagerly its three parts are EagerTensors; inside a tf.function they are graph tensors. It is a
composite (composite/__init__.py): `__tf_flatten__` gives (indices, values, dense_shape) and
`_type_spec` is a SparseTensorSpec(shape, dtype), which keys the traces of functions taking it.
The static `shape` comes from dense_shape when its value is known (always, eagerly), as in
TensorFlow; the number of values is never part of the spec, so it never causes a retrace.
"""
from __future__ import annotations

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor
from ..core.shape import TensorShape, as_shape
from ..core.tensor import EagerTensor, Tensor, TensorSpec
from ..ops.registry import static_value
from .binding import bind_components


def _part(value, dtype, name):
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype is not dtype:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def _dim(shape, i):
    """Dimension i of a TensorShape, or None where the rank or the dimension is unknown."""
    return None if shape.rank is None else shape.as_list()[i]


def _dims(shape):
    return None if shape.rank is None else tuple(shape.as_list())


def _require_rank(tensor, rank):
    shape = tensor.shape
    if shape.rank is not None and shape.rank != rank:
        raise ValueError(f"Shape {shape} must have rank {rank}")


def _require_same_dim(a, b):
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions {a} and {b} are not compatible")


def _static_shape(dense_shape, rank):
    """The shape dense_shape's value says, where it is known; else `rank` unknown dimensions."""
    value = dense_shape._value if type(dense_shape) is EagerTensor else static_value(dense_shape)
    if value is not None:
        return TensorShape([int(d) if d >= 0 else None for d in value.reshape(-1)])
    return TensorShape(None if rank is None else [None] * rank)


class SparseTensor:
    """A sparse array: `values[i]` sits at `indices[i]` of a `dense_shape` array that is
    otherwise zero (or `default_value`, tf.sparse.to_dense)."""

    __slots__ = ("_indices", "_values", "_dense_shape", "_shape", "__weakref__")

    def __init__(self, indices, values, dense_shape):
        indices = _part(indices, _dt.int64, "indices")
        values = _part(values, None, "values")
        dense_shape = _part(dense_shape, _dt.int64, "dense_shape")
        _require_rank(indices, 2)
        _require_rank(values, 1)
        _require_rank(dense_shape, 1)
        _require_same_dim(_dim(indices.shape, 0), _dim(values.shape, 0))
        _require_same_dim(_dim(indices.shape, 1), _dim(dense_shape.shape, 0))
        self._indices, self._values, self._dense_shape = indices, values, dense_shape
        rank = _dim(dense_shape.shape, 0)
        if rank is None:
            rank = _dim(indices.shape, 1)
        self._shape = _static_shape(dense_shape, rank)

    @classmethod
    def _from_parts(cls, indices, values, dense_shape, shape=None):
        """Without checks: parts an op or a trace made (their shapes are right by construction)."""
        st = object.__new__(cls)
        st._indices, st._values, st._dense_shape = indices, values, dense_shape
        if shape is None or type(dense_shape) is EagerTensor:
            rank = _dim(dense_shape.shape, 0) if isinstance(dense_shape, Tensor) else None
            shape = _static_shape(dense_shape, rank) if isinstance(dense_shape, Tensor) else TensorShape(None)
        st._shape = shape
        return st

    @classmethod
    def from_value(cls, sparse_tensor_value):
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        return cls(sparse_tensor_value.indices, sparse_tensor_value.values, sparse_tensor_value.dense_shape)

    # --- properties ---
    indices = property(lambda self: self._indices, doc="int64 [N, rank]: the coordinates of the values.")
    values = property(lambda self: self._values, doc="[N]: the values, in the order of `indices`.")
    dense_shape = property(lambda self: self._dense_shape, doc="int64 [rank]: the shape of the dense array.")

    @property
    def shape(self) -> TensorShape:
        """The static shape: dense_shape's value where it is known, None dimensions elsewhere."""
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def op(self):
        if type(self._values) is EagerTensor:
            raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
        return self._values.op

    @property
    def graph(self):
        if type(self._indices) is EagerTensor:
            raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")
        return self._indices.graph

    @property
    def _type_spec(self):
        return SparseTensorSpec(self._shape, self.dtype)

    def with_values(self, new_values):
        """The same indices and dense_shape with other values (any dtype, same length)."""
        values = _part(new_values, None, "values")
        _require_rank(values, 1)
        _require_same_dim(_dim(self._indices.shape, 0), _dim(values.shape, 0))
        return SparseTensor._from_parts(self._indices, values, self._dense_shape, self._shape)

    def consumers(self):
        return []

    def __repr__(self):
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")

    __str__ = __repr__

    def __mul__(self, other):
        """`sp * dense`: SparseDenseCwiseMul (ops/sparse/cwise.py), the result keeps sp's indices."""
        from ..ops.sparse.cwise import SparseDenseCwiseMul, cwise
        return cwise(SparseDenseCwiseMul, self, other)

    def __truediv__(self, other):
        from ..ops.sparse.cwise import SparseDenseCwiseDiv, cwise
        return cwise(SparseDenseCwiseDiv, self, other)

    # --- composite protocol (core/nest.py, trace/) ---
    def __tf_flatten__(self):
        return [self._indices, self._values, self._dense_shape]

    def __tf_unflatten__(self, components):
        indices, values, dense_shape = components
        return SparseTensor._from_parts(indices, values, dense_shape, self._shape)

    def _composite_key(self, tensors):
        """The trace key part (trace/signature.py): the spec's (dtype, static shape); the parts are inputs."""
        tensors.append(self._indices)
        tensors.append(self._values)
        tensors.append(self._dense_shape)
        return ("C", SparseTensorSpec, ("T", self._values.dtype, _dims(self._shape)))


class SparseTensorSpec:
    """The type of a SparseTensor: its static shape and dtype (never its number of values)."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=_dt.float32):
        self._shape = as_shape(shape)
        self._dtype = _dt.as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    value_type = property(lambda self: SparseTensor)

    @classmethod
    def from_value(cls, value):
        return value._type_spec

    def _rank(self):
        return self._shape.rank

    def _component_specs(self):
        """TensorSpecs of (indices, values, dense_shape), in flattening order."""
        rank = self._shape.rank
        return (TensorSpec([None, rank], _dt.int64), TensorSpec([None], self._dtype), TensorSpec([rank], _dt.int64))

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value._type_spec if isinstance(spec_or_value, SparseTensor) else spec_or_value
        return (isinstance(other, SparseTensorSpec) and other._dtype is self._dtype
                and self._shape.is_compatible_with(other._shape))

    def __eq__(self, other):
        return (type(other) is SparseTensorSpec and other._dtype is self._dtype
                and _dims(other._shape) == _dims(self._shape))

    def __hash__(self):
        return hash((self._dtype, _dims(self._shape)))

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"

    # --- tracing (trace/signature.py, trace/placeholders.py, trace/call_binding.py) ---
    def _composite_key(self, tensors):
        return ("C", SparseTensorSpec, ("T", self._dtype, _dims(self._shape)))

    @staticmethod
    def _from_key(part):
        _, dtype, dims = part
        return SparseTensorSpec(None if dims is None else list(dims), dtype)

    def _placeholders(self, placeholder):
        """The SparseTensor a trace receives: one placeholder per component (`placeholder(spec)`)."""
        indices, values, dense_shape = (placeholder(s) for s in self._component_specs())
        return SparseTensor._from_parts(indices, values, dense_shape, self._shape)

    def bind_value(self, value, flat):
        """A ConcreteFunction's argument check: a SparseTensor whose parts fit the component specs.
        True, or why not (trace/call_binding.py quotes it)."""
        return bind_components(self, value, SparseTensor, "indices", flat)
