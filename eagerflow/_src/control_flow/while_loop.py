"""tf.while_loop: eagerly a Python `while`; in a graph a `While`/`StatelessWhile` op.

In a graph, `cond` and `body` are traced once into sub-graphs over placeholders for the loop
variables (shaped by `shape_invariants` when given). A loop variable must keep its dtype, and its
shape must stay compatible with its invariant: TensorFlow's error otherwise.

Gradient: when a recording tape sees the loop, the op also outputs its history (the loop variables
entering each iteration). `WhileGrad` walks that history backwards, running the traced gradient of
one body iteration each step: the forward keeps the loop variables, nothing more, and the backward
recomputes each iteration's inside from them. Gradients of that gradient: control_flow/loop_history.py.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.context import state
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape, as_shape
from ..core.tensor import EagerTensor, Tensor
from ..core.variant import VariantValue
from ..ops.operands import as_tensor
from ..ops.registry import Spec, bind, defop
from ..ops.shape_rules import fmt_dims, tf_type_word
from . import subgraph
from .loop_history import while_grad_grad


class _LoopVarSpec:
    __slots__ = ("shape", "dtype", "variable_spec")

    def __init__(self, shape, dtype):
        self.shape, self.dtype, self.variable_spec = shape, dtype, None


def _while_kernel(*values, cond, body, n_vars, output_specs, maximum_iterations=-1, keep_history=False):
    loop_vars = list(values[:n_vars])
    externals = values[n_vars:]
    history = None
    if keep_history:  # per iteration: the loop variables going in and the body's intermediates
        history, full = [], body.with_intermediates()
    i = 0
    while (maximum_iterations < 0 or i < maximum_iterations) and _truth(cond.run(loop_vars, externals)[0]):
        if history is None:
            loop_vars = list(body.run(loop_vars, externals))
        else:
            outs = full.run(loop_vars, externals)
            history.append((tuple(loop_vars), tuple(outs[n_vars:])))
            loop_vars = list(outs[:n_vars])
        i += 1
    loop_vars.append(VariantValue(None if history is None else (None, history)))  # (kept positions, entries)
    return loop_vars


def _while_infer(inputs, attrs):
    specs = [Spec(shape, dtype) for shape, dtype in attrs["output_specs"]]
    specs.append(Spec(TensorShape([]), _dt.variant))  # the history (empty unless kept)
    return specs


def _while_grad(op, *grads):
    needs = state.grad_needs  # read first: building the gradient runs other backprops
    n = op.attrs["n_vars"]
    if getattr(op, "graph", None) is not None and not op.attrs.get("keep_history"):
        # tf.gradients in the graph that holds the loop: the loop must keep its history when it runs
        op.attrs = _keep_history(op.attrs)
    loop_inputs, externals = list(op.inputs[:n]), list(op.inputs[n:])
    history = op.outputs[n]
    history_seeds = grads[n] if len(grads) > n else None  # a higher-order gradient reached the history
    seeds = [g if g is not None else _zeros(o) for g, o in zip(grads[:n], op.outputs[:n])]
    wanted = [i for i, t in enumerate(externals)
              if (t.dtype.is_differentiable or t.dtype is _dt.resource) and (needs is None or needs[n + i])]
    body = op.attrs["body"]
    seed_positions = tuple(body.kept_for_gradient or ()) if history_seeds is not None else ()
    body_grad = _body_gradient(body, externals, wanted, seed_positions)
    inputs = (history, *externals, *seeds) + ((history_seeds,) if history_seeds is not None else ())
    attrs = {"body_grad": body_grad, "n_vars": n, "ext_index": wanted, "body": body}
    if op.attrs.get("maximum_iterations", -1) >= 0:  # the backward loop of a second order has the same bound
        attrs["maximum_iterations"] = op.attrs["maximum_iterations"]
    if history_seeds is not None:
        attrs["seed_positions"] = seed_positions
    outs = bind(WhileGrad, inputs, attrs)
    ext_grads = dict(zip(wanted, outs[n:]))
    result = [g if loop_inputs[i].dtype.is_differentiable else None for i, g in enumerate(outs[:n])]
    return result + [ext_grads.get(i) for i in range(len(externals))]


def _zeros(t):
    from ..ops.array.basic import zeros_like
    return zeros_like(t)



def _spec(t):
    spec = _LoopVarSpec(TensorShape([]) if t.dtype is _dt.resource else t.shape, t.dtype)
    if t.dtype is _dt.resource:
        spec.variable_spec = (t._value.shape, t._value.dtype) if isinstance(t, EagerTensor) else t.variable_spec
    return spec


def _body_gradient(body, externals, wanted, seed_positions=()):
    """The traced gradient of one body iteration, from the values that iteration kept:
    (loop vars in, externals, intermediates, output grads) -> (grads of the loop vars in, grads of
    the wanted externals). The body's ops are replayed as tape records, nothing recomputed."""
    from ..ops.variables.resource import ReadVariableOp
    from ..trace.gradient import records_of
    from ..autodiff.tape import backprop
    full = body.with_intermediates()
    n, m, k = len(body.explicit), len(externals), len(full.intermediates)
    captured = body.graph.internal_captures
    specs = ([_LoopVarSpec(ph.shape, ph.dtype) for ph in body.explicit] + [_spec(t) for t in externals]
             + [_LoopVarSpec(t.shape, t.dtype) for t in full.intermediates]
             + [_LoopVarSpec(o.shape, o.dtype) for o in body.outputs]
             + [_LoopVarSpec(full.intermediates[p].shape, full.intermediates[p].dtype) for p in seed_positions])
    n_out = len(body.outputs)

    def grad_fn(*flat):
        xs, ext = list(flat[:n]), list(flat[n:n + m])
        kept, gs = flat[n + m:n + m + k], list(flat[n + m + k:n + m + k + n_out])
        kept_seeds = list(flat[n + m + k + n_out:])  # gradients reaching kept values from higher orders
        env = {id(ph): x for ph, x in zip(body.explicit, xs)}
        for j, ph in enumerate(captured):
            env[id(ph)] = ext[body.index[j]]
        for sym, value in zip(full.intermediates, kept):
            env[id(sym)] = value
        records = records_of(body, env)  # the body's live ops: their outputs are the kept values
        targets = [env.get(id(o), o) for o in body.outputs] + [kept[p] for p in seed_positions]
        sources = xs + [ext[i] for i in wanted]
        found = backprop(records, targets, sources, gs + kept_seeds)
        result = []
        for src in sources:
            g = found.get(id(src))
            if g is None:
                g = _zeros(bind(ReadVariableOp, (src,)) if src.dtype is _dt.resource else src)
            result.append(g)
        return result

    branch = subgraph.trace(grad_fn, specs, f"{body.name}_grad")
    branch.n_intermediates = k
    kept_params = branch.graph.inputs[n + m:n + m + k]
    used = {id(branch.program.resolve(t)) for op in branch.program.ops for t in op.inputs} | {
        id(branch.program.resolve(t)) for t in branch.program.outputs}
    reads = {i for i, ph in enumerate(kept_params) if id(ph) in used}
    body.kept_for_gradient = sorted(reads | set(body.kept_for_gradient or ()))  # every gradient's needs
    return branch


def _while_grad_kernel(history, *rest, body_grad, n_vars, ext_index, body=None, seed_positions=None,
                       maximum_iterations=-1):
    if seed_positions is not None:  # the last input: gradients reaching the history itself
        rest, seeds_value = rest[:-1], rest[-1]
        if seeds_value.payload is None:  # a zero gradient: nothing reached the history after all
            seed_positions = None
        else:
            var_seeds, kept_seeds = seeds_value.payload
    n_ext = len(rest) - n_vars
    externals, grads = list(rest[:n_ext]), list(rest[n_ext:])
    if history.payload is None:
        raise RuntimeError("tf.while_loop ran without keeping the history its gradient needs")
    positions, entries = history.payload
    n_kept = body_grad.n_intermediates
    ext_acc = None
    for i in range(len(entries) - 1, -1, -1):
        loop_vars, kept = entries[i]
        if positions is not None:  # only what the gradient reads was kept; the rest is never read
            full = [None] * n_kept
            for p, value in zip(positions, kept):
                full[p] = value
            kept = full
        extra = [] if seed_positions is None else [s[i] for s in kept_seeds]
        out = body_grad.fn(*loop_vars, *externals, *kept, *grads, *extra)
        grads = list(out[:n_vars])
        if seed_positions is not None:
            grads = [g + s[i] for g, s in zip(grads, var_seeds)]
        ext_part = out[n_vars:]
        ext_acc = list(ext_part) if ext_acc is None else [a + b for a, b in zip(ext_acc, ext_part)]
    if ext_acc is None:  # zero iterations: nothing flowed to the externals
        ext_acc = [np.zeros_like(np.asarray(_ext_value(externals[i]))) for i in ext_index]
    # A TensorList read inside the loop (map_fn's elements) gets a TensorList gradient: keep it whole.
    return grads + [a if isinstance(a, VariantValue) else np.asarray(a) for a in ext_acc]


def _ext_value(value):
    """The array an external gradient has the shape of (a variable's value for a handle)."""
    return value._array if hasattr(value, "_array") else value


def _while_grad_infer(inputs, attrs):
    n = attrs["n_vars"]
    if attrs.get("seed_positions") is not None:
        inputs = inputs[:-1]  # the history's own gradient
    seeds = inputs[len(inputs) - n:]
    externals = inputs[1:len(inputs) - n]
    specs = [Spec(s.shape, s.dtype) for s in seeds]
    for i in attrs["ext_index"]:
        t = externals[i]
        if t.dtype is _dt.resource:
            shape, dtype = (t._value.shape, t._value.dtype) if isinstance(t, EagerTensor) else t.variable_spec
            specs.append(Spec(shape, dtype))
        else:
            specs.append(Spec(t.shape, t.dtype))
    return specs


def _keep_history(attrs):
    return {**attrs, "keep_history": True}



While = defop("While", inputs=("input",), kernel=_while_kernel, infer=_while_infer, grad=_while_grad,
              multi_output=True, stateful=True, sparse_output_grads=True, record_attrs=_keep_history,
              doc="A loop whose body or condition has side effects.")
StatelessWhile = defop("StatelessWhile", inputs=("input",), kernel=_while_kernel, infer=_while_infer,
                       grad=_while_grad, multi_output=True, sparse_output_grads=True, record_attrs=_keep_history,
                       doc="A loop over side-effect-free cond and body sub-graphs.")
WhileGrad = defop("WhileGrad", inputs=("history", "input"), kernel=_while_grad_kernel, infer=_while_grad_infer,
                  grad=while_grad_grad, multi_output=True,
                  doc="Walks a loop's history backwards through the traced gradient of its body.")


def _invariant_specs(flat_vars, shape_invariants):
    if shape_invariants is None:
        return [_LoopVarSpec(v.shape, v.dtype) for v in flat_vars]
    flat_inv = nest.flatten(shape_invariants, expand_composites=True)
    if len(flat_inv) != len(flat_vars):
        raise ValueError("shape_invariants must have the same structure as loop_vars")
    specs = []
    for v, inv in zip(flat_vars, flat_inv):
        inv = as_shape(inv)
        if not inv.is_compatible_with(v.shape):
            raise ValueError(f"The shape invariant specified for {getattr(v, 'name', v)} is not compatible with "
                             f"the initial shape of the loop variable. It enters the loop with shape "
                             f"{v.shape}, but the specified shape invariant is {inv}.")
        specs.append(_LoopVarSpec(inv, v.dtype))
    return specs


def _check_condition(result):
    """TensorFlow's refusals of a traced loop condition that is not one bool: its class and words,
    from the LoopCond node it builds (a dtype) and the loop's Switch (a shape)."""
    if result.dtype is not _dt.bool_:
        raise InvalidArgumentError(None, None, f"Input 'input' passed {tf_type_word(result.dtype)} expected bool "
                                               f"while building NodeDef 'while/LoopCond' using Op<name=LoopCond; "
                                               f"signature=input:bool -> output:bool>")
    if result.shape.rank not in (None, 0):
        raise InvalidArgumentError(None, None, f"The second input must be a scalar, but it has shape "
                                               f"{fmt_dims(result.shape)}")


def _squeezed_condition(pred):
    """A traced condition of rank other than 0 (`i < n` with n of shape [1]) squeezed to the scalar it
    holds, as TensorFlow's tf.while_loop does; one still holding several values fails (_check_condition
    when its shape is known, _truth when the loop runs)."""
    if isinstance(pred, Tensor) and pred.shape.rank != 0:
        from ..ops.array.reshaping import squeeze
        return squeeze(pred)
    return pred


def _truth(value):
    """A loop condition's value as a Python bool: one that is not a scalar (a squeezed condition of unknown
    shape that held several values) fails as TensorFlow's loop does when it runs."""
    value = np.asarray(value)
    if value.ndim:
        raise InvalidArgumentError(None, None, f"The second input must be a scalar, but it has shape "
                                               f"{fmt_dims(TensorShape(value.shape))}")
    return bool(value)


def _check_bare_result(out, structure):
    """A body that returns one tensor for a list of loop variables, eagerly: TensorFlow takes it
    apart along its first axis, so that a vector of another length than the list is a structure
    mismatch, in its words. (One value for a one-item list passes here, as a scalar or a one-row
    tensor, where TensorFlow refuses a scalar it cannot iterate and unpacks the one row.)"""
    rows = out.shape[0] if isinstance(out, Tensor) and out.shape.rank else None
    if rows is not None and rows != len(structure) or (len(structure) != 1 and rows is None):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: "
                         f"{structure!r}\n\nSecond structure: {out!r}")


def _check_body_outputs(body, specs, flat_vars):
    if len(body.outputs) != len(specs):
        raise ValueError(f"The body of tf.while_loop returned {len(body.outputs)} values for {len(specs)} loop "
                         f"variables; it must return the same structure as loop_vars.")
    for i, (out, spec, var) in enumerate(zip(body.outputs, specs, flat_vars)):
        name = getattr(var, "name", f"loop_var_{i}") if not isinstance(var, EagerTensor) else f"loop_var_{i}"
        if out.dtype is not spec.dtype:
            raise TypeError(f"Loop var {name} enters the loop with type <dtype: '{spec.dtype.name}'> but has type "
                            f"<dtype: '{out.dtype.name}'> after 1 iteration. {name} type should remain constant.")
        if not spec.shape.is_subtype_of(spec.shape) or not out.shape.is_subtype_of(spec.shape):
            raise ValueError(
                f"Input tensor `{name}` enters the loop with shape {spec.shape}, but has shape {out.shape} after "
                f"one iteration. To allow the shape to vary across iterations, use the `shape_invariants` "
                f"argument of tf.while_loop to specify a less-specific shape.")


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """`tf.while_loop`: repeats `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    single = not isinstance(loop_vars, (list, tuple))  # one tensor: cond(x), body(x) -> x
    structure = loop_vars
    flat_vars = [v if isinstance(v, Tensor) else as_tensor(v) for v in nest.flatten(loop_vars, expand_composites=True)]

    def pack(flat):
        return nest.pack_sequence_as(structure, flat, expand_composites=True)

    def call(fn, flat):
        packed = pack(flat)
        return fn(packed) if single else fn(*packed)

    eager = state.graph is None

    def body_flat(*flat):
        out = call(body, list(flat))
        if single and not isinstance(out, (list, tuple)):
            out = [out]
        elif isinstance(structure, (list, tuple)) and not isinstance(out, (list, tuple)):
            if eager:  # (a traced loop takes the one tensor as the one loop variable)
                _check_bare_result(out, structure)
            out = [out]
        elif not single:
            nest.assert_same_structure(structure, out, check_types=False, expand_composites=True)
        return nest.flatten(out, expand_composites=True)

    if isinstance(maximum_iterations, Tensor) and state.graph is not None:
        known = maximum_iterations._static_value() if hasattr(maximum_iterations, "_static_value") else None
        if known is None:
            return _bounded_by_tensor(cond, body, loop_vars, single, shape_invariants, maximum_iterations)
        maximum_iterations = int(known)
    if state.graph is None:  # eager: a Python loop (a tape records each iteration's ops)
        values, i = list(flat_vars), 0
        while (maximum_iterations is None or i < int(maximum_iterations)) and bool(call(cond, values)):
            values = [v if isinstance(v, Tensor) else as_tensor(v) for v in body_flat(*values)]
            i += 1
        return pack(values)
    specs = _invariant_specs(flat_vars, shape_invariants)
    cond_b = subgraph.trace(lambda *xs: _squeezed_condition(call(cond, list(xs))), specs, "while_cond")
    if len(cond_b.outputs) != 1:
        raise TypeError("The condition of tf.while_loop must return a single boolean tensor.")
    _check_condition(cond_b.outputs[0])
    body_b = subgraph.trace(body_flat, specs, "while_body")
    _check_body_outputs(body_b, specs, flat_vars)
    externals, stateful = subgraph.share_externals(cond_b, body_b)
    inputs = tuple(flat_vars) + tuple(externals)
    attrs = {"cond": cond_b, "body": body_b, "n_vars": len(flat_vars),
             "output_specs": [(s.shape, s.dtype) for s in specs]}
    if maximum_iterations is not None:
        attrs["maximum_iterations"] = int(maximum_iterations)
    outs = bind(While if stateful else StatelessWhile, inputs, attrs, name or "while")  # TF's node name
    return pack(outs[:len(flat_vars)])


def _bounded_by_tensor(cond, body, loop_vars, single, shape_invariants, limit):
    """A loop whose `maximum_iterations` is known only at run time: an iteration counter is one
    more loop variable, and the loop stops at whichever comes first, the bound or `cond`."""
    from ..ops.math.elementwise import less, logical_and

    def bounded_cond(i, values):
        return logical_and(less(i, limit), cond(values) if single else cond(*values))

    def bounded_body(i, values):
        out = body(values) if single else body(*values)
        if not single and not isinstance(out, (list, tuple)):
            out = [out]
        return i + 1, out

    invariants = None
    if shape_invariants is not None:
        invariants = (TensorShape([]), shape_invariants)
    start = as_tensor(0, dtype=limit.dtype)
    return while_loop(bounded_cond, bounded_body, (start, loop_vars), shape_invariants=invariants)[1]
