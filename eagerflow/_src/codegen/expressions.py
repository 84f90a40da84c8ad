"""The few ops generated as a NumPy expression instead of a kernel call (codegen/pycode.py).

Each expression is exactly what the op's kernel computes once its checks hold statically; these
ops sit in loop bodies and backward passes, where a Python call per op is a visible cost.
"""
from __future__ import annotations

import numpy as np


def expression(op, args, inputs, env):
    """Source text computing `op` from the names `args`, or None for a kernel call. `inputs`: the
    op's inputs after the passes' substitutions (a folded shape is a Const there); `env`: the
    generated module's globals (its constants and captured arrays)."""
    if op.type == "MatMul" and all(t.shape.rank == 2 for t in op.inputs):
        a = f"{args[0]}.T" if op.attrs.get("transpose_a") else args[0]
        b = f"{args[1]}.T" if op.attrs.get("transpose_b") else args[1]
        return f"{a} @ {b}"
    if op.type == "ScalarIndex":
        return f"{args[0]}[{args[1]}]"
    if op.type == "SumToShape":
        return _sum_to_shape(inputs, args)
    operator = _SCALAR_OPERATORS.get(op.opdef.kernel)
    if operator is not None and not op.attrs and _scalar_operands(inputs):
        fixed = [isinstance(env.get(name), (np.ndarray, np.generic)) for name in args]
        if any(fixed):  # (two computed values might both be Python scalars, and `+` would not wrap)
            a, b = (f"{name}[()]" if known else name for name, known in zip(args, fixed))
            return f"{a} {operator} {b}"
    return None


# A ufunc called on NumPy scalars costs about 1 us; the same operator takes NumPy's scalar fast
# path (about 30 ns) and computes the same value in the same dtype. These ops count a loop's steps
# (`for t in tf.range(T)`: a compare and an add per iteration against constants), so a constant
# operand (a global 0-d array) is read as a NumPy scalar with `[()]`; a computed rank-0 value
# already is one (a ufunc on 0-d arrays returns a scalar), and a 0-d array still works: the
# operator then dispatches to the same ufunc.
_SCALAR_OPERATORS = {np.add: "+", np.subtract: "-", np.multiply: "*", np.less: "<", np.less_equal: "<=",
                     np.greater: ">", np.greater_equal: ">="}
_SCALAR_DTYPES = frozenset("int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64".split())


def _scalar_operands(inputs):
    """Two statically rank-0 operands of one integer or float dtype (no string, bool or complex)."""
    return len(inputs) == 2 and inputs[0].dtype is inputs[1].dtype and all(
        t.shape.rank == 0 and t.dtype.name in _SCALAR_DTYPES for t in inputs)


def _sum_to_shape(inputs, args):
    """A broadcast gradient summed back to a known shape as the one `.sum(axis=...)` the kernel
    would call (ops/math/elementwise.py, _sum_to_kernel), when both shapes are static: it sits in every
    backward pass, often inside a loop's gradient."""
    grad, target = inputs
    shape = target._op.attrs.get("value") if target._op.type == "Const" and not target._op.inputs else None
    if shape is None or not grad.shape.is_fully_defined() or np.ndim(shape) != 1 or len(shape) == 0:
        return None
    have, want = grad.shape.as_list(), [int(d) for d in shape]
    lead = len(have) - len(want)
    if lead < 0 or any(w != 1 and w != h for h, w in zip(have[lead:], want)):
        return None
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(want) if d == 1 and have[i + lead] != 1)
    if not axes:
        return None  # nothing to sum: the kernel reshapes (or returns its input)
    text = f"{args[0]}.sum(axis={axes!r})"
    return text if len(axes) == lead else f"{text}.reshape({tuple(want)!r})"
