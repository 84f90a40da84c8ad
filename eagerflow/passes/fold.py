"""Constant folding: a stateless op whose inputs are all constants is computed once, at code
generation time, and becomes a constant (small results only, so memory is not traded for time)."""
import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape

MAX_FOLDED_ELEMENTS = 1 << 16


def _const_value(tensor):
    op = tensor._op
    return op.attrs["value"] if op.type == "Const" else None


def fold_constants(program):
    from ..graph.graph import Operation, SymbolicTensor
    from ..ops.array import Const
    for op in program.ops:
        if op.opdef.stateful or op.type in ("Const", "Placeholder") or not op.inputs:
            continue
        values = [_const_value(program.resolve(t)) for t in op.inputs]
        if any(v is None for v in values):
            continue
        try:
            out = op.opdef.kernel(*values, **op.attrs)
        except Exception:
            continue  # leave it to fail at run time with the user's line attached
        outs = list(out) if op.opdef.multi_output else [out]
        if any(np.size(o) > MAX_FOLDED_ELEMENTS for o in outs):
            continue
        for tensor, value in zip(op.outputs, outs):
            value = np.asarray(value)
            dtype = _dt.from_numpy(value.dtype)
            const = Operation(op.graph, Const, f"{op.name}/folded", (), {"value": value, "dtype": dtype})
            const.outputs = (SymbolicTensor(const, 0, TensorShape(value.shape), dtype),)
            program.subst[id(tensor)] = const.outputs[0]
