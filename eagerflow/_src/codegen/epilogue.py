"""Epilogue fusion: a Conv2D's following per-channel chain (and a tiling MaxPool after it) runs inside
the convolution's row blocks.

A Keras Conv2D layer with an activation, followed by BatchNormalization, is in the graph

    conv = Conv2D(x, w); b = BiasAdd(conv, bias); r = Relu(b); m = Mul(r, scale); y = AddV2(m, shift)

Run op by op, each of the four steps is one more pass over the whole output (out of cache on a
batch), on the calling thread. Generated code instead writes one statement,

    y = k_Conv2D(x, w, bias, scale, shift, padding=..., epilogue=('BiasAdd', 'Relu', 'Mul', 'AddV2'))

and the convolution applies the steps to each row block while the block is in cache, on the thread
that computed it (ops/nn/conv_epilogue.py). The program the other passes and the XLA lowering see is
unchanged: `fuse_conv_epilogues` returns a new Program view for the code generator only.

A link joins the chain only when all of these hold (else the chain stops before it):
- it is BiasAdd (channels last), Relu, Relu6, or Mul/AddV2/Sub with the chain's value as exactly one
  operand, and the op's kernel is the NumPy ufunc that step runs (ops/nn/conv_epilogue.py);
- the chain's value so far has no other reader and is not an output of the program (a value used
  twice, returned, or kept for a gradient is needed whole, so the chain ends there);
- the value is floating (float16/32/64, not bfloat16), rank 4 with a known channel count, and the
  op's result has its dtype and shape;
- its other operand has the same dtype and one value or one per channel (a static shape of ones,
  with the last dimension 1 or the channel count), so it broadcasts along rows only.
The operands are computed before the convolution (their ops move up, in order), so the chain is
fused only when that is safe: each op moved is stateless without effects, has no control inputs
and no branches, and no op between the convolution and the chain's end is stateful.

When the value the chain ends with (or the convolution's own, with no chain) has one reader, a
MaxPool whose windows tile the image (NHWC, VALID, strides equal to the window, a float dtype), the
pool joins too: `pool=(kh, kw)`, and the convolution returns the pooled result, pooling each row
block in cache (ops/nn/conv_pool.py).
"""
from __future__ import annotations

import numpy as np

from ..graph.graph import Operation, SymbolicTensor
from ..ops.bfloat16 import op_involves as _involves_bfloat16
from ..ops.nn.conv_epilogue import STEPS

_UFUNC_STEPS = {"Mul": np.multiply, "AddV2": np.add, "Sub": np.subtract}
_FLOATS = ("float16", "float32", "float64")


def _per_channel(tensor, channels, dtype) -> bool:
    shape = tensor.shape
    if tensor.dtype is not dtype or shape.rank is None or shape.rank > 4 or not shape.is_fully_defined():
        return False
    dims = shape.as_list()
    return all(d == 1 for d in dims[:-1]) and (not dims or dims[-1] in (1, channels))


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _step(program, op, value, channels):
    """(step name, operand tensor or None) when `op` can continue a chain whose value is `value`."""
    if len(op.outputs) != 1 or op.opdef.multi_output or op.control_inputs or _involves_bfloat16(op):
        return None
    out = op.outputs[0]
    if program.resolve(out) is not out or out.dtype is not value.dtype or out.shape.rank != 4 \
            or out.shape.as_list()[-1] != channels:
        return None
    inputs = [program.resolve(t) for t in op.inputs]
    if sum(t is value for t in inputs) != 1:
        return None
    kind = op.type
    if kind in ("Relu", "Relu6") and len(inputs) == 1:
        return kind, None
    if len(inputs) != 2:
        return None
    other = inputs[1] if inputs[0] is value else inputs[0]
    if not _per_channel(other, channels, value.dtype):
        return None
    if kind == "BiasAdd":
        if inputs[0] is not value or _text(op.attrs.get("data_format", "NHWC")).startswith("NC") \
                or other.shape.rank != 1:
            return None
        return kind, other
    if _UFUNC_STEPS.get(kind) is not op.opdef.kernel or op.attrs:
        return None
    if kind == "Sub" and inputs[1] is value:
        return "SubFrom", other
    return kind, other


def _tiling_max_pool(program, op, value):
    """(kh, kw) when `op` is a MaxPool of `value` alone whose windows tile it (see above), else None."""
    if op.type != "MaxPool" or len(op.outputs) != 1 or op.control_inputs or len(op.inputs) != 1 \
            or program.resolve(op.inputs[0]) is not value or program.resolve(op.outputs[0]) is not op.outputs[0]:
        return None
    from ..ops.nn.pooling import _max_pool_kernel
    attrs = op.attrs
    ksize, strides = [int(v) for v in attrs.get("ksize", ())], [int(v) for v in attrs.get("strides", ())]
    if op.opdef.kernel is not _max_pool_kernel or _text(attrs.get("padding")) != "VALID" \
            or _text(attrs.get("data_format", "NHWC")) != "NHWC" or attrs.get("explicit_paddings") \
            or len(ksize) != 4 or ksize != strides or ksize[0] != 1 or ksize[3] != 1 or min(ksize) < 1 \
            or op.outputs[0].dtype is not value.dtype:
        return None
    return ksize[1], ksize[2]


def _has_branches(op) -> bool:
    return any(hasattr(v, "externals") or hasattr(v, "program") for v in op.attrs.values())


def _plan(program, ops, c, uses, producer, keep):
    """(chain positions, steps, operand tensors, positions to move above the convolution, the pool
    absorbed or None), or None."""
    conv = ops[c]
    value = conv.outputs[0]
    shape = value.shape
    if program.resolve(value) is not value or value.dtype.name not in _FLOATS or shape.rank != 4 \
            or shape.as_list()[-1] is None or len(conv.inputs) != 2 or "epilogue" in conv.attrs:
        return None
    channels = shape.as_list()[-1]
    chain, steps, operands = [], [], []
    while id(value) not in keep and len(uses.get(id(value), ())) == 1:
        j = uses[id(value)][0]
        found = _step(program, ops[j], value, channels)
        if found is None or j <= c:
            break
        chain.append(j)
        steps.append(found[0])
        if found[1] is not None:
            operands.append(found[1])
        value = ops[j].outputs[0]
    pool = None
    if id(value) not in keep and len(uses.get(id(value), ())) == 1:
        j = uses[id(value)][0]
        pool = _tiling_max_pool(program, ops[j], value) if j > c else None
        if pool is not None:
            chain.append(j)
    if not chain:
        return None
    end = chain[-1]
    moved, pending = set(), list(operands)
    while pending:  # the ops after the convolution that the operands need
        p = producer.get(id(pending.pop()))
        if p is None or p <= c or p in moved:
            continue
        op = ops[p]
        if p in chain or not op.opdef.may_run_early or op.control_inputs or _has_branches(op):
            return None
        moved.add(p)
        pending.extend(program.resolve(t) for t in op.inputs)
    if any(ops[i].stateful or _has_branches(ops[i]) for i in range(c + 1, end + 1)):
        return None
    return chain, steps, operands, sorted(moved), pool


def fuse_conv_epilogues(program, keep):
    """`program`, or a new Program view of it in which each Conv2D with a fusible chain (see above)
    is one op taking the chain's operands, with an `epilogue` attribute. `keep`: ids of the
    tensors the program returns."""
    ops = program.ops
    if not any(op.type == "Conv2D" for op in ops):
        return program
    uses, producer = {}, {}
    for i, op in enumerate(ops):
        for t in op.inputs:
            uses.setdefault(id(program.resolve(t)), []).append(i)
        for t in op.outputs:
            producer[id(t)] = i
    plans, taken = {}, set()
    for c, op in enumerate(ops):
        if op.type != "Conv2D" or c in taken:
            continue
        plan = _plan(program, ops, c, uses, producer, keep)
        if plan is None or taken & (set(plan[0]) | set(plan[3])):
            continue
        plans[c] = plan
        taken.update(plan[0], plan[3])
    if not plans:
        return program
    from ..passes.pipeline import Program
    subst = dict(program.subst)
    replaced = dict(program.replaced)
    new_ops = []
    for i, op in enumerate(ops):
        if i in taken:
            continue
        plan = plans.get(i)
        if plan is None:
            new_ops.append(op)
            continue
        chain, steps, operands, moved, pool = plan
        new_ops.extend(ops[p] for p in moved)
        last = ops[chain[-1]].outputs[0]
        attrs = dict(op.attrs)
        attrs["epilogue"] = tuple(steps)
        if pool is not None:
            attrs["pool"] = pool
        fused = Operation(op.graph, op.opdef, op.name, tuple(op.inputs) + tuple(operands), attrs, op.source)
        fused.outputs = (SymbolicTensor(fused, 0, last.shape, last.dtype),)
        replaced[id(fused)] = op
        subst[id(last)] = fused.outputs[0]
        new_ops.append(fused)
    return Program(new_ops, program.inputs, program.outputs, subst, replaced)
