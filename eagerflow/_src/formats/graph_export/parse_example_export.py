"""ParseExampleV2 written as TensorFlow's op.

eagerflow's op keeps the feature keys as attributes and returns the dense values first, then each
sparse key's (indices, values, dense_shape); TensorFlow's takes the keys as string inputs (`names`,
`sparse_keys`, `dense_keys`, `ragged_keys`, here Const nodes) and returns every sparse key's indices,
then their values, then their shapes, then the dense values. The importer
(saved_model/tf_format/import_parse_example.py) maps them back."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .attr_values import attr_value
from .rewrites import const


def tensorflow_output_order(n_dense, n_sparse):
    """For each of TensorFlow's outputs in order, the index of eagerflow's output holding it."""
    sparse = [(n_dense + 3 * k, n_dense + 3 * k + 1, n_dense + 3 * k + 2) for k in range(n_sparse)]
    return [s[0] for s in sparse] + [s[1] for s in sparse] + [s[2] for s in sparse] + list(range(n_dense))


def _strings(builder, base, values):
    return const(builder, base, np.array([v.encode() if isinstance(v, str) else v for v in values] or [],
                                         dtype=object).reshape(-1), _dt.string)


def export_parse_example(builder, op):
    dense_keys = list(op.attrs.get("dense_keys", ()))
    sparse_keys = list(op.attrs.get("sparse_keys", ()))
    sparse_types = list(op.attrs.get("sparse_types", ()))
    serialized, defaults = op.inputs[0], list(op.inputs[1:])
    keys = [_strings(builder, f"{op.name}/{what}", values) for what, values in
            (("names", ()), ("sparse_keys", sparse_keys), ("dense_keys", dense_keys), ("ragged_keys", ()))]
    attrs = {"Tdense": attr_value("list(type)", op.attrs["Tdense"]),
             "dense_shapes": attr_value("list(shape)", op.attrs["dense_shapes"]),
             "num_sparse": attr_value("int", len(sparse_keys)),
             "sparse_types": attr_value("list(type)", sparse_types),
             "ragged_value_types": attr_value("list(type)", []),
             "ragged_split_types": attr_value("list(type)", [])}
    refs = [builder.ref(serialized)] + [k.ref for k in keys] + [builder.ref(t) for t in defaults]
    name = builder.add_node(op.name, "ParseExampleV2", refs, attrs)
    n_dense, n_sparse = len(dense_keys), len(sparse_keys)
    groups = (["sparse_indices"] * n_sparse + ["sparse_values"] * n_sparse + ["sparse_shapes"] * n_sparse
              + ["dense_values"] * n_dense)
    position = {}
    for group, source in zip(groups, tensorflow_output_order(n_dense, n_sparse)):
        index = position[group] = position.get(group, -1) + 1
        builder.set_ref(op.outputs[source], f"{name}:{group}:{index}")
