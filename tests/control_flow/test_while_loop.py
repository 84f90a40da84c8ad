"""tf.while_loop: eager, in graphs (While/StatelessWhile, inlined as Python `while`), invariants,
errors, maximum_iterations, gradients."""
import numpy as np
import pytest

import eagerflow as tf


def _body(i, acc):
    return i + 1, acc * 2.0


def test_eager_and_graph_agree():
    eager = tf.while_loop(lambda i, a: i < 5, _body, (tf.constant(0), tf.constant(1.0)))

    @tf.function
    def graph():
        return tf.while_loop(lambda i, a: i < 5, _body, (tf.constant(0), tf.constant(1.0)))

    g = graph()
    assert [eager[0].numpy(), eager[1].numpy()] == [5, 32.0] == [g[0].numpy(), g[1].numpy()]


def test_tensor_trip_count_and_generated_while():
    @tf.function
    def power(x, n):
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (tf.constant(0), tf.constant(1.0)))
        return y

    assert power(tf.constant(2.0), tf.constant(10)).numpy() == 1024.0
    assert power(tf.constant(3.0), tf.constant(2)).numpy() == 9.0
    assert power.experimental_get_tracing_count() == 1
    code = power.get_concrete_function(tf.TensorSpec([]), tf.TensorSpec([], tf.int32)).code
    assert "while True:" in code and "k_StatelessWhile" not in code


def test_single_loop_variable_and_maximum_iterations():
    out = tf.while_loop(lambda x: x < 100, lambda x: x * 2, tf.constant(1), maximum_iterations=3)
    assert out.numpy() == 8

    @tf.function
    def f(x):
        return tf.while_loop(lambda x: x < 100, lambda x: x * 2, x, maximum_iterations=3)

    assert f(tf.constant(1)).numpy() == 8


def test_shape_must_stay_invariant_unless_declared():
    @tf.function
    def grow(x):
        return tf.while_loop(lambda x: tf.shape(x)[0] < 8, lambda x: tf.concat([x, x], 0), [x])

    with pytest.raises(ValueError, match="enters the loop with shape \\(1,\\), but has shape \\(2,\\) after one "
                                         "iteration. To allow the shape to vary across iterations, use the "
                                         "`shape_invariants` argument"):
        grow(tf.constant([1.0]))

    @tf.function
    def grow_declared(x):
        return tf.while_loop(lambda x: tf.shape(x)[0] < 8, lambda x: tf.concat([x, x], 0), [x],
                             shape_invariants=[tf.TensorShape([None])])

    assert grow_declared(tf.constant([1.0]))[0].numpy().tolist() == [1.0] * 8


def test_dtype_must_stay_the_same():
    @tf.function
    def f(x):
        return tf.while_loop(lambda x: x < 10, lambda x: tf.cast(x, tf.float32) * 2.0, [x])

    with pytest.raises(TypeError, match="enters the loop with type <dtype: 'int32'> but has type <dtype: 'float32'>"):
        f(tf.constant(1))


def test_side_effects_in_the_body_run_every_iteration():
    counter = tf.Variable(0)

    @tf.function
    def f(n):
        def body(i):
            counter.assign_add(1)
            return (i + 1,)
        return tf.while_loop(lambda i: i < n, body, (tf.constant(0),))

    f(tf.constant(4))
    assert counter.numpy() == 4
    assert "While" in [op.type for op in f.get_concrete_function(tf.TensorSpec([], tf.int32)).graph.get_operations()]


def test_gradient_of_a_recurrence_matches_eager_and_finite_differences():
    w = tf.Variable(0.5, dtype=tf.float64)

    def rnn(x):
        _, h = tf.while_loop(lambda i, h: i < 4, lambda i, h: (i + 1, tf.tanh(h * w + x)), (0, tf.zeros_like(x)))
        return tf.reduce_sum(h)

    def grads(fn, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return [g.numpy() for g in tape.gradient(y, [x, w])]

    x0 = np.array([0.1, -0.3, 0.7])
    eager = grads(rnn, tf.constant(x0))
    graph = grads(tf.function(rnn), tf.constant(x0))
    for a, b in zip(eager, graph):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    eps = 1e-6
    numeric = [(rnn(tf.constant(x0 + eps * e)).numpy() - rnn(tf.constant(x0 - eps * e)).numpy()) / (2 * eps)
               for e in np.eye(3)]
    np.testing.assert_allclose(eager[0], numeric, rtol=1e-6)


def test_second_order_through_while_loop_in_a_graph_matches_tensorflow():
    @tf.function
    def f(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                _, y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * x), (0, x))
            dy = inner.gradient(y, x)
        return y, dy, outer.gradient(dy, x)

    # TensorFlow 2.21 prints 8.0, 12.0, 12.0 for this program (y = x^3 at x = 2).
    assert [t.numpy() for t in f(tf.constant(2.0))] == [8.0, 12.0, 12.0]


def _second_order(fn, x, w):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        g = inner.gradient(y, x)
        s = tf.reduce_sum(g * tf.constant([1.0, 2.0], tf.float64))
    return outer.gradient(s, [x, w])


def test_second_order_of_a_recurrence_agrees_eagerly_in_graphs_and_through_calls():
    w = tf.Variable(0.5, dtype=tf.float64)

    def rnn(x):
        _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(h * w + x)), (0, tf.zeros_like(x)))
        return tf.reduce_sum(h)

    x = tf.constant([0.3, -0.2], tf.float64)
    def values(ts):
        return [t.numpy() for t in ts]
    eager = values(_second_order(rnn, x, w))  # Python loops: the reference
    graph = values(tf.function(lambda x: _second_order(rnn, x, w))(x))  # tapes inside the function
    called = values(_second_order(tf.function(rnn), x, w))  # tapes outside, the loop inside a call
    for other in (graph, called):
        for a, b in zip(eager, other):
            np.testing.assert_allclose(a, b, rtol=1e-10)
    # and against finite differences of the first-order gradient
    def first(x0):
        with tf.GradientTape() as t:
            xt = tf.constant(x0)
            t.watch(xt)
            y = rnn(xt)
        return np.sum(t.gradient(y, xt).numpy() * [1.0, 2.0])
    eps = 1e-6
    numeric = [(first(x.numpy() + eps * e) - first(x.numpy() - eps * e)) / (2 * eps) for e in np.eye(2)]
    np.testing.assert_allclose(eager[0], numeric, rtol=1e-6)


def test_unused_index_in_a_loop_body_is_pruned_cleanly():
    @tf.function
    def f(n):
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: ((tf.range(5)[i], i + 1)[1], y * 2.0),
                             (tf.constant(0), tf.constant(1.0)))
        return y

    assert f(tf.constant(3)).numpy() == 8.0


def test_hessian_vector_product_through_a_matmul_rnn_loop_in_a_graph():
    """The backward walk's placeholders for kept values its gradient never reads were scalars: the
    dead MatMuls reading them failed shape inference ('In[0] and In[1] must be matrices, got shapes
    [] and [4,3]'). TensorFlow 2.21's numbers (tf.function)."""
    rng = np.random.default_rng(0)
    w, u = rng.normal(size=(3, 3)) * 0.5, rng.normal(size=(2, 3)) * 0.5
    x, v = np.transpose(rng.normal(size=(4, 5, 2)), (1, 0, 2)), rng.normal(size=(3, 3))

    @tf.function
    def hvp(w, u, x, v):
        with tf.GradientTape() as outer:
            outer.watch(w)
            with tf.GradientTape() as inner:
                inner.watch(w)
                h = tf.zeros([4, 3], tf.float64)
                for t in tf.range(5):
                    h = tf.tanh(tf.matmul(h, w) + tf.matmul(x[t], u))
                loss = tf.reduce_sum(h ** 2)
            gv = tf.reduce_sum(inner.gradient(loss, w) * v)
        return outer.gradient(gv, w)
    np.testing.assert_allclose(hvp(*(tf.constant(a) for a in (w, u, x, v))).numpy(),
                               [[1.0695260633216273, 2.062521257247925, 0.7432401992128285],
                                [-2.142976444577951, -2.8752248706418597, -0.2817105034868163],
                                [-0.05561736713124619, 3.554017419524124, -0.6875838344839781]], rtol=1e-10)


def test_third_order_through_a_loop_in_a_graph_matches_tensorflow():
    """d3h/dw3 through `for t in tf.range(5): h = tanh(w h + x)` (it raised NotImplementedError);
    TensorFlow 2.21's tf.function gives -3.203271970391796."""
    @tf.function
    def third(w, x):
        with tf.GradientTape() as t3:
            t3.watch(w)
            with tf.GradientTape() as t2:
                t2.watch(w)
                with tf.GradientTape() as t1:
                    t1.watch(w)
                    h = tf.zeros_like(x)
                    for _ in tf.range(5):
                        h = tf.tanh(w * h + x)
                dw = t1.gradient(h, w)
            dww = t2.gradient(dw, w)
        return t3.gradient(dww, w)
    np.testing.assert_allclose(float(third(tf.constant(0.7, tf.float64), tf.constant(0.3, tf.float64))),
                               -3.203271970391796, rtol=1e-10)

    def second(w):  # and against central differences of the second derivative
        with tf.GradientTape() as t2:
            t2.watch(w)
            with tf.GradientTape() as t1:
                t1.watch(w)
                h = tf.zeros_like(w)
                for _ in tf.range(5):
                    h = tf.tanh(w * h + 0.3)
            dw = t1.gradient(h, w)
        return t2.gradient(dw, w)
    second = tf.function(second)
    eps = 1e-4
    numeric = (float(second(tf.constant(0.7 + eps, tf.float64))) - float(second(tf.constant(0.7 - eps, tf.float64))))
    np.testing.assert_allclose(numeric / (2 * eps), -3.203271970391796, rtol=1e-6)


def test_third_order_when_the_loop_starts_from_its_own_external():
    """`y0 = x` with `x` also captured: WhileGrad's inputs repeat a tensor, and each input must get
    its own gradient (the total at each counted it twice: 145.8 for 87.48). f = x^3 per element
    through two `y * x` steps, so d/dx sum(d/dx sum((3x^2)^2)) = d/dx sum(36 x^3) = 108 x^2."""
    @tf.function
    def third(x):
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = tf.reduce_sum(tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * x), (0, x))[1])
                dy = t1.gradient(y, x)
                z = tf.reduce_sum(dy * dy)
            s = tf.reduce_sum(t2.gradient(z, x))
        return t3.gradient(s, x)
    x = np.array([0.9, 0.4])
    np.testing.assert_allclose(third(tf.constant(x)).numpy(), 108 * x ** 2, rtol=1e-12)
