"""The few ops generated as a NumPy expression instead of a kernel call (codegen/pycode.py).

Each expression is exactly what the op's kernel computes once its checks hold statically; these
ops sit in loop bodies and backward passes, where a Python call per op is a visible cost.
"""
from __future__ import annotations

import numpy as np


def expression(op, args, inputs):
    """Source text computing `op` from the names `args`, or None for a kernel call. `inputs`: the
    op's inputs after the passes' substitutions (a folded shape is a Const there)."""
    if op.type == "MatMul" and all(t.shape.rank == 2 for t in op.inputs):
        a = f"{args[0]}.T" if op.attrs.get("transpose_a") else args[0]
        b = f"{args[1]}.T" if op.attrs.get("transpose_b") else args[1]
        return f"{a} @ {b}"
    if op.type == "ScalarIndex":
        return f"{args[0]}[{args[1]}]"
    if op.type == "SumToShape":
        return _sum_to_shape(inputs, args)
    return None


def _sum_to_shape(inputs, args):
    """A broadcast gradient summed back to a known shape as the one `.sum(axis=...)` the kernel
    would call (ops/math.py, _sum_to_kernel), when both shapes are static: it sits in every
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
