"""A `@tf.custom_gradient` TensorFlow saved with the model: an IdentityN node whose `_gradient_op_type`
names a gradient function of the library's `registered_gradients`. It becomes eagerflow's
SavedCustomGradient op (ops/control/saved_custom_gradient.py) over the IdentityN's inputs and the
forward values the gradient function reads: TensorFlow saves those as `captured_tensor` objects naming a
tensor of the forward function, found here among the values the importer built for that function."""
from __future__ import annotations

from ..._src.ops.registry import OPS


def custom_gradient_identity(importer, graph, node, inputs, where, gradient_name):
    fdef = importer.function(gradient_name)
    n_outputs, n_args = len(inputs), len(fdef.signature.output_arg)
    captured = importer.gradient_captures.get(gradient_name, [])
    if len(fdef.signature.input_arg) != n_outputs + len(captured) or n_args > n_outputs:
        raise importer.fail(where, f"its gradient function {gradient_name!r} takes {len(fdef.signature.input_arg)} "
                                   f"inputs and returns {n_args}, for {n_outputs} outputs and {len(captured)} "
                                   f"captured values")
    forward = [_forward_value(importer, name, where) for name in captured]
    function = importer.standalone_function(gradient_name)
    op = importer.add_op(graph, OPS["SavedCustomGradient"], list(inputs) + forward,
                         {"_function": function, "n_outputs": n_outputs}, node.name, where)
    return {"output": list(op.outputs)}, op


def _forward_value(importer, tensor_name, where):
    """The tensor `node:k` (or `argument:0`) of the function being imported."""
    node, _, index = tensor_name.rpartition(":")
    found = importer.current_values().get(node)
    if isinstance(found, dict):
        flat = [t for group in found.values() for t in group]
        found = flat[int(index)] if index.isdigit() and int(index) < len(flat) else None
    if found is None or not hasattr(found, "dtype"):
        raise importer.fail(where, f"its gradient function reads {tensor_name[:80]!r}, which the function does not "
                                   f"compute")
    return found
