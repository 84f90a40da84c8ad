"""Constant folding: a stateless op whose inputs are all constants is computed once, at code
generation time, and becomes a constant (small results only, so memory is not traded for time).

Shape, Size, Rank, ZerosLike and OnesLike of an input whose static shape is fully known fold
too, whatever computes that input: gradient rules build such shape chains, and this pass turns them
into constants.

Never folded: stateful ops (random draws, prints, asserts, variable writes: their effect or their
fresh value belongs to each call), ops with effects outside the process (ReadFile: a constant path
must not be read while a model is compiled or loaded, it may be a FIFO or a device), Placeholders,
and results with more than MAX_FOLDED_ELEMENTS elements. When the static output shape already says
the result is too big, the kernel is not run at all, so tracing `tf.fill([10**5, 10**5], 1.0)` does
not try to allocate it.
"""
import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape
from ..ops.bfloat16 import kernel_of

MAX_FOLDED_ELEMENTS = 1 << 16


def _const_value(tensor):
    op = tensor._op
    return op.attrs["value"] if op.type == "Const" and not op.inputs else None


def _too_big(op):
    for t in op.outputs:
        n = t.shape.num_elements() if t.shape.rank is not None else None
        if n is not None and n > MAX_FOLDED_ELEMENTS:
            return True
    return False


def _out_dtype(op):
    return op.outputs[0].dtype.np_dtype


# Ops whose value follows from the static shape of their input alone (TensorFlow's graph
# construction folds `tf.shape` of a fully known shape the same way). Each returns None when the
# shape is not known well enough.
_FROM_STATIC_SHAPE = {
    "Shape": lambda op, s: np.array(s.as_list(), _out_dtype(op)) if s.is_fully_defined() else None,
    "Size": lambda op, s: np.array(s.num_elements(), _out_dtype(op)) if s.is_fully_defined() else None,
    "Rank": lambda op, s: np.array(s.rank, np.int32) if s.rank is not None else None,
    "ZerosLike": lambda op, s: np.zeros(s.as_list(), _out_dtype(op)) if _numeric_known(op, s) else None,
    "OnesLike": lambda op, s: np.ones(s.as_list(), _out_dtype(op)) if _numeric_known(op, s) else None,
}


def _numeric_known(op, shape):
    """A fully known shape of numbers: a string's zero is b'' and a variant's its own zero (the
    ZerosLike kernel makes those), never NumPy's 0 in an object array."""
    return shape.is_fully_defined() and np.dtype(_out_dtype(op)).kind != "O"


def fold_constants(program):
    from ..graph.graph import Operation, SymbolicTensor
    from ..ops.array.basic import Const
    for op in program.ops:
        if not op.opdef.may_run_early or op.type in ("Const", "Placeholder") or not op.inputs or _too_big(op):
            continue
        if all(id(t) in program.subst for t in op.outputs):
            continue  # already replaced (a forwarded Identity): a second substitution would overwrite it
        static = _FROM_STATIC_SHAPE.get(op.type)
        out = static(op, program.resolve(op.inputs[0]).shape) if static is not None else None
        if out is None:
            values = [_const_value(program.resolve(t)) for t in op.inputs]
            if any(v is None for v in values):
                continue
            try:
                with np.errstate(all="ignore"):  # inf/nan are values here, as they are at run time
                    out = kernel_of(op)(*values, **op.attrs)
            except Exception:
                continue  # leave it to fail at run time with the user's line attached
        outs = list(out) if op.opdef.multi_output else [out]
        if len(outs) != len(op.outputs):
            continue
        outs = [np.asarray(o) for o in outs]
        if any(o.size > MAX_FOLDED_ELEMENTS for o in outs):
            continue
        # A kernel whose result disagrees with the recorded dtype or shape is left to run, so the
        # folded program cannot compute something the eager op would not.
        if any(_dt.from_numpy(o.dtype) is not t.dtype or not t.shape.is_compatible_with(TensorShape(o.shape))
               for o, t in zip(outs, op.outputs)):
            continue
        for tensor, value in zip(op.outputs, outs):
            suffix = "folded" if tensor.value_index == 0 else f"folded_{tensor.value_index}"
            const = Operation(op.graph, Const, f"{op.name}/{suffix}", (), {"value": value, "dtype": tensor.dtype},
                              op.source)  # the user's line stays attached to what replaced it
            const.outputs = (SymbolicTensor(const, 0, TensorShape(value.shape), tensor.dtype),)
            program.subst[id(tensor)] = const.outputs[0]
