"""codegen/program.py: `compile_program`, the one entry point from a graph to code that runs.

It is tested as a unit (a traced graph compiled again, run on arrays against NumPy), as the entry
point every caller goes through (a traced function and its cond branches), and for what it frees
the constructors of: building a ConcreteFunction or a Branch from an Executable compiles nothing.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.codegen import program as program_module
from eagerflow._src.codegen.program import DEFAULT, RECORDING, CompileOptions, Executable, compile_program
from eagerflow._src.control_flow.subgraph import Branch
from eagerflow._src.trace.concrete import ConcreteFunction

X = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
W = np.array([[0.5, 1.0], [-1.0, 2.0]], np.float32)


def _traced(fn, *specs):
    return tf.function(fn).get_concrete_function(*specs)


def _dense(x, w):
    return tf.nn.relu(tf.matmul(x, w) + 1.0)


def test_a_traced_graph_compiles_to_a_callable_over_arrays():
    cf = _traced(_dense, tf.TensorSpec([2, 2]), tf.TensorSpec([2, 2]))
    executable = compile_program(cf.graph, cf.graph.outputs, {}, name="dense_again")
    assert isinstance(executable, Executable) and executable.compiled is None
    (out,) = executable.fn(X, W)
    np.testing.assert_allclose(out, np.maximum(X @ W + 1.0, 0.0), rtol=1e-6)
    assert executable.source.startswith("def dense_again(x, w):")
    assert executable.source.replace("dense_again", "_dense") == cf.code  # what a trace compiles


def test_outputs_other_than_the_graphs_own_leave_the_graph_as_traced():
    cf = _traced(_dense, tf.TensorSpec([2, 2]), tf.TensorSpec([2, 2]))
    graph_outputs = list(cf.graph.outputs)
    matmul = next(op for op in cf.graph.get_operations() if op.type == "MatMul").outputs[0]
    executable = compile_program(cf.graph, graph_outputs + [matmul], {}, name="with_matmul")
    out, product = executable.fn(X, W)
    np.testing.assert_allclose(product, X @ W, rtol=1e-6)
    np.testing.assert_allclose(out, np.maximum(X @ W + 1.0, 0.0), rtol=1e-6)
    assert list(cf.graph.outputs) == graph_outputs and len(executable.outputs) == 2


def test_captured_values_are_bound_into_the_code():
    bias = tf.constant([10.0, 20.0])
    cf = _traced(lambda x: x + bias, tf.TensorSpec([2]))
    (placeholder,) = cf.graph.internal_captures
    executable = compile_program(cf.graph, cf.graph.outputs, {id(placeholder): np.float32([1.0, 2.0])}, name="shifted")
    (out,) = executable.fn(np.float32([1.0, 1.0]))  # the capture is not a parameter
    np.testing.assert_allclose(out, [2.0, 3.0])


def test_options_are_frozen_and_compare_by_value():
    assert CompileOptions() == DEFAULT and CompileOptions(recording=True) == RECORDING
    assert hash(CompileOptions(jit_compile=True)) == hash(CompileOptions(jit_compile=True))
    with pytest.raises(AttributeError, match="frozen"):
        DEFAULT.recording = True


def test_jit_compile_adds_the_xla_executable_which_is_what_runs():
    pytest.importorskip("jax")
    cf = _traced(_dense, tf.TensorSpec([2, 2]), tf.TensorSpec([2, 2]))
    executable = compile_program(cf.graph, cf.graph.outputs, {}, name="dense_xla",
                                 options=CompileOptions(jit_compile=True))
    assert executable.jit_compile and executable.fn == executable.compiled.fn
    (out,) = executable.fn(X, W)
    np.testing.assert_allclose(np.asarray(out._value), np.maximum(X @ W + 1.0, 0.0), rtol=1e-6)


@pytest.fixture
def compiles(monkeypatch):
    """The names compile_program is called with, in order."""
    names = []
    real = program_module.compile_program

    def counted(graph, outputs, captures, *, name, options=DEFAULT):
        names.append(name)
        return real(graph, outputs, captures, name=name, options=options)
    monkeypatch.setattr(program_module, "compile_program", counted)
    return names


def test_a_trace_and_its_cond_branches_all_compile_through_the_one_entry_point(compiles):
    @tf.function
    def choose(x):
        return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: -x)

    out = choose(tf.constant([1.0, 2.0]))
    np.testing.assert_allclose(out.numpy(), [2.0, 4.0])
    assert len(compiles) == 3 and compiles[-1] == "choose"  # both branches first, then the function
    with tf.GradientTape() as tape:  # the taken branch's intermediates-returning variant: the same entry
        x = tf.constant([1.0, 2.0])
        tape.watch(x)
        y = choose(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 2.0])
    assert any(name.endswith("_with_intermediates") for name in compiles[3:])


def test_constructing_a_concrete_function_compiles_nothing(compiles):
    cf = _traced(_dense, tf.TensorSpec([2, 2]), tf.TensorSpec([2, 2]))
    before = len(compiles)
    again = ConcreteFunction(cf.graph, cf.executable, cf.structured_outputs, list(zip(["x", "w"], cf.flat_input_signature)),
                             "dense_copy")
    assert len(compiles) == before
    np.testing.assert_allclose(again(tf.constant(X), tf.constant(W)).numpy(), np.maximum(X @ W + 1.0, 0.0),
                               rtol=1e-6)
    assert len(compiles) == before


def test_constructing_a_branch_compiles_nothing(compiles):
    cf = _traced(_dense, tf.TensorSpec([2, 2]), tf.TensorSpec([2, 2]))
    executable = compile_program(cf.graph, cf.graph.outputs, {}, name="as_branch")
    branch = Branch(cf.graph, list(cf.graph.inputs), cf.graph.outputs, "as_branch", executable)
    before = len(compiles)
    branch.bind_externals([])
    (out,) = branch.run((X, W), [])
    np.testing.assert_allclose(out, np.maximum(X @ W + 1.0, 0.0), rtol=1e-6)
    assert len(compiles) == before
    full = branch.with_intermediates()  # compiles once, through the entry point, and is kept
    assert len(compiles) == before + 1 and branch.with_intermediates() is full
    assert full.index == branch.index and full.operations is branch.operations
    assert len(full.outputs) == 1 + len(full.intermediates)
