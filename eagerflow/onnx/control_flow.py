"""If/While -> ONNX If/Loop.

A branch becomes an ONNX sub-graph built by a child builder: its captured placeholders name the
enclosing graph's values (ONNX sub-graphs read outer-scope values by name), its outputs go through
fresh Identities. TensorFlow's While tests `cond` before every iteration, ONNX's Loop tests the
condition the body returns: so the first test is `cond` inlined on the initial values, and the
body sub-graph runs `body` and then `cond` on its results. The If/While op's extra last output (the
values a gradient would keep) is not exported; a graph reading it cannot be exported.
"""
from __future__ import annotations

import numpy as np


def _branch_graph(b, branch, explicit=(), explicit_names=()):
    """`branch` as an ONNX GraphProto with the given inputs; returns (graph, child builder)."""
    child = b.child()
    for placeholder, name in zip(branch.explicit, explicit_names):
        child.bind(placeholder, name)
    outputs = child.emit_branch(branch)
    infos = [child.value_info(name, t.dtype, None) for name, t in zip(outputs, branch.outputs)]
    return child.graph_proto(branch.name, list(explicit), infos), outputs


def _check_extra_output_unused(op, n):
    if len(op.outputs) > n and op.outputs[n].consumers():
        raise ValueError(f"cannot export {op.type} {op.name!r}: its gradient-kept values are read")


def convert_if(b, op):
    n = len(op.attrs["output_specs"])
    _check_extra_output_unused(op, n)
    then_graph, _ = _branch_graph(b, op.attrs["then_branch"])
    else_graph, _ = _branch_graph(b, op.attrs["else_branch"])
    results = b.add_multi("If", [b.name(op.inputs[0])], n, then_branch=then_graph, else_branch=else_graph)
    _same_sequences(b, [info.name for info in then_graph.output], results)
    return results


def convert_while(b, op):
    n = op.attrs["n_vars"]
    _check_extra_output_unused(op, n)
    cond, body = op.attrs["cond"], op.attrs["body"]
    initial = [b.name(t) for t in op.inputs[:n]]
    inline = b.child(share_nodes=True)
    for placeholder, name in zip(cond.explicit, initial):
        inline.bind(placeholder, name)
    first_test = inline.emit_branch(cond)[0]

    child = b.child()
    names = [child.fresh(f"while/var{i}") for i in range(n)]
    _same_sequences(b, initial, names)
    for placeholder, name in zip(body.explicit, names):
        child.bind(placeholder, name)
    new_values = child.emit_branch(body)
    test = child.child(share_nodes=True)
    for placeholder, name in zip(cond.explicit, new_values):
        test.bind(placeholder, name)
    keep_going = test.emit_branch(cond)[0]
    iteration, condition_in = child.fresh("while/iteration"), child.fresh("while/cond_in")
    inputs = [child.value_info(iteration, np.int64, []), child.value_info(condition_in, np.bool_, [])]
    inputs += [child.value_info(name, t.dtype, None) for name, t in zip(names, op.inputs[:n])]
    outputs = [child.value_info(keep_going, np.bool_, [])]
    outputs += [child.value_info(name, t.dtype, None) for name, t in zip(new_values, op.outputs[:n])]
    body_graph = child.graph_proto(body.name, inputs, outputs)
    results = b.add_multi("Loop", ["", first_test, *initial], n, body=body_graph)
    _same_sequences(b, initial, results)
    return results


def _same_sequences(b, sources, targets):
    """Names `targets` carry sequences (TensorLists) of the dtypes `sources` carry."""
    known = b.root.sequence_dtypes
    for source, target in zip(sources, targets):
        if source in known:
            known[target] = known[source]
