"""`tf.RaggedTensor`: rows of different lengths, as flat values plus row_splits per ragged dimension.

A RaggedTensor of ragged_rank k is `flat_values` (a Tensor whose first dimension runs over every
innermost element) and k row_splits vectors (int64 by default), outermost first: row i of a level
is values[splits[i]:splits[i + 1]] of the level below. It is a composite (composite/__init__.py):
it flattens to [flat_values, *nested_row_splits] and keys traces by its RaggedTensorSpec (static
shape, dtype, ragged_rank, row_splits dtype), as TensorFlow does.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape, as_shape
from ..core.tensor import EagerTensor, Tensor, TensorSpec
from .binding import bind_components


def _dims(shape):
    return None if shape.rank is None else tuple(shape.as_list())


def _formatter(x):
    """TensorFlow's element text in a RaggedTensor's repr: arrays as `[1, 2]`, scalars by str()."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size != 0 else repr(x.tolist())
    return str(x)


class RaggedTensor:
    """Made by the factories (`tf.ragged.constant`, `from_row_splits`, ...), never by __init__."""

    __slots__ = ("_values", "_row_splits", "_nrows", "_uniform_row_length", "__weakref__")

    def __init__(self, values, row_splits, nrows=None, _internal=False, uniform_row_length=None):
        if not _internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods "
                             "instead (e.g., RaggedTensor.from_row_lengths())")
        self._values, self._row_splits, self._nrows = values, row_splits, nrows
        # A scalar tensor when every row has this length (from_uniform_row_length): the dimension
        # is then uniform, known in the static shape, and may be indexed by an integer.
        self._uniform_row_length = uniform_row_length

    # --- factories (checks and ops in ops/ragged/factories.py) ---
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        from ..ops.ragged.factories import from_row_splits
        return from_row_splits(values, row_splits, validate)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        from ..ops.ragged.factories import from_row_lengths
        return from_row_lengths(values, row_lengths, validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        from ..ops.ragged.factories import from_value_rowids
        return from_value_rowids(values, value_rowids, nrows, validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
        from ..ops.ragged.uniform import from_uniform_row_length
        return from_uniform_row_length(values, uniform_row_length, nrows, validate)

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=_dt.int64):
        from ..ops.ragged.from_tensor import from_tensor
        return from_tensor(tensor, lengths, padding, ragged_rank, row_splits_dtype)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=_dt.int64):
        from ..ops.ragged.convert import from_sparse
        return from_sparse(st_input, row_splits_dtype)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    # --- structure ---
    values = property(lambda self: self._values, doc="The concatenated rows (a Tensor or a RaggedTensor).")
    row_splits = property(lambda self: self._row_splits, doc="Where each row starts in `values`, then the end.")
    uniform_row_length = property(lambda self: self._uniform_row_length,
                                  doc="The length of every row when they are all alike (a scalar), else None.")

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self):
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    @property
    def shape(self) -> TensorShape:
        """[nrows, None (per ragged dimension)..., the flat values' inner dimensions]."""
        splits = self._row_splits.shape
        n = splits.as_list()[0] if splits.rank == 1 else None
        nrows = None if n is None else n - 1
        inner = self.flat_values.shape
        tail = inner.as_list()[1:] if inner.rank is not None else None
        if tail is None:
            return TensorShape(None)
        return TensorShape([nrows] + self._ragged_dims() + tail)

    def _ragged_dims(self):
        """The static size of each ragged level's rows: its uniform row length where known, else None."""
        from ..ops.registry import static_value
        dims, level = [], self
        while isinstance(level, RaggedTensor):
            length = level._uniform_row_length
            value = None if length is None else static_value(length)
            dims.append(None if value is None else int(value))
            level = level._values
        return dims

    def get_shape(self):
        return self.shape

    def row_lengths(self, axis=1, name=None):
        from ..ops.ragged.factories import row_lengths
        return row_lengths(self._row_splits)

    def value_rowids(self, name=None):
        from ..ops.ragged.factories import row_splits_to_segment_ids
        return row_splits_to_segment_ids(self._row_splits)

    def nrows(self, out_type=None, name=None):
        from ..ops.array.basic import shape
        from ..ops.math.elementwise import cast
        n = shape(self._row_splits, out_type=self.row_splits_dtype)[0] - 1
        return n if out_type is None else cast(n, out_type)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        from ..ops.ragged.factories import bounding_shape
        return bounding_shape(self)

    def with_values(self, new_values):
        return RaggedTensor(new_values, self._row_splits, self._nrows, _internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def to_sparse(self, name=None):
        from ..ops.ragged.convert import to_sparse
        return to_sparse(self)

    def merge_dims(self, outer_axis, inner_axis):
        from ..ops.ragged.convert import merge_dims
        return merge_dims(self, outer_axis, inner_axis)

    def to_tensor(self, default_value=None, name=None, shape=None):
        from ..ops.ragged.factories import to_tensor
        return to_tensor(self, default_value, shape)

    def __getitem__(self, key):
        """Rows, slices of rows and of the ragged dimensions, as TensorFlow indexes (ops/ragged/getitem.py)."""
        from ..ops.ragged.getitem import ragged_getitem
        return ragged_getitem(self, key)

    def __iter__(self):
        """The rows, one by one: eagerly, or in a trace when the number of rows is static (the loop
        unrolls); a trace with an unknown number of rows refuses, as it could never stop."""
        n = self.shape.as_list()[0] if self.shape.rank else None
        if n is None:
            raise TypeError(
                "Iterating over a symbolic `tf.RaggedTensor` with an unknown number of rows is not allowed: "
                "use tf.map_fn or a tf.while_loop over rt.nrows().")
        return (self[i] for i in range(n))

    def numpy(self):
        """Rows as NumPy arrays: one array when the rows have one shape, else an object array (TF)."""
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        same = all(r.shape == rows[0].shape for r in rows)
        if same:
            return np.array(rows, dtype=rows[0].dtype)
        out = np.empty(len(rows), dtype=object)
        out[:] = rows
        return out

    def to_list(self):
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) else self._values.numpy().tolist()
        splits = self._row_splits.numpy().tolist()
        return [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

    def _is_eager(self):
        return type(self._row_splits) is EagerTensor

    def __repr__(self):
        if self._is_eager():
            with np.printoptions(formatter={"all": _formatter}):
                text = _formatter(self.numpy())
            return f"<tf.RaggedTensor {text}>"
        return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"

    __str__ = __repr__

    @property
    def _type_spec(self):
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype)

    # --- composite protocol (core/nest.py, trace/) ---
    def __tf_flatten__(self):
        return [self.flat_values, *self.nested_row_splits]

    def __tf_unflatten__(self, components, ragged_dims=None):
        """Rebuilt from [flat_values, *nested_row_splits]; `ragged_dims` (a spec's static row lengths,
        outermost first) mark the uniform levels again."""
        flat, splits = components[0], components[1:]
        if ragged_dims is None and self._row_splits is not None:
            ragged_dims = self._ragged_dims()  # a traced output's template keeps its uniform levels
        if ragged_dims is None or len(ragged_dims) != len(splits):
            ragged_dims = [None] * len(splits)
        dims = ragged_dims
        result = flat
        for s, dim in zip(reversed(splits), reversed(dims)):
            length = None if dim is None else _uniform_length_constant(dim, s.dtype)
            result = RaggedTensor(result, s, _internal=True, uniform_row_length=length)
        return result

    def _composite_key(self, tensors):
        tensors.extend(self.__tf_flatten__())
        return self._type_spec._composite_key(None)


def _uniform_length_constant(dim, dtype):
    from ..ops.array.basic import constant
    return constant(dim, dtype)


class RaggedTensorSpec:
    """The type of a RaggedTensor: static shape, dtype, ragged_rank and row_splits dtype."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype")

    def __init__(self, shape=None, dtype=_dt.float32, ragged_rank=None, row_splits_dtype=_dt.int64,
                 flat_values_spec=None):
        self._shape = as_shape(shape)
        self._dtype = _dt.as_dtype(dtype)
        self._row_splits_dtype = _dt.as_dtype(row_splits_dtype)
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        self._ragged_rank = ragged_rank

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    value_type = property(lambda self: RaggedTensor)

    def _component_specs(self):
        dims = self._shape.as_list() if self._shape.rank is not None else None
        inner = dims[self._ragged_rank + 1:] if dims is not None else None
        flat = TensorSpec(None if inner is None else [None] + inner, self._dtype)
        nrows = dims[0] if dims else None
        outer = TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)
        return [flat, outer] + [TensorSpec([None], self._row_splits_dtype)] * (self._ragged_rank - 1)

    def __eq__(self, other):
        return type(other) is RaggedTensorSpec and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _key(self):
        return (self._dtype, _dims(self._shape), self._ragged_rank, self._row_splits_dtype)

    def __repr__(self):
        return (f"RaggedTensorSpec({self._shape!r}, {self._dtype!r}, {self._ragged_rank}, "
                f"{self._row_splits_dtype!r})")

    # --- tracing (trace/signature.py, trace/placeholders.py, trace/call_binding.py) ---
    def _composite_key(self, tensors):
        return ("C", RaggedTensorSpec, ("T", self._dtype, _dims(self._shape)), self._ragged_rank,
                self._row_splits_dtype)

    @staticmethod
    def _from_key(part, ragged_rank, row_splits_dtype):
        _, dtype, dims = part
        return RaggedTensorSpec(None if dims is None else list(dims), dtype, ragged_rank, row_splits_dtype)

    def _placeholders(self, placeholder):
        parts = [placeholder(s) for s in self._component_specs()]
        dims = self._shape.as_list()[1:self._ragged_rank + 1] if self._shape.rank is not None else None
        return RaggedTensor(None, None, _internal=True).__tf_unflatten__(parts, dims)

    def bind_value(self, value, flat):
        return bind_components(self, value, RaggedTensor, "ragged_rank", flat)
