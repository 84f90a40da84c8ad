"""TensorFlow's ParseExampleV2 node rebuilt as eagerflow's op.

TensorFlow feeds the feature keys as string inputs and returns every sparse key's indices, then
their values, then their shapes, then the dense values; eagerflow's op holds the keys as attributes
and returns the dense values first, then (indices, values, dense_shape) per sparse key
(graph_export/parse_example_export.py writes the other direction). The keys must be constants, as
every exporter writes them; ragged features and example names are refused, naming the node."""
from __future__ import annotations

import numpy as np

from ..._src.formats.graph_export.parse_example_export import tensorflow_output_order
from ..._src.ops.registry import OPS, static_value
from .tf_values import BadValue, attr_of

_TYPES = frozenset({"float32", "int64", "string"})


def _keys(tensor, what):
    value = static_value(tensor)
    if value is None:
        raise BadValue(f"ParseExampleV2's {what} must be a constant")
    return [k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k) for k in np.asarray(value).reshape(-1)]


def _types(node, key):
    if key not in node.attr:
        return []
    types = attr_of(node.attr[key], "list(type)")
    bad = [t.name for t in types if t.name not in _TYPES]
    if bad:
        raise BadValue(f"ParseExampleV2's {key} holds {bad}; a feature is float32, int64 or string")
    return list(types)


def parse_example(importer, graph, node, inputs, where):
    """(output groups by TensorFlow's output argument, the op) of a ParseExampleV2 node."""
    if len(inputs) < 5:
        raise BadValue(f"ParseExampleV2 with {len(inputs)} inputs")
    serialized, names, sparse_t, dense_t, ragged_t = inputs[:5]
    defaults = list(inputs[5:])
    if _keys(ragged_t, "ragged_keys") or _types(node, "ragged_value_types"):
        raise BadValue("ragged features are not supported by eagerflow's ParseExampleV2")
    if _keys(names, "names"):
        raise BadValue("example names are not supported by eagerflow's ParseExampleV2 (they only label errors)")
    dense_keys, sparse_keys = _keys(dense_t, "dense_keys"), _keys(sparse_t, "sparse_keys")
    dense_types, sparse_types = _types(node, "Tdense"), _types(node, "sparse_types")
    shapes = attr_of(node.attr["dense_shapes"], "list(shape)") if "dense_shapes" in node.attr else []
    if not (len(dense_keys) == len(dense_types) == len(shapes) == len(defaults)):
        raise BadValue(f"{len(dense_keys)} dense keys, {len(dense_types)} Tdense, {len(shapes)} dense_shapes and "
                       f"{len(defaults)} defaults")
    if len(sparse_keys) != len(sparse_types):
        raise BadValue(f"{len(sparse_keys)} sparse keys and {len(sparse_types)} sparse_types")
    if any(s.rank is None or not s.is_fully_defined() for s in shapes):
        raise BadValue("a dense feature of a shape not fully known (ragged along its first axis) is not supported")
    attrs = {"dense_keys": tuple(dense_keys), "Tdense": tuple(dense_types),
             "dense_shapes": tuple(tuple(int(d) for d in s.as_list()) for s in shapes)}
    if sparse_keys:
        attrs.update(sparse_keys=tuple(sparse_keys), sparse_types=tuple(sparse_types))
    op = importer.add_op(graph, OPS["ParseExampleV2"], [serialized, *defaults], attrs, node.name, where)
    n_dense, n_sparse = len(dense_keys), len(sparse_keys)
    ordered = [op.outputs[i] for i in tensorflow_output_order(n_dense, n_sparse)]
    groups = {"sparse_indices": ordered[:n_sparse], "sparse_values": ordered[n_sparse:2 * n_sparse],
              "sparse_shapes": ordered[2 * n_sparse:3 * n_sparse], "dense_values": ordered[3 * n_sparse:],
              "ragged_values": [], "ragged_row_splits": []}
    return groups, op
