"""Keras' fused optimizer step (`AdamUpdate`, ops/variables/training_ops.py) written as the
TensorFlow ops that compute it: read the variable and its two moments, compute Keras 3's Adam
step, assign the three. (TensorFlow's ResourceApplyAdam takes beta itself, where the fused op takes
1 - beta as Keras computes it, so the step is spelled out.) The last node, the variable's own
assignment, depends on every input, so a reader meets it after all of them."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .function_def import Value
from .generic_op import emit
from .rewrites import const


def export_adam_update(builder, op):
    var, m, v, beta1_power, beta2_power, lr, one_minus_beta1, one_minus_beta2, epsilon, grad = op.inputs
    dtype = grad.dtype

    def node(tf_type, inputs, suffix, attrs=None, stateful=None):
        out = Value(dtype)
        emit(builder, op, tf_type, inputs, attrs or {}, [out], base=f"{op.name}/{suffix}", stateful=stateful)
        return out

    def assign(handle, value, suffix):
        name = emit(builder, op, "AssignVariableOp", [handle, value], {"dtype": dtype}, [], base=f"{op.name}/{suffix}")
        builder.control.append(name)  # TensorFlow runs a stateful node nothing reads only when named

    old_m = node("ReadVariableOp", [m], "read_m", {"dtype": dtype})
    old_v = node("ReadVariableOp", [v], "read_v", {"dtype": dtype})
    old_var = node("ReadVariableOp", [var], "read_var", {"dtype": dtype})
    new_m = node("AddV2", [old_m, node("Mul", [node("Sub", [grad, old_m], "m_gap"), one_minus_beta1], "m_step")],
                 "m")
    square = node("Square", [grad], "grad_squared")
    new_v = node("AddV2", [old_v, node("Mul", [node("Sub", [square, old_v], "v_gap"), one_minus_beta2], "v_step")],
                 "v")
    one = const(builder, f"{op.name}/one", np.ones((), dtype.as_numpy_dtype), dtype)
    alpha = node("RealDiv", [node("Mul", [lr, node("Sqrt", [node("Sub", [one, beta2_power], "b2")], "sqrt_b2")],
                                  "lr_b2"),
                             node("Sub", [one, beta1_power], "b1")], "alpha")
    step = node("RealDiv", [node("Mul", [new_m, alpha], "scaled_m"),
                            node("AddV2", [node("Sqrt", [new_v], "sqrt_v"), epsilon], "denominator")], "step")
    assign(m, new_m, "assign_m")
    assign(v, new_v, "assign_v")
    emit(builder, op, "AssignVariableOp", [var, node("Sub", [old_var, step], "new_var")], {"dtype": dtype}, [],
         base=op.name)
