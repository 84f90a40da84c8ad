"""The messages tf.summary writes, built with TensorFlow's own definitions (formats/protos: summary.proto's
Event and Summary, graph.proto's GraphDef) and serialized by the `protobuf` runtime.

TensorBoard reads `Event` records: a wall time, a step, and a `Summary` of tagged tensors (each with the
plugin that draws it), or a serialized `GraphDef`. The helpers below return messages; `event()` returns the
record's bytes.
"""
from __future__ import annotations

import numpy as np

from .._src.formats.dtypes import datatype_number
from .._src.formats.tensor_proto import shape_proto, tensor_proto

GRAPH_PRODUCER = 1882  # the GraphDef version TensorBoard's graph plugin expects from TensorFlow 2.x writers


def summary_value(tag: str, array: np.ndarray, plugin: str, description: str = ""):
    """One tagged tensor of a Summary, marked with the TensorBoard plugin that shows it."""
    from .._src.formats.protos import summary_pb2

    value = summary_pb2.Summary.Value(tag=tag, tensor=tensor_proto(array))
    value.metadata.plugin_data.plugin_name = plugin
    if description:
        value.metadata.summary_description = description
    return value


def event(wall_time: float, step: int = 0, *, file_version: str = None, summary_values=(), graph_def=None) -> bytes:
    """An Event record's bytes: the time and step, and one of a file version, a GraphDef or summary values."""
    from .._src.formats.protos import summary_pb2

    record = summary_pb2.Event(wall_time=wall_time, step=int(step))
    if file_version is not None:
        record.file_version = file_version
    if graph_def is not None:
        record.graph_def = graph_def.SerializeToString(deterministic=True)
    if summary_values:
        record.summary.value.extend(summary_values)
    return record.SerializeToString(deterministic=True)


def node_def(name: str, op: str, inputs, attrs: dict):
    """A NodeDef for the graph dashboard (attrs: name -> AttrValue)."""
    from .._src.formats.protos import node_def_pb2

    node = node_def_pb2.NodeDef(name=name, op=op, input=list(inputs))
    for attr_name, value in attrs.items():
        node.attr[attr_name].CopyFrom(value)
    return node


def attr_type(dtype_name: str):
    """An AttrValue holding a DataType (0, DT_INVALID, for a dtype with no TensorFlow number)."""
    from .._src.formats.protos import attr_value_pb2

    try:
        number = datatype_number(dtype_name)
    except TypeError:
        number = 0
    return attr_value_pb2.AttrValue(type=number)


def attr_shapes(shapes):
    """An AttrValue holding a list of shapes: the `_output_shapes` TensorBoard labels edges with."""
    from .._src.formats.protos import attr_value_pb2

    value = attr_value_pb2.AttrValue()
    value.list.SetInParent()
    for dims in shapes:
        shape_proto(dims, value.list.shape.add())
    return value


def graph_def(nodes):
    """A GraphDef of `nodes` (NodeDefs), stamped with TensorFlow 2.x's producer version."""
    from .._src.formats.protos import graph_pb2

    graph = graph_pb2.GraphDef(node=list(nodes))
    graph.versions.producer = GRAPH_PRODUCER
    return graph
