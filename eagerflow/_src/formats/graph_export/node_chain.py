"""A short way to write one eagerflow op as a chain of TensorFlow nodes: each call emits one node
named under the op (`op/kind_3`) and returns its output Value(s); the chain's last nodes write the
op's own outputs (`out=`). Rules that rewrite an op (prod_gradient_export.py, ...) read as the
formula they compute."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .function_def import Value
from .generic_op import emit
from .rewrites import const


class NodeChain:
    def __init__(self, builder, op):
        self.builder, self.op = builder, op
        self._count = 0

    def _base(self, kind):
        self._count += 1
        return f"{self.op.name}/{kind}_{self._count}"

    def __call__(self, tf_type, inputs, dtypes, attrs=None, out=None):
        """One node of `tf_type`; `dtypes` is one dtype (one output) or a list (several). `out`: the
        op's own output tensor(s) this node writes (then the node takes the op's name)."""
        several = isinstance(dtypes, (list, tuple))
        if out is not None:
            outputs = list(out) if several else [out]
        else:
            outputs = [Value(d) for d in (dtypes if several else [dtypes])]
        emit(self.builder, self.op, tf_type, list(inputs), attrs or {}, outputs,
             base=None if out is not None else self._base(tf_type.lower()))
        return outputs if several else outputs[0]

    def const(self, value, dtype=_dt.int32):
        """A Const of `value` as `dtype`."""
        return const(self.builder, self._base("const"), np.asarray(value, dtype.as_numpy_dtype), dtype)
