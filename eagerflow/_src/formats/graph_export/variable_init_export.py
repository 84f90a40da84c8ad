"""AssignVariableIfUninitialized: the first call's initialization of a variable a tf.function creates
from its arguments. TensorFlow traces such a function twice, once creating and initializing its
variables and once more without creating any, and saves the second trace: its saved function only
reads the variable, whose value the SavedModel's checkpoint holds. The export writes the same: nothing
for the initialization (the variable already holds its value); a variable never initialized (the
function traced but never called) cannot be saved."""
from __future__ import annotations

from .attr_values import ExportError


def _variable_of(op):
    handle = op.inputs[0]
    for external, internal in getattr(op.graph, "captures", ()):
        if internal is handle:
            return getattr(external, "_value", None)
    return None


def export_initialize_variable(builder, op):
    variable = _variable_of(op)
    if variable is not None and getattr(variable, "_array", 0) is None:
        raise ExportError(f"function {op.graph.name!r} creates a variable (op {op.name!r}) that no call has "
                          f"initialized yet: call the function once before saving it")
