"""Where a parity difference starts (best effort): the first op of the traced graph whose values
differ from the same op of a fresh trace of the function made now.

Why a fresh trace rather than matching the eager run's ops: what makes a graph and its Python
disagree is almost always Python state read while tracing (a global, a closure value, a Python
branch), and a trace made now reads today's values. Both graphs run through the reference
interpreter (graph/evaluate.py) on the call's inputs keeping every intermediate; ops are matched by
node name (deterministic for the same code path), in the traced graph's execution order. A frozen
constant shows as a differing Const; a branch taken differently as an op present in one graph only.
Ops inside cond/while bodies are compared through their If/While op's outputs only. When the
fresh trace agrees with the old one everywhere, the difference comes from how the graph runs
(AutoGraph-converted control flow, an op's kernel), and the report says so.
Variables and random streams are put back as parity.py keeps them; printing is silenced.
"""
from __future__ import annotations

from ..core.tensor import wrap_array
from . import parity


def first_differing_op(function, cf, args, kwargs, arrays, variables, before, after):
    """A report line naming the first differing op, or None when none can be named."""
    from ..graph.evaluate import evaluate
    fresh = type(function)(function.python_function, autograph=function._autograph, name=function._name,
                           experimental_check_parity=False)
    random_state = parity._save_random()
    try:
        with parity.silenced():
            now = fresh.get_concrete_function(*args, **kwargs)
        old_ops, new_ops = [], []
        for graph, record in ((cf.graph, old_ops), (now.graph, new_ops)):
            parity._restore(variables, before)
            with parity.silenced():
                evaluate(graph, [wrap_array(a) for a in arrays], list(graph.outputs), record=record)  # flat: no Nones
    finally:
        parity._restore(variables, after)
        parity._restore_random(random_state)
    new_by_name = {op.name: outs for op, outs in new_ops}
    for op, outs in old_ops:
        if op.type == "Placeholder" or parity._draws_random(op):
            continue
        where = _site(op)
        if op.name not in new_by_name:
            return (f"First op that differs (best effort): node '{op.name}' ({op.type}){where} is in the traced graph "
                    f"but not in a trace made now: the Python code takes another path today.")
        for i, (g, e) in enumerate(zip(outs if isinstance(outs, list) else [outs], _as_list(new_by_name[op.name]))):
            why = parity.value_difference(g, e)
            if why is not None:
                frozen = " (a constant frozen when the function was traced)" if op.type == "Const" else ""
                return (f"First op that differs (best effort): node '{op.name}' ({op.type}){where}{frozen}, "
                        f"output {i}: traced {why.replace('graph ', '', 1).replace(', eager ', ', now ', 1)}")
    old_names = {op.name for op, _ in old_ops}
    extra = [op for op, _ in new_ops if op.name not in old_names and op.type != "Placeholder"]
    if extra:
        op = extra[0]
        return (f"First op that differs (best effort): node '{op.name}' ({op.type}){_site(op)} is in a trace made now "
                f"but not in the traced graph: the Python code takes another path today.")
    return ("First op that differs: none found (best effort): a trace made now computes the same values, so the "
            "difference comes from how the graph runs (AutoGraph-converted control flow, an op's kernel) or from "
            "the earlier trace of a nested tf.function (its Python values frozen then).")


def _as_list(outs):
    return outs if isinstance(outs, list) else [outs]


def _site(op):
    return f" created at {op.source[0]}:{op.source[1]}" if op.source else ""
