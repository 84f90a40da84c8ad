"""OptionalGradientComponents (the gradient through an OptionalFromValue: a function differentiating a
loaded model's cond gradient, whose branches keep their values in Optionals) written as TensorFlow ops:
the components of the gradient Optional when it holds some (TensorFlow's own OptionalFromValue gradient
reads them with OptionalGetValue), else zeros like the forward components: a StatelessIf on
OptionalHasValue, traced from eagerflow's cond like traced_call_export.py's ops."""
from __future__ import annotations

from .traced_call_export import export_traced


def export_optional_gradient(builder, op):
    from ...control_flow.cond import cond
    from ...ops.array.basic import zeros_like
    from ...ops.control.optional import OptionalGetValue, OptionalHasValue
    from ...ops.registry import bind
    types = [t.dtype for t in op.outputs]
    shapes = [t.shape for t in op.outputs]

    def computation(gradient, like):
        def read():
            return list(bind(OptionalGetValue, (gradient,), {"output_types": types, "output_shapes": shapes}))
        return cond(bind(OptionalHasValue, (gradient,)), read, lambda: [zeros_like(t) for t in like])

    export_traced(builder, op, computation, structure=lambda specs: [specs[0], specs[1:]])
