"""Loading a loop's gradient op (`WhileGrad`, control_flow/while_loop.py) from a file.

A WhileGrad holds two sub-graphs: `body_grad`, the traced gradient of one body iteration (it takes
the loop variables, the loop's captured values, the body's intermediates, the output gradients and,
at second order, the kept values' gradients, and captures nothing), and `body`, the loop body it
differentiates (its captures name the WhileGrad's inputs after the history). Its inputs are
`history, *externals, *output gradients[, history gradient]`. Everything the kernel will index
with is checked here against the rebuilt sub-graphs, so a file cannot make it read out of range.

The forward loop keeps, per iteration, only the intermediates the gradient reads (the body's
`kept_for_gradient`, set when the gradient was traced). That is state of the traced objects, not
of the graphs: it is worked out again from the rebuilt `body_grad` for the While whose history the
op reads, so the loaded loop keeps no more than the original did.
"""
from __future__ import annotations

from .._src.core import dtypes as _dt
from .files import data_loss

_LOOPS = ("While", "StatelessWhile")


def check_while_grad(inputs, attrs, where):
    """Raises DataLossError unless the WhileGrad's inputs and attributes fit together; then binds
    the body's captures and sets what the kernel reads from the branches."""
    body, body_grad, n = attrs.get("body"), attrs.get("body_grad"), attrs.get("n_vars")
    ext_index, seed_positions = attrs.get("ext_index"), attrs.get("seed_positions")
    if not (_is_branch(body) and _is_branch(body_grad) and type(n) is int and n > 0
            and isinstance(ext_index, list) and (seed_positions is None or isinstance(seed_positions, tuple))):
        raise data_loss(where, "a WhileGrad needs body and body_grad sub-graphs, n_vars > 0 and ext_index")
    rest = list(inputs[1:])
    if seed_positions is not None:
        if not rest or rest[-1].dtype is not _dt.variant:
            raise data_loss(where, "a WhileGrad with seed_positions takes the history's gradient last")
        rest = rest[:-1]
    n_ext = len(rest) - n
    if not inputs or inputs[0].dtype is not _dt.variant or n_ext < 0:
        raise data_loss(where, "a WhileGrad takes the loop's history, its captured values and n_vars gradients")
    externals, seeds = rest[:n_ext], rest[n_ext:]
    if not _distinct_ints(ext_index, n_ext):
        raise data_loss(where, "ext_index must be distinct positions among the loop's captured values")
    known = {id(t) for t in externals}
    if len(body.explicit) != n or len(body.outputs) != n or any(id(t) not in known for t in body.externals):
        raise data_loss(where, "the body must take and return n_vars values and capture only the op's inputs")
    intermediates = body.with_intermediates().intermediates
    k = len(intermediates)
    seed_positions = () if seed_positions is None else seed_positions
    if not _distinct_ints(list(seed_positions), k):
        raise data_loss(where, "seed_positions must be distinct positions among the body's intermediates")
    expected_in = ([t.dtype for t in body.explicit] + [t.dtype for t in externals] + [t.dtype for t in intermediates]
                   + [t.dtype for t in seeds] + [intermediates[p].dtype for p in seed_positions])
    expected_out = [t.dtype for t in body.explicit] + [_value_dtype(externals[i]) for i in ext_index]
    if body_grad.externals or [t.dtype for t in body_grad.explicit] != expected_in \
            or [t.dtype for t in seeds] != [t.dtype for t in body.explicit] \
            or [t.dtype for t in body_grad.outputs] != expected_out:
        raise data_loss(where, "body_grad does not take and return what the loop's gradient passes it")
    body.bind_externals(externals)
    body_grad.n_intermediates = k
    _keep_only_what_the_gradient_reads(inputs[0], body, body_grad, n, n_ext, k, where)


def _keep_only_what_the_gradient_reads(history, body, body_grad, n, n_ext, k, where):
    loop = getattr(history, "_op", None)
    if loop is None or loop.type not in _LOOPS:
        return  # e.g. a history captured into a branch: that loop keeps everything, as safe as before
    forward = loop.attrs["body"]
    if history is not loop.outputs[-1] or loop.attrs.get("n_vars") != n or not loop.attrs.get("keep_history") \
            or [t.dtype for t in forward.with_intermediates().intermediates] != \
            [t.dtype for t in body.with_intermediates().intermediates] \
            or [t.dtype for t in forward.explicit] != [t.dtype for t in body.explicit]:
        raise data_loss(where, "the history is not that of a loop over this body, kept for its gradient")
    kept_params = body_grad.graph.inputs[n + n_ext:n + n_ext + k]
    program = body_grad.program
    used = {id(program.resolve(t)) for op in program.ops for t in op.inputs} | {
        id(program.resolve(t)) for t in program.outputs}
    reads = {i for i, ph in enumerate(kept_params) if id(ph) in used}
    forward.kept_for_gradient = sorted(reads | set(forward.kept_for_gradient or ()))


def _is_branch(value):
    return hasattr(value, "externals") and hasattr(value, "explicit") and hasattr(value, "program")


def _distinct_ints(values, bound):
    return all(type(v) is int and 0 <= v < bound for v in values) and len(set(values)) == len(values)


def _value_dtype(t):
    """The dtype of a gradient for `t`: a variable handle's value dtype."""
    if t.dtype is _dt.resource:
        spec = getattr(t, "variable_spec", None)
        return spec[1] if spec is not None else t.dtype
    return t.dtype
