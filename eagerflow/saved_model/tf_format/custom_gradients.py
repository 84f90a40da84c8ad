"""The object-graph side of the custom gradients written into a SavedModel (graph_export/
custom_gradient_export.py): the library's registered_gradients, a SavedConcreteFunction for each gradient
function (its input signature: the gradients of every output of the IdentityN), and the
`captured_tensor` objects binding its trailing inputs to the forward function's tensors, as TensorFlow
2.21 writes them."""
from __future__ import annotations

from ..._src.formats.graph_export.attr_values import ExportError
from .structured import spec_value


def _spec(shape, dtype, name):
    from ..._src.core.tensor import TensorSpec
    return spec_value(TensorSpec(shape, dtype), name)


def add_custom_gradients(objects, library):
    """Adds the object-graph entries; returns the registered_gradients data (empty when there are none)."""
    registered = []
    for saved in getattr(library, "custom_gradients", ()):
        if saved.forward not in objects.concrete:
            raise ExportError(f"a custom gradient saved inside function {saved.forward!r}, which the SavedModel "
                              f"calls from another function: TensorFlow's SavedModel binds a gradient's forward "
                              f"values to a function of the object graph only")
        bound = [objects.add_plain({"captured_tensor": {"name": name, "concrete_function": saved.forward}})
                 for name in saved.captured]
        grads = [_spec(shape, dtype, f"result_grads_{i}") for i, (shape, dtype) in enumerate(saved.specs)]
        results = saved.n_outputs - saved.n_arguments
        outputs = [{"none_value": {}}] * results + [_spec(shape, dtype, f"tensor_{results + i}") for i, (shape, dtype)
                                                     in enumerate(saved.specs[results:])]
        objects.concrete[saved.gradient] = {
            "bound_inputs": bound,
            "canonicalized_input_signature": {"tuple_value": {"values": [
                {"tuple_value": {"values": [{"none_value": {}}] + grads}}, {"dict_value": {}}]}},
            "output_signature": {"list_value": {"values": outputs}}}
        registered.append({"gradient_func": saved.gradient, "registered_op_type": saved.op_type})
    return registered
