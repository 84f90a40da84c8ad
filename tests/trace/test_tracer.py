"""trace/tracer.py: the first step of a trace on its own: a Python function run into a graph,
with nothing compiled and no cache involved."""
import inspect

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.codegen import program as program_module
from eagerflow._src.codegen.program import compile_program
from eagerflow._src.trace.tracer import Tracer


def _tracer(fn, autograph=False):
    return Tracer(fn.__name__, inspect.signature(fn), autograph=autograph, described_as=fn)


def test_a_run_makes_a_graph_and_compiles_nothing(monkeypatch):
    monkeypatch.setattr(program_module, "compile_program", lambda *a, **k: pytest.fail("the tracer compiled"))
    bias = tf.constant([1.0, 2.0])

    def shifted(x, scale):
        return x * scale + bias

    traced = _tracer(shifted).run(shifted, (tf.TensorSpec([2]), 3.0), {})
    graph = traced.graph
    assert [name for name, _ in traced.param_specs] == ["x"]  # the Python float is not a parameter
    assert len(graph.outputs) == 1 and graph.structured_outputs is graph.outputs[0]
    (placeholder,) = graph.internal_captures
    np.testing.assert_array_equal(traced.captures[id(placeholder)], [1.0, 2.0])
    assert traced.created == []
    monkeypatch.undo()
    (out,) = compile_program(graph, graph.outputs, traced.captures, name="shifted").fn(np.float32([1.0, 1.0]))
    np.testing.assert_allclose(out, [4.0, 5.0])


def test_autograph_turns_a_tensor_if_into_a_cond():
    def relu_ish(x):
        if tf.reduce_sum(x) > 0.0:
            return x
        return -x

    graph = _tracer(relu_ish, autograph=True).run(relu_ish, (tf.TensorSpec([2]),), {}).graph
    assert any(op.type in ("If", "StatelessIf") for op in graph.get_operations())


def test_variables_created_by_the_run_are_returned():
    def makes_one(x):
        v = tf.Variable(1.0)
        return x + v

    traced = _tracer(makes_one).run(makes_one, (tf.TensorSpec([]),), {})
    assert len(traced.created) == 1


def test_a_returned_python_object_names_the_users_function():
    def returns_object(x):
        return object()

    with pytest.raises(TypeError, match="in compilation of <function .*returns_object"):
        _tracer(returns_object).run(returns_object, (tf.TensorSpec([]),), {})
