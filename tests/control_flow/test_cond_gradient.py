"""Gradients through tf.cond read the values the forward pass kept (control_flow/cond_gradient.py):
a random draw or side effect in a branch happens once, and higher orders keep working.

Three ways a tape meets a cond: eagerly (Python `if`, the tape records the taken branch's ops),
inside a tf.function (the tape and the If in one graph), and outside a tf.function call (the call
op runs the variant returning its intermediates). References: the forward's own dropout mask, NumPy,
and finite differences.
"""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf

N = 1000


def _dropout_step(x, training):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cond(training, lambda: tf.nn.dropout(x, 0.5), lambda: x)
    return y, tape.gradient(y, x)


def _called_under_tape_outside():
    f = tf.function(lambda x, training: tf.cond(training, lambda: tf.nn.dropout(x, 0.5), lambda: x))

    def step(x, training):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x, training)
        return y, tape.gradient(y, x)
    return step


MODES = {
    "eager": lambda: _dropout_step,
    "tape-inside-function": lambda: tf.function(_dropout_step),
    "tape-outside-function": _called_under_tape_outside,
}


@pytest.mark.parametrize("mode", MODES)
def test_dropout_gradient_zero_pattern_equals_the_forward_mask(mode):
    step = MODES[mode]()
    x = tf.ones([N])
    for _ in range(3):  # the cached call too
        y, g = step(x, tf.constant(True))
        kept = y.numpy() != 0
        assert 300 < kept.sum() < 700  # a real mask, not all or nothing
        np.testing.assert_array_equal(g.numpy() != 0, kept)  # was ~500 of 1,000 positions
        np.testing.assert_allclose(g.numpy()[kept], 2.0)  # d(dropout)/dx = 1 / (1 - rate) where kept
    y, g = step(x, tf.constant(False))
    np.testing.assert_array_equal(y.numpy(), np.ones(N, np.float32))
    np.testing.assert_array_equal(g.numpy(), np.ones(N, np.float32))


def _all_ops(graph):
    """Every op of a graph and of the branch/body sub-graphs of its control-flow ops."""
    ops = []
    for op in graph.get_operations():
        ops.append(op)
        for value in op.attrs.values():
            sub = getattr(value, "graph", None)
            if sub is not None and sub is not graph and hasattr(sub, "get_operations"):
                ops += _all_ops(sub)
    return ops


def test_the_gradient_graph_has_no_random_op():
    cf = tf.function(_dropout_step).get_concrete_function(tf.TensorSpec([N]), tf.TensorSpec([], tf.bool))
    types = [op.type for op in _all_ops(cf.graph)]
    assert types.count("RandomUniform") == 1  # the forward draw only (the gradient replayed it: 2)
    assert "IfKeptValue" in types


def test_the_gradient_graph_of_a_call_has_no_random_op():
    f = tf.function(lambda x, training: tf.cond(training, lambda: tf.nn.dropout(x, 0.5), lambda: x))
    cf = f.get_concrete_function(tf.TensorSpec([N]), tf.TensorSpec([], tf.bool))
    x = tf.ones([N])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, tf.constant(True))
    tape.gradient(y, x)
    backward, _ = cf.with_intermediates().gradient_function()
    types = [op.type for op in _all_ops(backward.graph)]
    assert "RandomUniform" not in types and "IfKeptValue" in types


def test_side_effects_in_a_branch_run_once_per_forward(capsys):
    @tf.function
    def f(x, p):
        def loud():
            tf.print("then ran")
            return tf.sin(x) * x
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(p, loud, lambda: x)
        return tape.gradient(y, x)

    x = np.array([0.3, -1.2], np.float32)
    g = f(tf.constant(x), tf.constant(True))
    np.testing.assert_allclose(g.numpy(), np.cos(x) * x + np.sin(x), rtol=1e-6)
    assert capsys.readouterr().err.count("then ran") == 1  # the backward replayed the branch: 2


def test_no_tape_no_kept_values_in_the_generated_code():
    """The forward alone computes nothing extra: no kept values, the code of a plain `if`."""
    f = tf.function(lambda x, p: tf.cond(p, lambda: tf.tanh(x) * 2.0, lambda: x + 1.0))
    cf = f.get_concrete_function(tf.TensorSpec([3]), tf.TensorSpec([], tf.bool))
    assert "kept" not in cf.code and "VariantValue" not in cf.code
    full = cf.with_intermediates()  # what a tape outside the call runs
    assert "If_kept = " in full.code


def test_eager_cond_gradient_is_the_taken_branch():
    x = tf.constant([0.5, -1.5, 2.0], tf.float64)
    w = tf.Variable(1.5, dtype=tf.float64)
    for p in (True, False):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.cond(tf.constant(p), lambda: tf.sin(x) * w, lambda: tf.exp(x * w)))
        gx, gw = tape.gradient(y, [x, w])
        xs = x.numpy()
        if p:
            np.testing.assert_allclose(gx.numpy(), np.cos(xs) * 1.5)
            np.testing.assert_allclose(gw.numpy(), np.sum(np.sin(xs)))
        else:
            np.testing.assert_allclose(gx.numpy(), 1.5 * np.exp(1.5 * xs))
            np.testing.assert_allclose(gw.numpy(), np.sum(xs * np.exp(1.5 * xs)))


# --- second order, against finite differences of a NumPy forward --------------------------------

def _branch_a(x):
    return x * x * tf.sin(x)


def _branch_b(x):
    return tf.exp(0.5 * x) * x


def _np_forward(x, p):
    return x * x * np.sin(x) if p else np.exp(0.5 * x) * x


def _second_derivative_fd(x, p, h=1e-4):
    """Elementwise functions: the Hessian is diagonal, d2f/dx2 by central differences."""
    return (_np_forward(x + h, p) - 2 * _np_forward(x, p) + _np_forward(x - h, p)) / (h * h)


def _second_order_inside(x, p):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.cond(p, lambda: _branch_a(x), lambda: _branch_b(x)))
        dy = inner.gradient(y, x)
    return outer.gradient(dy, x)


@pytest.mark.parametrize("p", [True, False])
@pytest.mark.parametrize("mode", ["tape-inside-function", "tape-outside-function"])
def test_second_order_matches_finite_differences(mode, p):
    xs = np.array([0.4, -1.1, 1.7], np.float64)
    x = tf.constant(xs)
    if mode == "tape-inside-function":
        d2 = tf.function(_second_order_inside)(x, tf.constant(p))
    else:
        f = tf.function(lambda x, p: tf.reduce_sum(tf.cond(p, lambda: _branch_a(x), lambda: _branch_b(x))))
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x, tf.constant(p))
            dy = inner.gradient(y, x)
        d2 = outer.gradient(dy, x)
    np.testing.assert_allclose(d2.numpy(), _second_derivative_fd(xs, p), rtol=1e-5, atol=1e-6)


def test_third_order_through_cond():
    @tf.function
    def f(x):
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = tf.cond(x > 0.0, lambda: x * x * x * x, lambda: tf.sin(x))
                d1 = t1.gradient(y, x)
            d2 = t2.gradient(d1, x)
        return t3.gradient(d2, x)

    assert np.isclose(f(tf.constant(1.5, tf.float64)).numpy(), 24 * 1.5)
    assert np.isclose(f(tf.constant(-0.5, tf.float64)).numpy(), -np.cos(-0.5))


# --- nested conds, and a cond inside a loop ------------------------------------------------------

def _nested(x, p, q):
    return tf.cond(p, lambda: tf.cond(q, lambda: tf.sin(x) * x, lambda: x * x * x), lambda: tf.exp(x))


def _np_nested(x, p, q):
    if p:
        return np.sin(x) * x if q else x ** 3
    return np.exp(x)


def _np_nested_grads(x, p, q):
    """(first, second) derivatives of the nested branches, by hand."""
    if not p:
        return np.exp(x), np.exp(x)
    if q:
        return np.cos(x) * x + np.sin(x), 2 * np.cos(x) - x * np.sin(x)
    return 3 * x ** 2, 6 * x


@pytest.mark.parametrize("p,q", [(True, True), (True, False), (False, True)])
def test_nested_conds_first_and_second_order(p, q):
    @tf.function
    def f(x, p, q):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(_nested(x, p, q))
            dy = inner.gradient(y, x)
        return y, dy, outer.gradient(dy, x)

    xs = np.array([0.3, -0.8, 1.4], np.float64)
    y, dy, d2 = f(tf.constant(xs), tf.constant(p), tf.constant(q))
    first, second = _np_nested_grads(xs, p, q)
    np.testing.assert_allclose(y.numpy(), np.sum(_np_nested(xs, p, q)))
    np.testing.assert_allclose(dy.numpy(), first, rtol=1e-7)
    np.testing.assert_allclose(d2.numpy(), second, rtol=1e-7)


def test_the_gradient_of_nested_conds_runs_no_forward_op_again():
    @tf.function
    def first_order(x, p, q):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(_nested(x, p, q))
        return tape.gradient(y, x)

    cf = first_order.get_concrete_function(tf.TensorSpec([3], tf.float64), tf.TensorSpec([], tf.bool),
                                           tf.TensorSpec([], tf.bool))
    types = [op.type for op in _all_ops(cf.graph)]
    assert types.count("Sin") == 1 and types.count("Exp") == 1  # the forward's (a replay made 2)
    assert types.count("IfKeptValue") >= 3  # the outer gradient reads the inner If's kept values too


@pytest.mark.parametrize("p,q", [(True, True), (True, False), (False, True)])
def test_nested_conds_under_a_tape_outside_the_call(p, q):
    f = tf.function(lambda x, p, q: tf.reduce_sum(_nested(x, p, q)))
    xs = np.array([0.3, -0.8, 1.4], np.float64)
    x = tf.constant(xs)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x, tf.constant(p), tf.constant(q))
        dy = inner.gradient(y, x)
    d2 = outer.gradient(dy, x)
    first, second = _np_nested_grads(xs, p, q)
    np.testing.assert_allclose(dy.numpy(), first, rtol=1e-7)
    np.testing.assert_allclose(d2.numpy(), second, rtol=1e-7)


def test_nested_dropout_keeps_its_mask():
    @tf.function
    def f(x, p):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(p, lambda: tf.cond(p, lambda: tf.nn.dropout(x, 0.5), lambda: x) * 3.0, lambda: x)
        return y, tape.gradient(y, x)

    y, g = f(tf.ones([N]), tf.constant(True))
    np.testing.assert_array_equal(g.numpy() != 0, y.numpy() != 0)
    np.testing.assert_allclose(g.numpy()[y.numpy() != 0], 6.0)


def test_dropout_cond_inside_a_while_loop_keeps_its_masks():
    @tf.function
    def f(x, p):
        with tf.GradientTape() as tape:
            tape.watch(x)
            _, y = tf.while_loop(lambda i, h: i < 2,
                                 lambda i, h: (i + 1, tf.cond(p, lambda: tf.nn.dropout(h, 0.5), lambda: h) * x),
                                 (0, x))
        return y, tape.gradient(y, x)

    xs = np.full(N, 1.0, np.float32)
    y, g = f(tf.constant(xs), tf.constant(True))
    # y = m2 * 2 * (m1 * 2 * x) * x: d/dx = 3 * y / x wherever both masks kept the element, else 0
    kept = y.numpy() != 0
    assert 100 < kept.sum() < 450
    np.testing.assert_array_equal(g.numpy() != 0, kept)
    np.testing.assert_allclose(g.numpy()[kept], 3 * y.numpy()[kept] / xs[kept], rtol=1e-6)


def _live_kept_values():
    from eagerflow._src.core.variant import VariantValue
    return sum(1 for o in gc.get_objects() if type(o) is VariantValue and isinstance(o.payload, tuple))


@pytest.mark.parametrize("mode", ["tape-inside-function", "tape-outside-function"])
def test_kept_values_are_released_with_the_tape(mode):
    """What the forward kept lives as long as the tape (or the call) that needs it, no longer."""
    step = MODES[mode]()
    x = tf.ones([N])
    step(x, tf.constant(True))
    gc.collect()
    before = _live_kept_values()
    tapes = []
    for _ in range(200):
        y, g = step(x, tf.constant(True))
        tapes.append(weakref.ref(y))
        del y, g
    gc.collect()
    assert _live_kept_values() <= before
    assert sum(r() is not None for r in tapes) == 0


def test_a_function_with_its_own_tape_differentiated_by_a_tape_outside():
    """The call keeps the inner gradient If's values too; its branch read only some of the forward
    If's kept values (reads nothing used were pruned and must not run: they were not kept)."""
    @tf.function
    def first_order(x, p):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.cond(p, lambda: _branch_a(x), lambda: _branch_b(x)))
        return tape.gradient(y, x)

    xs = np.array([0.4, -1.1, 1.7], np.float64)
    x = tf.constant(xs)
    for p in (True, False):
        with tf.GradientTape() as outer:
            outer.watch(x)
            dy = first_order(x, tf.constant(p))
        d2 = outer.gradient(dy, x)
        np.testing.assert_allclose(d2.numpy(), _second_derivative_fd(xs, p), rtol=1e-5, atol=1e-6)


def test_dead_code_in_a_branch_or_loop_body_is_neither_kept_nor_replayed():
    @tf.function
    def f(x, p):
        def branch():
            tf.exp(x * 3.0)  # unused: pruned from the code, so never a kept value
            return tf.sin(x) * x

        def body(i, y):
            tf.cos(y)  # unused
            return i + 1, tf.cond(p, branch, lambda: y) * y

        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                _, y = tf.while_loop(lambda i, y: i < 2, body, (0, x))
            dy = inner.gradient(y, x)
        return y, dy, outer.gradient(dy, x)

    xs = np.array([0.5, -0.9], np.float64)

    def np_f(x):
        y = x
        for _ in range(2):
            y = np.sin(x) * x * y
        return y
    h = 1e-4
    y, dy, d2 = f(tf.constant(xs), tf.constant(True))
    np.testing.assert_allclose(y.numpy(), np_f(xs))
    np.testing.assert_allclose(dy.numpy(), (np_f(xs + h) - np_f(xs - h)) / (2 * h), rtol=1e-6)
    np.testing.assert_allclose(d2.numpy(), (np_f(xs + h) - 2 * np_f(xs) + np_f(xs - h)) / h ** 2, rtol=1e-5)


def test_many_threads_each_get_their_own_masks():
    import threading
    step = tf.function(_dropout_step)
    x = tf.ones([N])
    step(x, tf.constant(True))  # traced once, before the threads
    failures = []

    def worker():
        for _ in range(20):
            y, g = step(x, tf.constant(True))
            if not np.array_equal(g.numpy() != 0, y.numpy() != 0):
                failures.append(1)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
