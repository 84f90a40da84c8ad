"""SavedCustomGradient (a `@tf.custom_gradient` TensorFlow saved, as eagerflow's loader rebuilds it) written
back as TensorFlow writes a custom gradient with SaveOptions(experimental_custom_gradients=True), its
default: an IdentityN over (results, arguments) whose `_gradient_op_type` names a gradient function of the
library (FunctionDefLibrary.registered_gradients). The gradient function takes the gradients of every
IdentityN output, then the forward values it reads; the SavedModel binds those to tensors of the forward
function (`captured_tensor` objects: saved_model/tf_format/custom_gradients.py writes them once every
function has its name)."""
from __future__ import annotations

from .attr_values import ExportError
from .generic_op import emit
from .tf_op_signatures import SIGNATURES


class SavedGradient:
    """What the object graph needs of one custom gradient written into a function."""

    def __init__(self, op_type, gradient, forward, captured, specs, n_outputs, n_arguments):
        self.op_type, self.gradient, self.forward = op_type, gradient, forward
        self.captured = captured  # names of the forward values ("node:k", as TensorFlow's graphs name them)
        self.specs, self.n_outputs, self.n_arguments = specs, n_outputs, n_arguments


def graph_tensor_name(builder, ref):
    """A FunctionDef reference (`arg`, `node:out_arg:k`) as the loaded graph names the tensor (`node:i`,
    i counting every output of the node)."""
    parts = ref.split(":")
    if len(parts) == 1:
        return f"{ref}:0"
    node = next(n for n in builder.nodes if n["name"] == parts[0])
    position = 0
    for name, kind, _, number in SIGNATURES[node["op"]][1]:
        if name == parts[1]:
            return f"{parts[0]}:{position + int(parts[2])}"
        if kind == "list" or number:
            break
        position += 1
    raise ExportError(f"a custom gradient reads {ref!r}, an output TensorFlow's graph cannot name")


def export_saved_custom_gradient(builder, op):
    n_outputs = op.attrs["n_outputs"]
    function = op.attrs["_function"]
    passed, captured = list(op.inputs[:n_outputs]), list(op.inputs[n_outputs:])
    if len(function.graph.inputs) != n_outputs + len(captured):
        raise ExportError(f"op {op.name!r} (a saved custom gradient): its gradient function reads values other than "
                          f"the output gradients and the forward values")
    library = builder.library
    saved = getattr(library, "custom_gradients", None)
    if saved is None:
        saved = library.custom_gradients = []
    op_type = f"CustomGradient-{len(saved) + 1}"
    gradient = library.called_function(function, copy=True)  # one per IdentityN: its own captured tensors
    names = [graph_tensor_name(builder, builder.ref(t)) for t in captured]
    emit(builder, op, "IdentityN", passed, {}, list(op.outputs))
    builder.nodes[-1]["attr"]["_gradient_op_type"] = {"s": op_type.encode()}
    specs = [(t.shape, t.dtype) for t in passed]
    saved.append(SavedGradient(op_type, gradient, builder.name, names, specs, n_outputs,
                               len(function.outputs)))
