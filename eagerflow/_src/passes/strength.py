"""Strength reduction: a power or a division by a constant becomes the cheaper ops a careful NumPy
programmer writes by hand.

    x ** 2    -> square(x)                x ** 0.5 -> sqrt(x)       (real floats)
    x ** 3    -> x * square(x)            x / c    -> x * (1 / c)   (c = +-2**k, real floats)
    x ** 4    -> square(square(x))

Why: NumPy's `power` on float32 is a call to `powf` per element (on 4M floats `x ** 3` costs
about 20 times `x * x * x`), and a division costs more than a multiplication.

Rounding, the choice made here: `x * square(x)` rounds twice where `powf` rounds once, so a result
may differ from `np.power` in the last bit or two (float32: at most 2 ulp seen). TensorFlow's own
graph optimizer makes the same rewrites for 2, 3 and 0.5, and its `tf.function` results are
bitwise `x * x * x` and `sqrt(x)` (checked against TensorFlow 2.21), including the edge cases
where `sqrt` and `pow` disagree: `(-inf) ** 0.5` is nan and `(-0.0) ** 0.5` is -0.0 in a graph.
The power 4 is ours, within the same two-roundings bound. Integer powers are exact (multiplication
wraps like `power`). `x / c -> x * (1 / c)` is exact, bit for bit: with `1 / c` a power of two the
two are one correctly rounded operation on the same real number; other constants are left alone.

Only a scalar (or single-element, not broadcasting) constant exponent or divisor counts: the
rewritten ops then have exactly the original output's shape.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape
from ..graph.graph import Operation, SymbolicTensor
from ..ops.math import elementwise as M
from ..ops.array.basic import Const


def _const_value(tensor):
    op = tensor._op
    return op.attrs["value"] if op.type == "Const" and not op.inputs else None


def _scalar_constant(program, op, position):
    """The value of `op`'s input `position` when it is a one-element constant that does not change
    the output's shape by broadcasting against input 0; else None."""
    value = _const_value(program.resolve(op.inputs[position]))
    if value is None or np.ndim(value) and np.size(value) != 1:
        return None
    x_rank = program.resolve(op.inputs[0]).shape.rank
    if np.ndim(value) and (x_rank is None or np.ndim(value) > x_rank):
        return None
    return np.asarray(value).reshape(()).item()


def _is_real_float(tensor):
    return tensor.dtype.is_floating and not tensor.dtype.is_complex


def _exact_reciprocal(c, np_dtype):
    """`1 / c` in `np_dtype` when `c` is +-2**k and its reciprocal is exact there; else None."""
    c = np_dtype.type(c)
    if not np.isfinite(c) or c == 0 or abs(np.frexp(c)[0]) != 0.5:
        return None
    with np.errstate(all="ignore"):
        r = np_dtype.type(1) / c
    return r if np.isfinite(r) and r != 0 and r * c == 1 else None


class _Builder:
    """Makes the ops that stand for one rewritten op: same graph, same user line, names under it."""

    def __init__(self, program, op):
        self.program, self.old, self.made = program, op, []

    def op(self, opdef, suffix, inputs, attrs=None):
        old = self.old
        name = old.name if suffix is None else f"{old.name}/{suffix}"
        new = Operation(old.graph, opdef, name, tuple(inputs), attrs or {}, old.source)
        out = old.outputs[0]
        new.outputs = (SymbolicTensor(new, 0, out.shape, out.dtype),)
        self.made.append(new)
        return new.outputs[0]

    def const(self, value, suffix):
        value = np.asarray(value)
        old = self.old
        new = Operation(old.graph, Const, f"{old.name}/{suffix}", (), {"value": value,
                        "dtype": _dt.from_numpy(value.dtype)}, old.source)
        new.outputs = (SymbolicTensor(new, 0, TensorShape(value.shape), _dt.from_numpy(value.dtype)),)
        return new.outputs[0]


def _reduce_pow(program, op, b):
    x = program.resolve(op.inputs[0])
    y = _scalar_constant(program, op, 1)
    if y is None or isinstance(y, complex):
        return False
    if y == 2:
        b.op(M.Square, None, (x,))
    elif y == 3:
        b.op(M.Mul, None, (x, b.op(M.Square, "square", (x,))))
    elif y == 4:
        b.op(M.Square, None, (b.op(M.Square, "square", (x,)),))
    elif y == 0.5 and _is_real_float(x):
        b.op(M.Sqrt, None, (x,))
    else:
        return False
    return True


def _reduce_div(program, op, b):
    x = program.resolve(op.inputs[0])
    c = _scalar_constant(program, op, 1)
    if c is None or not _is_real_float(x):
        return False
    r = _exact_reciprocal(c, x.dtype.np_dtype)
    if r is None:
        return False
    b.op(M.Mul, None, (x, b.const(r, "reciprocal")))
    return True


_RULES = {"Pow": _reduce_pow, "RealDiv": _reduce_div}


def reduce_strength(program):
    ops = []
    for op in program.ops:
        rule = _RULES.get(op.type)
        if rule is None or id(op.outputs[0]) in program.subst:
            ops.append(op)
            continue
        b = _Builder(program, op)
        if not rule(program, op, b):
            ops.append(op)
            continue
        for new in b.made:  # where the op ran, each standing for it (what the verifier checks)
            program.replaced[id(new)] = op
            ops.append(new)
        program.subst[id(op.outputs[0])] = b.made[-1].outputs[0]
    program.ops = ops
