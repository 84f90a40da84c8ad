"""TensorFlow's Case / StatelessCase (`tf.switch_case`), imported as a chain of eagerflow Ifs: branch
k runs when the index equals k, and an index outside [0, n) runs the last branch, as in TensorFlow.
Only the chosen branch runs; each If's other side is a sub-graph holding the rest of the chain."""
from __future__ import annotations

import numpy as np

from ..._src.control_flow.subgraph import Branch
from ..._src.graph.graph import Graph
from ..._src.ops.registry import OPS


def case(importer, graph, node, inputs, where):
    if not inputs or inputs[0].dtype.name != "int32" or inputs[0].shape.rank not in (None, 0):
        raise importer.fail(where, "a Case needs a scalar int32 branch index first")
    attr = node.attr.get("branches")
    names = [f.name for f in attr.list.func] if attr is not None else []
    if not names:
        raise importer.fail(where, "a Case without branches")
    outputs = _chain(importer, graph, inputs[0], inputs[1:], names, 0, node.name, where)
    return {"output": outputs}, None


def _chain(importer, graph, index, args, names, k, name, where):
    """The outputs, in `graph`, of branches names[k:] chosen by `index`."""
    if k == len(names) - 1:
        fdef = importer.function(names[k])
        if len(fdef.signature.input_arg) != len(args):
            raise importer.fail(where, f"branch {names[k]!r} takes {len(fdef.signature.input_arg)} arguments, "
                                       f"the Case passes {len(args)}")
        return importer._body(graph, fdef, {a.name: t for a, t in zip(fdef.signature.input_arg, args)},
                              f"{where} -> function {names[k]!r}")
    equal = importer.add_op(graph, OPS["Equal"], [index, graph.literal(np.array(k, np.int32))], {},
                            f"{name}_is_{k}", where)
    then_b, _ = importer._branch(graph, names[k], args, [], where)
    rest = Graph(f"{name}_after_{k}", outer=graph)
    captured = [rest.capture(t) for t in [index, *args]]
    outputs = _chain(importer, rest, captured[0], captured[1:], names, k + 1, name, where)
    rest.outputs = outputs
    rest.finalize_names()
    try:
        else_b = Branch.from_graph(rest, [], outputs, list(outputs), rest.name)
    except Exception as err:
        raise importer.fail(where, f"the Case's branches cannot be compiled ({type(err).__name__}: "
                                   f"{str(err)[:200]})") from None
    if [t.dtype for t in then_b.outputs] != [t.dtype for t in else_b.outputs]:
        raise importer.fail(where, "the Case's branches return different dtypes")
    return importer.if_op(graph, equal.outputs[0], then_b, else_b, f"{name}_{k}", where)[0]["output"]
