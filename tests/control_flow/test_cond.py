"""tf.cond / tf.case / tf.switch_case: eager, in graphs (If/StatelessIf), errors, gradients."""
import numpy as np
import pytest

import eagerflow as tf


def test_eager_cond_runs_only_the_taken_branch():
    ran = []
    out = tf.cond(tf.constant(False), lambda: ran.append("t") or tf.constant(1), lambda: ran.append("f") or
                  tf.constant(2))
    assert out.numpy() == 2 and ran == ["f"]


def test_graph_cond_traces_both_branches_and_runs_one(capsys):
    @tf.function
    def f(p, x):
        def yes():
            print("tracing true branch")
            return x * 2.0

        def no():
            print("tracing false branch")
            return x - 1.0
        return tf.cond(p, yes, no)

    assert f(tf.constant(True), tf.constant(3.0)).numpy() == 6.0
    assert f(tf.constant(False), tf.constant(3.0)).numpy() == 2.0
    assert capsys.readouterr().out == "tracing true branch\ntracing false branch\n"
    cf = f.get_concrete_function(tf.TensorSpec([], tf.bool), tf.TensorSpec([]))
    assert "StatelessIf" in [op.type for op in cf.graph.get_operations()]
    assert "if p:" in cf.code and "else:" in cf.code  # the branch code is inlined


def test_seed_002_using_cond_switches_at_run_time():
    @tf.function
    def using_cond(use_relu):
        return tf.cond(use_relu, true_fn=lambda: tf.nn.relu(-1.0), false_fn=lambda: tf.constant(-1.0))

    assert using_cond(tf.constant(True)).numpy() == 0.0
    assert using_cond(tf.constant(False)).numpy() == -1.0
    assert using_cond.experimental_get_tracing_count() == 1


def test_stateful_branch_makes_an_if_and_side_effects_run_only_when_taken():
    v = tf.Variable(0)

    @tf.function
    def f(p):
        return tf.cond(p, lambda: v.assign_add(1).read_value(), lambda: tf.constant(-1))

    assert f(tf.constant(False)).numpy() == -1 and v.numpy() == 0
    assert f(tf.constant(True)).numpy() == 1 and v.numpy() == 1
    assert "If" in [op.type for op in f.get_concrete_function(tf.TensorSpec([], tf.bool)).graph.get_operations()]


def test_nested_outputs_and_shapes_merge():
    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: {"a": x, "b": (x * 2, x[:1])}, lambda: {"a": -x, "b": (x * 3, x[1:2])})

    out = f(tf.constant(True), tf.constant([1.0, 2.0]))
    assert out["a"].numpy().tolist() == [1.0, 2.0] and out["b"][1].numpy().tolist() == [1.0]


def test_mismatched_branches_raise_like_tensorflow():
    @tf.function
    def structure(p):
        return tf.cond(p, lambda: (tf.constant(1.0), tf.constant(2.0)), lambda: tf.constant(1.0))

    # TF 2.21: a different number of tensors is an AssertionError listing the two counts
    with pytest.raises(AssertionError, match=r"^\[2, 1\]$"):
        structure(tf.constant(True))

    @tf.function
    def sequence_type(p):
        return tf.cond(p, lambda: [p, p], lambda: (p, p))

    with pytest.raises(TypeError, match="(?s)true_fn and false_fn arguments to tf.cond must have the same number, "
                                        "type, and overall structure of return values.*sequence type"):
        sequence_type(tf.constant(True))

    @tf.function
    def keys(p):
        return tf.cond(p, lambda: {"a": p}, lambda: {"b": p})

    with pytest.raises(TypeError, match="(?s)must have the same number.*The two dictionaries don't have the same set "
                                        "of keys"):
        keys(tf.constant(True))

    @tf.function
    def dtypes(p):
        return tf.cond(p, lambda: tf.constant(1.0), lambda: tf.constant(1))

    with pytest.raises(TypeError, match="(?s)true_fn and false_fn arguments to tf.cond must have the same number, "
                                        "type, and overall structure of return values.*Error details:\n"
                                        r"Tensor\(.*dtype=float32\) and Tensor\(.*dtype=int32\) have different "
                                        "types$"):  # TF 2.21's words
        dtypes(tf.constant(True))


def test_case_and_switch_case():
    def pick(x):
        return tf.case([(tf.less(x, 0), lambda: tf.constant(-1)), (tf.equal(x, 0), lambda: tf.constant(0))],
                       default=lambda: tf.constant(1))

    graph_pick = tf.function(pick)
    for value, expected in [(-5, -1), (0, 0), (7, 1)]:
        assert pick(tf.constant(value)).numpy() == expected
        assert graph_pick(tf.constant(value)).numpy() == expected

    def switch(i):
        return tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20)], default=lambda: tf.constant(99))

    graph_switch = tf.function(switch)
    for i, expected in [(0, 10), (1, 20), (5, 99)]:
        assert switch(tf.constant(i)).numpy() == expected
        assert graph_switch(tf.constant(i)).numpy() == expected


def test_gradients_through_cond_match_the_branch_taken():
    w = tf.Variable(3.0)

    @tf.function
    def f(x, p):
        return tf.cond(p, lambda: x * x * w, lambda: tf.sin(x) + w)

    x = tf.constant(2.0)
    for p, dx, dw in [(True, 2 * 2.0 * 3.0, 4.0), (False, np.cos(2.0), 1.0)]:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x, tf.constant(p))
        gx, gw = tape.gradient(y, [x, w])
        np.testing.assert_allclose([gx.numpy(), gw.numpy()], [dx, dw], rtol=1e-6)


def test_second_order_through_cond_in_a_graph():
    @tf.function
    def f(x, p):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.cond(p, lambda: x * x * x, lambda: tf.sin(x))
            dy = inner.gradient(y, x)
        return outer.gradient(dy, x)

    assert np.isclose(f(tf.constant(2.0), tf.constant(True)).numpy(), 12.0)
    assert np.isclose(f(tf.constant(2.0), tf.constant(False)).numpy(), -np.sin(2.0))


def test_branches_with_only_side_effects_and_no_outputs():
    v = tf.Variable(0)

    @tf.function
    def f(p):
        tf.cond(p, lambda: (v.assign_add(1), ())[1], lambda: ())
        return v.read_value()

    assert f(tf.constant(True)).numpy() == 1
    assert f(tf.constant(False)).numpy() == 1
