"""graph/verify.py: traced graphs and optimized programs pass; each kind of corruption is caught
and named. Corrupt graphs are built as views (`get_operations`, `inputs`, `outputs`) over a real
traced graph, corrupt programs by editing a Program the way a buggy pass would."""
import os
import subprocess
import sys
import types

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.graph.verify import VerificationError, graph_problems, program_problems, verify_graph, verify_program
from eagerflow._src.passes import pipeline
from eagerflow._src.passes.pipeline import optimize, program_of
from eagerflow._src.passes.simplify import forward_identities


def _traced():
    v = tf.Variable(1.0)

    @tf.function
    def f(x, y):
        a = tf.matmul(x, y)
        tf.print(a)
        v.assign_add(1.0)
        b = tf.exp(a) + 2.0
        return b, tf.identity(a)

    spec = tf.TensorSpec([2, 2])
    return f.get_concrete_function(spec, spec).graph


def _view(graph, ops=None, inputs=None, outputs=None):
    return types.SimpleNamespace(get_operations=lambda: list(graph.get_operations() if ops is None else ops),
                                 inputs=graph.inputs if inputs is None else inputs,
                                 outputs=graph.outputs if outputs is None else outputs, name="view")


def _op(graph, type_):
    return next(op for op in graph.get_operations() if op.type == type_)


def test_traced_graph_and_optimized_program_are_valid():
    graph = _traced()
    assert graph_problems(graph) == []
    program = optimize(graph)
    assert program_problems(program, graph) == []
    verify_graph(graph)
    verify_program(program, graph)


def test_graph_use_before_definition_is_reported():
    graph = _traced()
    ops = graph.get_operations()
    matmul = _op(graph, "MatMul")
    reordered = [op for op in ops if op is not matmul] + [matmul]
    problems = graph_problems(_view(graph, ops=reordered))
    assert any("MatMul:0" in p and "used before it exists" in p for p in problems)
    with pytest.raises(VerificationError, match="used before it exists"):
        verify_graph(_view(graph, ops=reordered))


def test_graph_duplicate_op_and_name_are_reported():
    graph = _traced()
    ops = graph.get_operations()
    problems = graph_problems(_view(graph, ops=ops + [ops[-1]]))
    assert any("listed twice" in p for p in problems)
    assert any("used by two ops" in p for p in problems)


def test_graph_outputs_must_belong_to_the_graph():
    graph = _traced()
    other = _traced()
    problems = graph_problems(_view(graph, outputs=[other.outputs[0]]))
    assert any("graph output" in p and "not produced by this graph" in p for p in problems)
    problems = graph_problems(_view(graph, inputs=[_op(graph, "MatMul").outputs[0]]))
    assert any("is not a Placeholder" in p for p in problems)


def test_graph_foreign_input_is_reported():
    graph = _traced()
    other = _traced()
    ops = graph.get_operations()
    foreign = _op(other, "MatMul")
    problems = graph_problems(_view(graph, ops=ops + [foreign]))
    assert any("belongs to another graph" in p for p in problems)
    assert any("is not a tensor of this graph" in p for p in problems)


def test_shape_rule_disagreement_is_reported():
    @tf.function
    def f(x):
        return tf.reduce_sum(x, axis=0)

    graph = f.get_concrete_function(tf.TensorSpec([3, 4])).graph
    program = program_of(graph)
    x = graph.inputs[0]
    wrong = tf.function(lambda: tf.constant(np.zeros([5], np.float32))).get_concrete_function().graph
    # A substitution across graphs and of a different shape: three findings, all named.
    program.subst[id(x)] = wrong.outputs[0]
    problems = program_problems(program, graph)
    assert any("another graph" in p for p in problems)
    assert any("changes shape (3, 4) -> (5,)" in p for p in problems)


def test_substitution_dtype_and_shape_changes_are_reported():
    @tf.function
    def f(x):
        return tf.exp(x) + tf.cast(tf.ones([2], tf.int32), tf.float32)

    graph = f.get_concrete_function(tf.TensorSpec([2])).graph
    program = program_of(graph)
    exp = _op(graph, "Exp")
    ones_dims = next(op for op in graph.get_operations() if op.type == "Const" and op.attrs["value"].dtype == np.int32)
    program.subst[id(exp.outputs[0])] = ones_dims.outputs[0]
    problems = program_problems(program, graph)
    assert any("changes dtype float32 -> int32" in p for p in problems)
    assert any("re-running its shape rule" in p or "its shape rule says" in p for p in problems)


def test_substitution_cycle_and_dangling_key_are_reported():
    graph = _traced()
    program = program_of(graph)
    exp = _op(graph, "Exp").outputs[0]
    matmul = _op(graph, "MatMul").outputs[0]
    program.subst[id(exp)] = matmul
    program.subst[id(matmul)] = exp
    stranger = np.float32(1.0)  # keeps its id alive: a key no graph tensor has
    program.subst[id(stranger)] = exp
    problems = program_problems(program, graph)
    assert any("cycle" in p for p in problems)
    assert any("unknown tensor" in p and "dangling" in p for p in problems)


def test_program_input_computed_too_late_or_never():
    graph = _traced()
    program = program_of(graph)
    matmul = _op(graph, "MatMul")
    program.ops = [op for op in program.ops if op is not matmul]
    problems = program_problems(program, graph)
    assert any("MatMul:0" in p and "not computed before it" in p for p in problems)
    program.ops.append(matmul)  # back, but after its consumers
    problems = program_problems(program, graph)
    assert any("out of its graph order" in p for p in problems)


def test_output_not_computed_is_reported():
    graph = _traced()
    program = program_of(graph)
    forward_identities(program)
    add = next(op for op in graph.get_operations() if op.type == "AddV2")
    program.ops = [op for op in program.ops if op is not add]
    problems = program_problems(program, graph)
    assert any("resolves to add:0, which the program does not compute" in p for p in problems)


def test_lost_or_reordered_stateful_ops_are_reported():
    graph = _traced()
    program = optimize(graph)
    printed = _op(graph, "PrintV2")
    kept = list(program.ops)
    program.ops = [op for op in kept if op is not printed]
    assert any("lost ['PrintV2']" in p for p in program_problems(program, graph))
    # Both stateful ops kept, but the variable update moved before the print.
    assign = _op(graph, "AssignAddVariableOp")
    i, j = kept.index(printed), kept.index(assign)
    swapped = list(kept)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    program.ops = swapped
    assert any("reordered" in p or "graph order" in p for p in program_problems(program, graph))


def test_optimize_under_verify_names_the_pass_that_broke_the_program(monkeypatch):
    monkeypatch.setattr(pipeline, "VERIFY", True)
    graph = _traced()

    def drop_everything(program):
        program.ops = [op for op in program.ops if op.type == "Placeholder"]

    passes = pipeline.PASSES[:1] + (("drop everything", drop_everything),)
    with pytest.raises(VerificationError, match="after pass 'drop everything'"):
        optimize(graph, passes=passes)
    monkeypatch.setattr(pipeline, "VERIFY", False)
    optimize(graph, passes=passes)  # unchecked: the broken program goes through silently


def test_env_var_turns_verification_on():
    code = "from eagerflow._src.passes import pipeline; print(pipeline.VERIFY)"
    env = dict(os.environ, EAGERFLOW_VERIFY="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    env["EAGERFLOW_VERIFY"] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
