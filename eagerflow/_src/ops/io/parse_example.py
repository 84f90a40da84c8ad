"""ParseExampleV2: `tf.io.parse_example` / `tf.io.parse_single_example` of serialized
tf.train.Example protos into dense tensors (`tf.io.FixedLenFeature`).

The keys, dtypes and shapes are attributes here (TensorFlow feeds the keys as string inputs); the
defaults are inputs. A serialized scalar parses one example (parse_single_example's messages have
no "Name:" prefix), a vector a batch. Decoding is protobuf's parser of tf.train.Example (formats/protos):
nothing is executed, and bytes that are not an Example are InvalidArgumentError.
A `tf.io.VarLenFeature` becomes a SparseTensor: the op's outputs after the dense ones are, per
sparse key, its indices ([n, 1] for one example, [n, 2] (example, position) for a batch), values
and dense_shape ([longest] or [batch, longest]), as TensorFlow returns them.
"""
from __future__ import annotations

import collections

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop

_TYPE_WORDS = {"float32": "float", "int64": "int64", "string": "string"}
_LIST_OF = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature of a fixed shape and dtype (float32, int64 or string); without a default it is required."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any length (float32, int64 or string): parsed into a tf.sparse.SparseTensor."""


def _err(message):
    return InvalidArgumentError(None, None, message)


def _parse_kernel(serialized, *defaults, dense_keys, Tdense, dense_shapes, sparse_keys=(), sparse_types=()):
    serialized = np.asarray(serialized, dtype=object)
    single = serialized.ndim == 0
    flat = serialized.reshape(-1)
    outs = []
    for key, dtype, shape, default in zip(dense_keys, Tdense, dense_shapes, defaults):
        count = int(np.prod(shape, dtype=np.int64))
        out = np.empty((len(flat), count), dtype=object if dtype == _dt.string else dtype.np_dtype)
        for row, data in enumerate(flat):
            out[row] = _values(_example(data), key, dtype, shape, count, default, row, single)
        outs.append(out.reshape(serialized.shape + tuple(shape)))
    for key, dtype in zip(sparse_keys, sparse_types):
        outs.extend(_sparse_parts([_listed(_example(data), key, dtype, row, single) for row, data in enumerate(flat)],
                                  dtype, single))
    return tuple(outs)


def _listed(example, key, dtype, row, single):
    """A VarLenFeature's values in one example (none when it is missing)."""
    feature = example.features.feature.get(key)
    kind = None if feature is None else feature.WhichOneof("kind")
    if kind is None:
        return []
    if kind != _LIST_OF[dtype.name]:
        where = f"Key: {key}." if single else f"Name: <unknown>, Key: {key}, Index: {row}."
        found = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}[kind]
        raise _err(f"{where}  Data types don't match. Expected type: {_TYPE_WORDS[dtype.name]}, Actual type: {found}")
    return list(getattr(feature, kind).value)


def _sparse_parts(lists, dtype, single):
    """(indices, values, dense_shape) of per-example value lists, as TensorFlow lays them out."""
    np_dtype = object if dtype == _dt.string else dtype.np_dtype
    longest = max((len(v) for v in lists), default=0)
    coords = [(row, i) for row, v in enumerate(lists) for i in range(len(v))]
    indices = np.array(coords, np.int64).reshape(-1, 2)
    values = np.array([x for v in lists for x in v], dtype=np_dtype).reshape(-1)
    if single:
        return indices[:, 1:], values, np.array([longest], np.int64)
    return indices, values, np.array([len(lists), longest], np.int64)


def _example(data):
    from google.protobuf.message import DecodeError

    from ...formats.protos.example_pb2 import Example  # loads protobuf on the first parse, not at import

    try:
        return Example.FromString(data if isinstance(data, bytes) else str(data).encode("utf-8"))
    except DecodeError:
        raise _err("Could not parse example input, value: '" + repr(data)[2:-1][:100] + "'") from None


def _values(example, key, dtype, shape, count, default, row, single):
    prefix = "" if single else "Name: <unknown>, "
    feature = example.features.feature.get(key)
    kind = None if feature is None else feature.WhichOneof("kind")
    if kind is None:
        if np.size(default) == 0:
            raise _err(f"{prefix}Feature: {key} (data type: {_TYPE_WORDS[dtype.name]}) is required but could not be "
                       "found.")
        return np.asarray(default).reshape(-1)
    values = getattr(feature, kind).value
    if kind != _LIST_OF[dtype.name]:
        where = f"Key: {key}." if single else f"Name: <unknown>, Key: {key}, Index: {row}."
        found = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}[kind]
        raise _err(f"{where}  Data types don't match. Data type: {found} but expected type: "
                   f"{_TYPE_WORDS[dtype.name]}")
    if len(values) != count:
        if single:
            raise _err(f"Key: {key}.  Can't parse serialized Example: Some {kind} slice was not parsed.")
        raise _err(f"Name: <unknown>, Key: {key}, Index: {row}.  Number of {_TYPE_WORDS[dtype.name]} values != "
                   f"expected.  Values size: {len(values)} but output shape: {list(shape)}")
    return list(values)


def _parse_infer(inputs, attrs):
    serialized = inputs[0]
    if serialized.dtype != _dt.string:
        raise TypeError(f"Input 'serialized' of 'ParseExampleV2' Op has type {serialized.dtype.name} that does not "
                        "match expected type of string.")
    if serialized.shape.rank is not None and serialized.shape.rank > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {serialized.shape.rank}")
    dense = [Spec(TensorShape(list(serialized.shape) + list(shape)) if serialized.shape.rank is not None else
                  TensorShape(None), dtype) for dtype, shape in zip(attrs["Tdense"], attrs["dense_shapes"])]
    rank = None if serialized.shape.rank is None else serialized.shape.rank + 1
    sparse = []
    for dtype in attrs.get("sparse_types", ()):
        sparse += [Spec(TensorShape([None, rank]), _dt.int64), Spec(TensorShape([None]), dtype),
                   Spec(TensorShape([rank]), _dt.int64)]
    return dense + sparse


ParseExampleV2 = defop("ParseExampleV2", inputs=("serialized", "dense_defaults"), kernel=_parse_kernel,
                       infer=_parse_infer, grad=NO_GRADIENT, multi_output=True,
                       doc="Dense features of serialized tf.train.Example protos.")


def _dense_default(feature, key):
    if feature.default_value is None:
        return as_tensor(np.zeros([0], dtype=object if feature.dtype == _dt.string else feature.dtype.np_dtype),
                         feature.dtype)
    value = np.asarray(feature.default_value, dtype=object if feature.dtype == _dt.string else feature.dtype.np_dtype)
    count = int(np.prod(feature.shape, dtype=np.int64))
    if value.size != count:
        raise _err(f"Input to reshape is a tensor with {value.size} values, but the requested shape has {count}")
    return as_tensor(value.reshape(-1))


def _parse(serialized, features, name):
    keys, dtypes, shapes, defaults = [], [], [], []
    sparse_keys, sparse_types = [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            dtype = _dt.as_dtype(feature.dtype)
            if dtype.name not in _TYPE_WORDS:
                raise _err(f"Value for attr 'sparse_types' of {dtype.name} is not in the list of allowed values: "
                           "float, int64, string")
            sparse_keys.append(key), sparse_types.append(dtype)
            continue
        if not isinstance(feature, FixedLenFeature):
            raise NotImplementedError(f"{type(feature).__name__} ({key!r}) is not supported: only "
                                      "tf.io.FixedLenFeature is.")
        dtype = _dt.as_dtype(feature.dtype)
        if dtype.name not in _TYPE_WORDS:
            raise _err(f"Value for attr 'Tdense' of {dtype.name} is not in the list of allowed values: float, int64, "
                       "string")
        feature = feature._replace(dtype=dtype, shape=tuple(int(d) for d in TensorShape(feature.shape).as_list()))
        keys.append(key), dtypes.append(dtype), shapes.append(feature.shape)
        defaults.append(_dense_default(feature, key))
    attrs = {"dense_keys": tuple(keys), "Tdense": tuple(dtypes), "dense_shapes": tuple(shapes)}
    if sparse_keys:
        attrs.update(sparse_keys=tuple(sparse_keys), sparse_types=tuple(sparse_types))
    if not keys and not sparse_keys:
        return {}
    values = list(bind(ParseExampleV2, (as_tensor(serialized, _dt.string), *defaults), attrs, name=name))
    parsed = dict(zip(keys, values))
    rest = values[len(keys):]
    for k, key in enumerate(sparse_keys):
        parsed[key] = SparseTensor._from_parts(*rest[3 * k:3 * k + 3])
    return {key: parsed[key] for key in sorted(parsed)}


def parse_example(serialized, features, example_names=None, name=None):
    """`tf.io.parse_example`: a dict of dense tensors, each [batch] + the feature's shape."""
    return _parse(serialized, features, name)


def parse_single_example(serialized, features, example_names=None, name=None):
    """`tf.io.parse_single_example`: a dict of dense tensors of the features' shapes."""
    return _parse(serialized, features, name)
