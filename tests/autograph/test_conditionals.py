"""`if` on tensors becomes tf.cond; on Python values it stays Python (resolved while tracing)."""
import numpy as np
import pytest

import eagerflow as tf

from .helpers import both


def branchy(x):
    if x > 0:
        y = x * 2
    elif x > -5:
        y = x - 1
    else:
        y = -x
    return y


@pytest.mark.parametrize("value", [3.0, -2.0, -7.0])
def test_if_elif_else_on_tensor(value):
    assert float(both(branchy, tf.constant(value))) == branchy(value)


def test_tensor_if_is_a_cond_op_and_runs_the_taken_branch_at_run_time():
    f = tf.function(branchy)
    cf = f.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert {"If", "StatelessIf"} & {op.type for op in cf.graph.get_operations()}
    assert [float(f(tf.constant(v))) for v in (3.0, -2.0, -7.0)] == [6.0, -3.0, 7.0]


def test_python_condition_is_frozen_at_trace_time():
    flags = {"debug": True}

    @tf.function
    def buggy(x):
        if flags["debug"]:
            x = x + 100
        return x * 2
    assert float(buggy(tf.constant(1.0))) == 202.0
    flags["debug"] = False
    assert float(buggy(tf.constant(1.0))) == 202.0  # the trace froze the Python value, as in TensorFlow


def test_seed_000_variable_flag_decides_at_run_time(capfd):
    debug_flag = tf.Variable(False, trainable=False)

    @tf.function
    def safe_function(x):
        if tf.cast(debug_flag, bool):
            tf.print("Processing:", x)
        return x * 2
    assert float(safe_function(tf.constant(1.0))) == 2.0
    assert "Processing" not in capfd.readouterr().err
    debug_flag.assign(True)
    assert float(safe_function(tf.constant(3.0))) == 6.0
    assert "Processing: 3" in capfd.readouterr().err  # tf.print writes to stderr
    assert safe_function.experimental_get_tracing_count() == 1


def test_seed_002_branches():
    @tf.function
    def bad_branch(use_relu):
        if use_relu:
            return tf.nn.relu(-1.0)
        else:
            return -1.0

    @tf.function
    def good_branch(use_relu):
        if tf.cond(use_relu, lambda: True, lambda: False):
            return tf.nn.relu(-1.0)
        else:
            return -1.0

    @tf.function
    def using_cond(use_relu):
        return tf.cond(use_relu, true_fn=lambda: tf.nn.relu(-1.0), false_fn=lambda: tf.constant(-1.0))

    assert float(bad_branch(True)) == 0.0 and float(bad_branch(False)) == -1.0  # a Python bool retraces
    for fn in (good_branch, using_cond):
        assert float(fn(tf.constant(True))) == 0.0
        assert float(fn(tf.constant(False))) == -1.0


def test_variable_in_one_branch_only_names_it():
    @tf.function
    def one_branch(x):
        if x > 0:
            y = x * 2
        return y
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        one_branch(tf.constant(1.0))

    @tf.function
    def elif_missing(x):
        if x < 0:
            y = -x
        elif x < 1:
            pass
        else:
            y = x
        return y
    with pytest.raises(ValueError, match="'y' must also be initialized in the main branch"):
        elif_missing(tf.constant(1.0))


def test_unused_one_branch_variable_and_one_sided_update_are_fine():
    def unused(x):
        if x > 0:
            z = x * 2  # noqa: F841 - not live after the if
        return x

    def one_sided(x):
        y = 0.0
        if x > 0:
            y = x
        return y
    both(unused, tf.constant(1.0))
    both(one_sided, tf.constant(2.0))
    both(one_sided, tf.constant(-2.0))


def test_branch_dtype_mismatch_and_none():
    @tf.function
    def dtypes(x):
        if x > 0:
            y = 1
        else:
            y = 2.0
        return y
    with pytest.raises(TypeError, match="'y' has dtype int32 in the main branch, but dtype float32 in the else"):
        dtypes(tf.constant(1.0))

    @tf.function
    def none(x):
        if x > 0:
            y = None
        else:
            y = x
        return y
    with pytest.raises(ValueError, match="'y' is None at the end of the main branch"):
        none(tf.constant(1.0))


def test_branch_shapes_may_differ():
    @tf.function
    def shapes(x):
        if x > 0:
            y = tf.zeros([2])
        else:
            y = tf.zeros([3])
        return y
    assert shapes(tf.constant(1.0)).shape == (2,)
    assert shapes(tf.constant(-1.0)).shape == (3,)


def test_gradient_through_converted_if():
    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            y = x * x
        else:
            y = -x
        return tf.reduce_sum(y)
    for value, expected in (([1.0, 2.0], [2.0, 4.0]), ([-1.0, -2.0], [-1.0, -1.0])):
        x = tf.constant(value)
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = f(x)
        np.testing.assert_allclose(tape.gradient(out, x).numpy(), expected)
