"""TensorFlow's `SymbolicGradient` node rebuilt: the gradient of function `f` with respect to its
inputs, for the given gradients of its outputs, derived again by eagerflow's autodiff from `f`'s
forward graph. eagerflow's export writes a loop's gradient this way (graph_export/gradient_export.py):
`f` holds the forward loop, and differentiating it here keeps the loop's history and runs the
traced gradient of its body, as the original did.

Each input is passed through an Identity before `f`'s nodes are added, so a gradient reaches an
input only through `f` (SymbolicGradient treats its inputs as independent values, even when one
was computed from another); a variable handle is passed as it is, its gradient being the gradient
of the values read from it inside `f` (the Identities stop the gradient, so a variable read by
what computed another input, such as a loop's output gradient fed to the function of a loop's
gradient, is not reached through that input)."""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from .tf_values import dtype_of


def symbolic_gradient(importer, graph, node, inputs, where):
    from ..._src.autodiff.gradients import gradients
    from ..._src.ops.array.basic import identity, zeros, zeros_like
    fname = importer._func_attr(node, "f", where)
    fdef = importer.function(fname)
    k, m = len(fdef.signature.input_arg), len(fdef.signature.output_arg)
    if len(inputs) != k + m:
        raise importer.fail(where, f"a SymbolicGradient of {fname!r} takes its {k} inputs and {m} output gradients, "
                                   f"not {len(inputs)} values")
    if "Tout" not in node.attr or len(node.attr["Tout"].list.type) != k:
        raise importer.fail(where, f"a SymbolicGradient of {fname!r} returns one gradient per input ({k})")
    declared = [dtype_of(t) for t in node.attr["Tout"].list.type]
    with graph.as_default():
        ys = _call_of(importer, graph, fname, inputs[:k])
        stop = None
        if ys is not None:
            xs = list(inputs[:k])
        else:
            xs = [x if x.dtype is _dt.resource else identity(x) for x in inputs[:k]]
            stop = [x for x in xs if x.dtype is not _dt.resource]
            ys = importer._body(graph, fdef, {a.name: x for a, x in zip(fdef.signature.input_arg, xs)},
                                f"{where} -> function {fname!r}")
        seeds = inputs[k:]
        if [y.dtype for y in ys] != [s.dtype for s in seeds]:
            raise importer.fail(where, "the output gradients do not have the dtypes of the function's outputs")
        differentiable = [i for i, y in enumerate(ys) if y.dtype.is_floating or y.dtype.is_complex]
        found = gradients([ys[i] for i in differentiable], xs, grad_ys=[seeds[i] for i in differentiable],
                          stop_gradients=stop) if differentiable else [None] * k
        out = []
        for x, g, dtype in zip(xs, found, declared):
            if g is None:
                spec = _variable_spec(x)
                g = zeros(spec[0], spec[1]) if spec is not None else zeros_like(x)
            if g.dtype is not dtype:
                raise importer.fail(where, f"the gradient for {x.name} is {g.dtype.name}, Tout says {dtype.name}")
            out.append(g)
    return {"output": out}, None


def _call_of(importer, graph, fname, inputs):
    """The outputs of a call of `fname` on these very inputs already inlined into `graph` (the
    forward loop a gradient differentiates), when no input is computed from another (then the
    gradient of the call is the gradient with respect to each input alone); else None."""
    for where_built, callee, call_inputs, outputs in importer.inlined:
        if where_built is graph and callee == fname and len(call_inputs) == len(inputs) \
                and all(a is b for a, b in zip(call_inputs, inputs)) and _independent(inputs):
            return outputs
    return None


def _independent(tensors):
    """No tensor of `tensors` is computed (through any chain of ops) from another of them."""
    targets = {id(t) for t in tensors}
    for t in tensors:
        seen, stack = set(), [op for op in [t._op] if op is not None]
        while stack:
            op = stack.pop()
            if id(op) in seen:
                continue
            seen.add(id(op))
            for upstream in op.inputs:
                if id(upstream) in targets:
                    return False
                if upstream._op is not None:
                    stack.append(upstream._op)
    return True


def _variable_spec(value):
    op = getattr(value, "_op", None)
    spec = op.attrs.get("variable_spec") if op is not None and op.type == "Placeholder" else None
    return spec if spec else None
