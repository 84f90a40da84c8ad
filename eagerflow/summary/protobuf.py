"""Just enough of the protobuf wire format to write TensorBoard's messages, with no dependency.

TensorBoard reads `Event` records (tensorflow/core/util/event.proto): a wall time, a step, and a
`Summary` of tagged tensors, or a serialized `GraphDef`. Writing them needs only four wire types:
varints, 64-bit doubles, length-delimited bytes (strings, nested messages, packed arrays) and
field keys. Each builder below returns a message's bytes; field numbers are named after the
proto fields they stand for, so each function reads like its .proto definition.
"""
from __future__ import annotations

import struct

import numpy as np

from .._src.io.wire import varint  # the one varint writer (tf.train.Example uses it too)

# tensorflow/core/framework/types.proto DataType numbers.
DATA_TYPES = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7,
              "complex64": 8, "int64": 9, "bool": 10, "uint16": 17, "float16": 19, "uint32": 22,
              "uint64": 23, "resource": 20, "variant": 21, "complex128": 18, "bfloat16": 14}


def key(field: int, wire_type: int) -> bytes:
    return varint(field << 3 | wire_type)


def int_field(field: int, value: int) -> bytes:
    return key(field, 0) + varint(int(value))


def double_field(field: int, value: float) -> bytes:
    return key(field, 1) + struct.pack("<d", value)


def bytes_field(field: int, data) -> bytes:
    data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return key(field, 2) + varint(len(data)) + data


# --- tensorflow/core/framework/tensor_shape.proto, tensor.proto ---

def tensor_shape(dims) -> bytes:
    """TensorShapeProto: `dim` = 2 (each a Dim with `size` = 1, -1 when unknown), `unknown_rank` = 3."""
    if dims is None:
        return int_field(3, 1)
    return b"".join(bytes_field(2, int_field(1, -1 if d is None else d) if d != 0 else b"") for d in dims)


def tensor_proto(array: np.ndarray) -> bytes:
    """TensorProto: `dtype` = 1, `tensor_shape` = 2, then `tensor_content` = 4 (the little-endian bytes
    of a numeric array) or one `string_val` = 8 per element of a string array."""
    if array.dtype.kind in "SUO":
        dtype = DATA_TYPES["string"]
        items = [v if isinstance(v, bytes) else str(v).encode("utf-8") for v in array.reshape(-1).tolist()]
        body = b"".join(bytes_field(8, v) for v in items)
    else:
        dtype = DATA_TYPES[array.dtype.name]
        body = bytes_field(4, np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes())
    return int_field(1, dtype) + bytes_field(2, tensor_shape(array.shape)) + body


# --- tensorflow/core/framework/summary.proto, tensorflow/core/util/event.proto ---

def summary_value(tag: str, array: np.ndarray, plugin: str, description: str = "") -> bytes:
    """Summary.Value: `tag` = 1, `tensor` = 8, `metadata` = 9 (SummaryMetadata: `plugin_data` = 1
    holding `plugin_name` = 1, which tells TensorBoard's dashboards whose data it is;
    `summary_description` = 3)."""
    metadata = bytes_field(1, bytes_field(1, plugin))
    if description:
        metadata += bytes_field(3, description)
    return bytes_field(1, tag) + bytes_field(8, tensor_proto(array)) + bytes_field(9, metadata)


def event(wall_time: float, step: int = 0, *, file_version: str = None, summary_values=(), graph_def: bytes = None):
    """Event: `wall_time` = 1, `step` = 2, then one of `file_version` = 3, `graph_def` = 4,
    `summary` = 5 (Summary: `value` = 1, repeated)."""
    out = double_field(1, wall_time)
    if step:
        out += int_field(2, step)
    if file_version is not None:
        out += bytes_field(3, file_version)
    if graph_def is not None:
        out += bytes_field(4, graph_def)
    if summary_values:
        out += bytes_field(5, b"".join(bytes_field(1, v) for v in summary_values))
    return out


# --- tensorflow/core/framework/graph.proto, node_def.proto, attr_value.proto ---

def node_def(name: str, op: str, inputs, attrs: dict) -> bytes:
    """NodeDef: `name` = 1, `op` = 2, `input` = 3 (repeated), `attr` = 5 (map entries: key 1, value 2)."""
    out = bytes_field(1, name) + bytes_field(2, op) + b"".join(bytes_field(3, i) for i in inputs)
    for attr_name, value in attrs.items():
        out += bytes_field(5, bytes_field(1, attr_name) + bytes_field(2, value))
    return out


def attr_type(dtype_name: str) -> bytes:
    """AttrValue holding a DataType (`type` = 6)."""
    return int_field(6, DATA_TYPES.get(dtype_name, 0))


def attr_shapes(shapes) -> bytes:
    """AttrValue holding a list of shapes (`list` = 1, ListValue `shape` = 7): `_output_shapes`."""
    return bytes_field(1, b"".join(bytes_field(7, tensor_shape(s)) for s in shapes))


def graph_def(nodes, producer: int = 1882) -> bytes:
    """GraphDef: `node` = 1 (repeated NodeDef), `versions` = 4 (VersionDef `producer` = 1)."""
    return b"".join(bytes_field(1, n) for n in nodes) + bytes_field(4, int_field(1, producer))
