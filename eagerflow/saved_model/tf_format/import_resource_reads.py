"""TensorFlow ops that read part of a variable through its handle, imported as eagerflow's read of
the whole variable followed by the op that picks the part: `ResourceGather` (what Keras 2's
Embedding layer writes, `tf.nn.embedding_lookup` on a variable) is `ReadVariableOp` then `GatherV2`
along axis 0. The read carries the gradient to the variable as every imported read does, so a
loaded Keras 2 embedding fine-tunes with GradientTape."""
from __future__ import annotations

import numpy as np

from ..._src.ops.registry import OPS
from .tf_values import dtype_of

RESOURCE_READS = frozenset({"ResourceGather"})
# the eagerflow op types these imports build (the importer loads their modules first)
BUILDS = frozenset({"ReadVariableOp", "GatherV2"})


def resource_read(importer, graph, node, inputs, where):
    """({output name: [tensor]}, last op) for one RESOURCE_READS node."""
    if len(inputs) != 2 or inputs[0].dtype.name != "resource":
        raise importer.fail(where, "ResourceGather takes a variable's handle and indices")
    declared = dtype_of(node.attr["dtype"].type) if "dtype" in node.attr else None
    read = importer.add_op(graph, OPS["ReadVariableOp"], [inputs[0]], {}, f"{node.name}/read", where)
    value = read.outputs[0]
    if declared is not None and value.dtype is not declared:
        raise importer.fail(where, f"reads a variable of dtype {value.dtype.name} as another dtype")
    batch_dims = node.attr["batch_dims"].i if "batch_dims" in node.attr else 0
    axis = graph.literal(np.array(batch_dims, np.int32))  # TensorFlow gathers just past the batch dimensions
    gather = importer.add_op(graph, OPS["GatherV2"], [value, inputs[1], axis], {"batch_dims": int(batch_dims)},
                             node.name, where)
    return {"output": list(gather.outputs)}, gather
