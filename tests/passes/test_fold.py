"""passes/fold.py: stateless ops on constants become constants; random and stateful ops, ops that
fail, and big results are left to run."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.registry import OPS
from eagerflow._src.passes import fold
from eagerflow._src.passes.fold import fold_constants
from eagerflow._src.passes.prune import prune
from eagerflow._src.passes.simplify import forward_identities

from .helpers import live_types, resolved_op, run, trace

S = tf.TensorSpec([3])


def _folded_value(program, tensor):
    op = resolved_op(program, tensor)
    assert op.type == "Const", f"{tensor.name} resolves to {op.type}, not a constant"
    return op.attrs["value"]


def test_chains_of_constant_ops_fold_in_one_pass():
    def f(x):
        c = (tf.constant([1.0, 2.0, 3.0]) + 1.0) * tf.constant(2.0)
        return x + tf.exp(c)

    graph = trace(f, S)
    program = run(graph, forward_identities, fold_constants, prune)
    assert live_types(program) == ["AddV2"]  # x + folded constant
    add = program.ops[-1]
    value = _folded_value(program, add.inputs[1])
    np.testing.assert_allclose(value, np.exp((np.array([1, 2, 3], np.float32) + 1) * 2), rtol=1e-6)
    assert value.dtype == np.float32


def test_folded_values_keep_dtype_and_multi_output_ops_fold_per_output():
    def f(x):
        parts = tf.split(tf.constant([1, 2, 3, 4]), 2)
        return parts[0] * 3, parts[1] // 2

    graph = trace(f, S)
    program = run(graph, forward_identities, fold_constants)
    first, second = (_folded_value(program, t) for t in graph.outputs)
    assert first.tolist() == [3, 6] and second.tolist() == [1, 2]
    assert first.dtype == np.int32 and second.dtype == np.int32
    split = next(op for op in graph.get_operations() if op.type == "Split")
    names = [program.resolve(t).op.name for t in split.outputs]
    assert names == ["Split/folded", "Split/folded_1"]


def test_random_ops_are_never_folded():
    def f():
        return tf.random.uniform([2]) + tf.constant(1.0)

    cf = tf.function(f).get_concrete_function()
    program = run(cf.graph, forward_identities, fold_constants, prune)
    assert live_types(program) == ["RandomUniform", "AddV2"]
    a, b = cf().numpy(), cf().numpy()
    assert not np.array_equal(a, b)  # a fresh draw per call, not a frozen constant


def test_stateful_ops_with_constant_inputs_are_not_folded():
    def f():
        checked = tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "bad")
        tf.print("constant", 3)
        return checked * 2.0

    graph = trace(f)
    program = run(graph, forward_identities, fold_constants, prune)
    kept = live_types(program)
    assert "CheckNumerics" in kept and "PrintV2" in kept and "Mul" in kept
    assert "StringFormat" not in kept  # stateless formatting of constants is folded; the print runs


def test_big_results_are_not_folded_and_not_even_computed(monkeypatch):
    calls = []
    fill = OPS["Fill"]
    real = fill.kernel
    monkeypatch.setattr(fill, "kernel", lambda *a, **k: calls.append(a) or real(*a, **k))

    def f(x):
        big = tf.fill([fold.MAX_FOLDED_ELEMENTS + 1], 1.0)
        small = tf.fill([4], 2.0)
        return tf.reduce_sum(big) + tf.reduce_sum(small) + x

    graph = trace(f, tf.TensorSpec([]))
    program = run(graph, forward_identities, fold_constants, prune)
    assert live_types(program) == ["Fill", "Sum", "AddV2", "AddV2"]  # reduce_sum(small) folded
    # tracing optimized once, `run` once more: each time only the small fill ran at trace time
    assert [a[0].tolist() for a in calls] == [[4], [4]]


def test_ops_that_fail_on_constants_fail_at_call_time_with_the_users_line():
    def f(x):
        return x + tf.gather(tf.constant([1.0, 2.0]), tf.constant(5))

    cf = tf.function(f).get_concrete_function(tf.TensorSpec([]))
    program = run(cf.graph, forward_identities, fold_constants, prune)
    assert "GatherV2" in live_types(program)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        cf(tf.constant(1.0))
    assert "test_fold.py" in str(info.value)


def test_forwarded_identities_are_not_folded_a_second_time():
    def f():
        return tf.identity(tf.constant(2.0) * 3.0)

    graph = trace(f)
    program = run(graph, forward_identities, fold_constants)
    out = program.resolve(graph.outputs[0])
    assert out.op.name == "mul/folded" and float(out.op.attrs["value"]) == 6.0
    assert not any(t.op.name.startswith("Identity") for t in program.subst.values())


def test_folded_function_matches_eager():
    def f(x):
        w = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3])
        return tf.matmul(x, tf.transpose(w) * 0.5) + tf.reduce_mean(w)

    x = tf.constant([[1.0, 2.0, 3.0]])
    cf = tf.function(f).get_concrete_function(tf.TensorSpec([1, 3]))
    assert "k_Transpose" not in cf.code and "k_Range" not in cf.code and "MatMul = x @ c_" in cf.code
    np.testing.assert_allclose(cf(x).numpy(), f(x).numpy(), rtol=1e-6)


def test_shape_queries_of_known_shapes_fold_even_on_runtime_values():
    @tf.function
    def f(x):
        y = tf.exp(x)
        return tf.cast(tf.shape(y), tf.float32) * tf.cast(tf.size(y), tf.float32) + tf.reduce_sum(tf.ones_like(y))

    cf = f.get_concrete_function(tf.TensorSpec([2, 3]))
    assert "k_Shape" not in cf.code and "k_Size" not in cf.code and "k_OnesLike" not in cf.code
    assert "k_Exp" not in cf.code  # its value is never needed: only its static shape
    np.testing.assert_allclose(f(tf.zeros([2, 3])).numpy(), [2 * 6 + 6, 3 * 6 + 6])

    g = tf.function(lambda x: tf.shape(x)).get_concrete_function(tf.TensorSpec([None, 3]))
    assert "k_Shape" in g.code  # an unknown dimension stays a run-time query
