"""How a bfloat16 op runs: its kernel on float32 copies of the bfloat16 inputs, each bfloat16 output
rounded back (round-to-nearest-even, ml_dtypes' cast).

Why: NumPy runs bfloat16 (ml_dtypes' dtype) only partly and not as TensorFlow does: `np.matmul`
of two bfloat16 arrays returns float32, `np.sum` accumulates in bfloat16 (TensorFlow's
reduce_sum of 300 values gives 452 where a bfloat16 accumulator stops at 412), einsum refuses it.
TensorFlow's CPU kernels widen each bfloat16 element to float32, compute, and round the result
once (Eigen's bfloat16 arithmetic, float32 accumulators in reductions and matrix products), so one
rule gives TensorFlow's values for elementwise math, reductions, matmul and the nn ops alike.
Widening is exact, so ops that only move values (reshape, gather, concat) are unchanged by it.

The ops whose TensorFlow kernel is a chain of Eigen expressions on bfloat16 scalars round after
every step (SquaredDifference rounds x - y before squaring, Rsqrt rounds the square root before
the reciprocal, AddN rounds each partial sum, Cumsum each running total): their NumPy kernels run
on the bfloat16 arrays themselves (`NATIVE`), since ml_dtypes' ufuncs round each step the same
way; Elu, Selu and Softplus get short bfloat16 kernels of their own (`STEPWISE`: exp(x) - 1 rather
than expm1, TensorFlow's bfloat16 thresholds). The lists come from comparing both ways against
TensorFlow 2.21, op by op (tests/ops/test_bfloat16_ops.py holds the values).

A stateful op (a variable's assign, a random draw) also gets its arrays as they are: the variable
keeps the bfloat16 array itself.

Every path that runs a kernel on arrays asks here: eager `bind` (`run_eager`, called from
ops/validation.py's first run of a key; a bfloat16 key never gets a verdict in `OpDef.checked`, so
the raw kernel never runs on the eager hot path), generated code (codegen/pycode.py binds
`widened_kernel` for an op with a bfloat16 input or output), constant folding and XLA's host
fallback (`kernel_of`). jit_compile=True lowers to jnp.bfloat16 instead, as TensorFlow's XLA does.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import NotFoundError
from ..core.tensor import wrap_array
from .fp_errors import quiet_call
from .validation import raise_kernel_error, rule_error

# Ops TensorFlow runs step by step in bfloat16 (their NumPy kernels do too on ml_dtypes arrays), and
# ops that only move or make values (widening would change nothing but the cost).
NATIVE = frozenset({"Cumsum", "SquaredDifference", "Rsqrt", "LeakyRelu", "LogSoftmax", "AddN",
                    "SparseSoftmaxCrossEntropyWithLogits", "Softsign",
                    "Cast", "Identity", "Reshape", "Const", "Fill", "ZerosLike", "OnesLike",
                    "MaxPool", "MaxPool3D"})  # max pooling picks values: its floor is bfloat16's lowest, not float32's


def _elu(x):  # TensorFlow: exp(x) - 1 below zero, each step rounded (not expm1)
    return np.where(x < 0, np.exp(x) - np.ones((), x.dtype), x)


def _selu(x):  # TensorFlow: scale * alpha rounded to bfloat16 first, times exp(x) - 1
    scale = np.asarray(1.0507009873554804934193349852946, x.dtype)
    scale_alpha = np.asarray(1.0507009873554804934193349852946 * 1.6732632423543772848170429916717, x.dtype)
    return np.where(x < 0, scale_alpha * (np.exp(x) - np.ones((), x.dtype)), scale * x)


# log(bfloat16's epsilon 2**-7) + 2: TensorFlow's softplus returns x above -threshold, exp(x) below threshold
_SOFTPLUS_THRESHOLD = -4.852030263919617 + 2.0


def _softplus(x):
    high, low = np.asarray(-_SOFTPLUS_THRESHOLD, x.dtype), np.asarray(_SOFTPLUS_THRESHOLD, x.dtype)
    return np.where(x > high, x, np.where(x < low, np.exp(x), np.log1p(np.exp(x))))


# Kernels of their own, on bfloat16 arrays, for ops whose TensorFlow kernel is a short chain of bfloat16 steps
STEPWISE = {"Elu": _elu, "Selu": _selu, "Softplus": _softplus}

# Ops TensorFlow 2.21 has no CPU bfloat16 kernel for: refused with its NotFoundError, eagerly and in graphs
NO_KERNEL = frozenset({"Lgamma", "Digamma", "Igamma", "Igammac", "Erfinv", "Ndtri", "BesselI0e", "BesselI1e",
                       "Rint", "Dawsn", "Expint", "Spence", "FresnelCos", "BesselJ0", "BesselK0"})

_WIDENED: dict = {}  # (kernel, output-is-bfloat16 flags, multi) -> wrapper; kernels are module-level functions
_EAGER: dict = {}  # (op name, eager key) -> (kernel to run, output dtypes): plain data and OpDef kernels only
_EAGER_LIMIT = 4096


def involves(dtypes) -> bool:
    bf16 = _dt.bfloat16
    return any(d is bf16 for d in dtypes)


def op_involves(op) -> bool:
    """Whether a graph Operation has a bfloat16 input or output (codegen asks before binding a kernel)."""
    bf16 = _dt.bfloat16
    return any(getattr(t, "dtype", None) is bf16 for t in op.inputs) or \
        any(getattr(t, "dtype", None) is bf16 for t in op.outputs)


def kernel_of(op):
    """The kernel that runs graph Operation `op` on arrays: its OpDef's, or the widened one when a
    bfloat16 input or output is involved (constant folding and XLA's host fallback ask here)."""
    if op_involves(op):
        return widened_kernel(op.opdef, [t.dtype for t in op.outputs])
    return op.opdef.kernel


def _widen(value, bf16_np):
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        return value.astype(np.float32) if value.dtype == bf16_np else value
    if isinstance(value, (list, tuple)):
        return type(value)(_widen(v, bf16_np) for v in value)
    return value


def _round(value, bf16_np):
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != bf16_np:
        return np.asarray(value).astype(bf16_np)
    return value


def widened_kernel(opdef, out_dtypes):
    """`opdef`'s kernel on float32 copies of bfloat16 inputs, rounding the outputs `out_dtypes`
    marks bfloat16. A NATIVE or stateful op (a variable's assign keeps the bfloat16 array itself)
    gets its inputs as they are; its bfloat16 outputs are still made bfloat16 if they are not."""
    if opdef.name in NO_KERNEL:
        return _no_kernel(opdef.name)
    if opdef.name in STEPWISE:
        return STEPWISE[opdef.name]
    widen = opdef.name not in NATIVE and not opdef.stateful
    flags = tuple(d is _dt.bfloat16 for d in out_dtypes)
    key = (opdef.kernel, flags, opdef.multi_output, widen)
    found = _WIDENED.get(key)
    if found is not None:
        return found
    kernel, multi = opdef.kernel, opdef.multi_output
    bf16_np = _dt.bfloat16_numpy_dtype()

    def bfloat16_kernel(*arrays, **attrs):
        out = kernel(*[_widen(a, bf16_np) for a in arrays] if widen else arrays, **attrs)
        if multi:
            return type(out)(_round(o, bf16_np) if f else o for o, f in zip(out, flags))
        return _round(out, bf16_np) if flags and flags[0] else out

    bfloat16_kernel.__name__ = f"{getattr(kernel, '__name__', opdef.name)}_bfloat16"
    _WIDENED[key] = bfloat16_kernel
    return bfloat16_kernel


def _no_kernel(op_name):
    def refuse(*arrays, **attrs):
        raise NotFoundError(None, None, f"Could not find device for node: {{{{node {op_name}}}}} = "
                                        f"{op_name}[T=DT_BFLOAT16]")
    return refuse


def run_eager(op, inputs, attrs, key):
    """An eager call with a bfloat16 input, output or dtype attribute: the rule once per key (its
    refusal is TensorFlow's error), then the widened kernel."""
    cache_key = (op.name, key)
    entry = _EAGER.get(cache_key)
    if entry is None:
        try:
            specs = op.infer(inputs, attrs)
        except Exception as err:
            raise rule_error(op, err) from None
        dtypes = tuple(s.dtype for s in specs)
        entry = (widened_kernel(op, dtypes), dtypes)
        if len(_EAGER) >= _EAGER_LIMIT:
            _EAGER.clear()
        _EAGER[cache_key] = entry
    kernel, dtypes = entry
    try:
        out = quiet_call(kernel, *[t._value for t in inputs], **attrs)
    except Exception as exc:
        raise_kernel_error(op, inputs, attrs, exc)
    return [wrap_array(o) for o in out] if op.multi_output else wrap_array(out)
