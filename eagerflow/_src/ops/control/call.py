"""Calling a traced function as one op: `PartitionedCall` / `StatefulPartitionedCall`.

Why an op: a GradientTape outside a `tf.function` call records the call as a single operation
whose gradient is the traced function's gradient (itself a traced function, called the same way,
so gradients of any order work). The op's inputs are the function's parameters followed by what it
captured (variable handles, outside tensors), so gradients reach captured variables too.

When a recording tape sees the call, the function that runs is the variant that also returns its
intermediate values (what an eager tape would have kept), so the backward function never re-runs
the forward computation: random draws and side effects happen once.

`attrs["f"]` is a ConcreteFunction (trace/function.py; duck-typed here): `run_arrays`,
`output_specs`, `capture_inputs`, `stateful`, `with_intermediates`, `gradient_function`.
"""
from __future__ import annotations

from ...core.context import state
from ..registry import Spec, bind, defop


def _kernel(*arrays, f):
    return f.run_arrays(arrays)


def _infer(inputs, attrs):
    return [Spec(shape, dtype) for shape, dtype in attrs["f"].output_specs()]


def _grad(op, *grads):
    """Gradients for every input (parameters, then captures), from the traced backward function,
    which takes the parameters, every forward output and intermediate, and output gradients."""
    f = op.attrs["f"]
    n_user = f.n_user_outputs
    all_outputs = any(g is not None for g in grads[n_user:])  # a higher-order gradient reached them
    backward, mask = f.gradient_function(all_outputs)
    if backward is None:
        return [None] * len(op.inputs)
    n_params = len(op.inputs) - len(f.capture_inputs())
    from ..array.basic import zeros_like
    seeded = grads if all_outputs else grads[:n_user]
    seeds = [g if g is not None else zeros_like(o) for g, o in zip(seeded, op.outputs)]
    computed = call_function(backward, list(op.inputs[:n_params]) + list(op.outputs) + seeds)
    it = iter(computed or [])
    return [next(it) if has else None for has in mask]


PartitionedCall = defop("PartitionedCall", inputs=("args",), kernel=_kernel, infer=_infer, grad=_grad,
                        multi_output=True, sparse_output_grads=True,
                        doc="A call of a stateless traced function.")
StatefulPartitionedCall = defop("StatefulPartitionedCall", inputs=("args",), kernel=_kernel, infer=_infer,
                                grad=_grad, multi_output=True, stateful=True, sparse_output_grads=True,
                                doc="A call of a traced function with side effects (variables, prints).")


def call_function(f, params):
    """Calls ConcreteFunction `f` as one op on `params` (its captures are appended); returns the
    list of its outputs. Under a recording tape, the intermediates-returning variant runs."""
    inputs = tuple(params) + tuple(f.capture_inputs())
    if state.tapes and any(t.recording and t.should_record(inputs) for t in state.tapes):
        full = f.with_intermediates()
        opdef = StatefulPartitionedCall if full.stateful else PartitionedCall
        outs = bind(opdef, inputs, {"f": full})
        return outs[:full.n_user_outputs]
    opdef = StatefulPartitionedCall if f.stateful else PartitionedCall
    return bind(opdef, inputs, {"f": f})
