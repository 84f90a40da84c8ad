"""Higher-order gradients through control flow under jit_compile=True (codegen/xla_higher_order.py):
nested GradientTapes over a tensor `if` / tf.cond and over a `for t in tf.range` loop.

Each case: the compiled result == the plain tf.function result (the NumPy kernels) == TensorFlow
2.21's numbers under jit_compile=True (run with tensorflow-cpu 2.21, written in here)."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402
from tests.control_flow import test_third_order_through_loops as third_order  # noqa: E402 - cases, no tests
from tests.control_flow.nested_tapes import cond_in_cond_loop, derivatives, sine_nested_loops  # noqa: E402


def _both(fn, *args):
    def flat(r):
        return [np.asarray(t) for t in tf.nest.flatten(r)]
    return flat(tf.function(fn)(*args)), flat(tf.function(fn, jit_compile=True)(*args))


def _check(fn, args, expected, rtol=1e-10):
    plain, compiled = _both(fn, *args)
    assert len(compiled) == len(expected)
    for p, c, e in zip(plain, compiled, expected):
        assert p.dtype == c.dtype and p.shape == c.shape
        np.testing.assert_allclose(c, p, rtol=rtol, atol=1e-12)
        np.testing.assert_allclose(c, e, rtol=rtol, atol=1e-12)


def _cubic_or_square(x):
    """y = x**3 if x > 0 else -x**2, and its first three derivatives, by three nested tapes."""
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                if x > 0:
                    y = x ** 3
                else:
                    y = -x ** 2
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    return y, d1, d2, t3.gradient(d2, x)


@pytest.mark.parametrize("x, expected", [  # TensorFlow 2.21, jit_compile=True: [y, dy, d2y, d3y]
    (2.0, [8.0, 12.0, 12.0, 6.0]), (-2.0, [-4.0, 4.0, -2.0, 0.0]),
    (1.5, [3.375, 6.75, 9.0, 6.0]), (-0.7, [-0.49, 1.4, -2.0, 0.0])])
def test_second_and_third_derivative_through_a_tensor_if(x, expected):
    _check(_cubic_or_square, [tf.constant(x, tf.float64)], expected)


_W = [[0.5, -0.3], [0.2, 0.8]]


def _cond_with_a_weight(x):
    w = tf.constant(_W, tf.float64)
    with tf.GradientTape(persistent=True) as t2:
        t2.watch([x, w])
        with tf.GradientTape() as t1:
            t1.watch([x, w])
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_sum(tf.tanh(tf.matmul(x, w)) ** 2),
                        lambda: tf.reduce_sum(tf.sin(tf.matmul(x, w)) * x))
        gw, gx = t1.gradient(y, [w, x])
        sw, sx = tf.reduce_sum(gw * gw), tf.reduce_sum(gx)
    return y, gw, gx, t2.gradient(sw, w), t2.gradient(sw, x), t2.gradient(sx, w), t2.gradient(sx, x)


_COND_TF = {  # TensorFlow 2.21 (a tf.Variable there; the same values): y, gw, gx, then the mixed second order
    "then": [0.27161869204003675, [[0.1558061200580246, 0.21243412713601456], [0.3635476134687241, 0.4956796299840339]],
             [[0.047242739627359816, 0.6703617524013886]],
             [[0.2532490194897715, 0.1688193369099577], [0.5909143788094668, 0.39391178612323463]],
             [[0.7159543983701679, 1.6986323290575833]],
             [[0.8136092174280524, 0.8108754318269283], [1.2059498626297904, 0.9478909981027681]],
             [[0.38766413179529285, 0.4702014551525487]]],
    "else": [0.4028060672967984, [[0.08624194879614273, 0.18722934052101906], [0.20123121385766637, 0.43686846121571116]],
             [[-0.24245946591072104, -1.0096591592992143]],
             [[-0.008582054850160737, -0.06885240364054002], [-0.020024794650375054, -0.16065560849459337]],
             [[-0.6573768112027961, -1.1171205980847354]],
             [[-0.5569313351260137, -0.8440152282305268], [-0.9162088984222863, -1.1372384635555888]],
             [[0.8999502404854324, 1.2118693963959248]]],
}


@pytest.mark.parametrize("branch, x", [("then", [[0.3, 0.7]]), ("else", [[-0.3, -0.7]])])
def test_second_order_through_tf_cond_with_respect_to_the_weight_and_the_input(branch, x):
    _check(_cond_with_a_weight, [tf.constant(x, tf.float64)], _COND_TF[branch])


def _scalar_rnn(w, x, persistent):
    with tf.GradientTape(persistent=persistent) as t2:
        t2.watch([w, x])
        with tf.GradientTape() as t1:
            t1.watch([w, x])
            h = tf.zeros_like(x)
            for t in tf.range(5):
                h = tf.tanh(w * h + x)
        dw = t1.gradient(h, w)
    dww = t2.gradient(dw, w)
    return h, dw, dww, (t2.gradient(dw, x) if persistent else tf.zeros_like(x))


@pytest.mark.parametrize("persistent", [False, True])
def test_second_order_through_a_tf_range_loop(persistent):
    # TensorFlow 2.21, jit_compile=True: h, dh/dw, d2h/dw2, d2h/dx dw (persistent outer tape)
    expected = [0.615622191561265, 0.6107246130523184, -0.06047101926924536, -0.7868714933918372 if persistent else 0.0]
    _check(lambda w, x: _scalar_rnn(w, x, persistent), [tf.constant(0.7, tf.float64), tf.constant(0.3, tf.float64)],
           expected, rtol=1e-9)


def _third_order_rnn(w, x):
    with tf.GradientTape() as t3:
        t3.watch(w)
        dww = _scalar_rnn(w, x, False)[2]
    return dww, t3.gradient(dww, w)


def test_third_order_through_a_tf_range_loop():
    """The backward walk of a second order's WhileGrad also adds the gradients that reached the
    history (LoopHistorySeedStacks); before, both modes raised NotImplementedError."""
    _check(_third_order_rnn, [tf.constant(0.7, tf.float64), tf.constant(0.3, tf.float64)],
           [-0.06047101926924536, -3.2032719703917967], rtol=1e-9)  # TensorFlow 2.21, jit_compile=True


def _third_order_bounded(x):
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                i, y = tf.while_loop(lambda i, y: y < 10.0, lambda i, y: (i + 1, tf.sin(y) * x + y * x + 1.0),
                                     [tf.constant(0), tf.constant(1.0, tf.float64)], maximum_iterations=20)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    return i, y, d1, d2, t3.gradient(d2, x)


@pytest.mark.parametrize("x, expected", [  # TensorFlow 2.21, jit_compile=True
    (1.5, [4, 15.10568027516213, 12.316982372773364, -167.14701578233888, 3549.547506269455]),
    (0.3, [20, 1.8415319006995639, 3.595220426437997, 1.9622252362882509, -45.42430310736556])])
def test_third_order_through_a_maximum_iterations_loop(x, expected):
    _check(_third_order_bounded, [tf.constant(x, tf.float64)], expected, rtol=1e-9)


def _rnn_data():
    rng = np.random.default_rng(0)
    w = rng.normal(size=(3, 3)) * 0.5
    u = rng.normal(size=(2, 3)) * 0.5
    x = np.transpose(rng.normal(size=(4, 5, 2)), (1, 0, 2))  # time-major [5, 4, 2]
    v = rng.normal(size=(3, 3))
    return [tf.constant(a) for a in (w, u, x, v)]


def _rnn_hessian_vector_product(w, u, x, v):
    with tf.GradientTape() as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            h = tf.zeros([4, 3], tf.float64)
            for t in tf.range(5):
                h = tf.tanh(tf.matmul(h, w) + tf.matmul(x[t], u))
            loss = tf.reduce_sum(h ** 2)
        g = inner.gradient(loss, w)
        gv = tf.reduce_sum(g * v)
    return loss, g, outer.gradient(gv, w)


def test_hessian_vector_product_through_an_rnn_loop():
    expected = [3.64290787805552,  # TensorFlow 2.21, jit_compile=True (batch-major x there, the same numbers)
                [[0.11933710952550318, 0.02501407924607431, 0.04437223937548902],
                 [0.11145786515271566, -0.416741342974819, 0.5177451592116407],
                 [-0.15102298848110587, 0.7244535467563966, -0.8139057789132278]],
                [[1.069526063321627, 2.062521257247925, 0.7432401992128284],
                 [-2.142976444577951, -2.8752248706418597, -0.28171050348681603],
                 [-0.05561736713124568, 3.554017419524123, -0.687583834483978]]]
    _check(_rnn_hessian_vector_product, _rnn_data(), expected, rtol=1e-9)


def test_gradient_of_a_tensor_index_inside_a_compiled_loop():
    """x[t] with the loop's t: its gradient (StridedSliceGrad at a traced begin) is a dynamic
    update under XLA (it raised a ConcretizationTypeError)."""
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            h = tf.zeros([3])
            for t in tf.range(4):
                h = h + x[t] * x[t] * tf.cast(t, tf.float32)
        return h, tape.gradient(h, x)
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    plain, compiled = _both(f, tf.constant(x))
    np.testing.assert_allclose(compiled[1], 2 * x * np.arange(4, dtype=np.float32)[:, None])
    np.testing.assert_allclose(compiled[1], plain[1])
    np.testing.assert_allclose(compiled[0], plain[0])


def _grow_until_ten(x):
    """y <- y x + 1 from y = 1 while y < 10, at most 20 times: the trip count depends on the data."""
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            i, y = tf.while_loop(lambda i, y: y < 10.0, lambda i, y: (i + 1, y * x + 1.0),
                                 [tf.constant(0), tf.constant(1.0, tf.float64)], maximum_iterations=20)
        d1 = t1.gradient(y, x)
    return i, y, d1, t2.gradient(d1, x)


@pytest.mark.parametrize("x, expected", [  # TensorFlow 2.21, jit_compile=True: [i, y, dy/dx, d2y/dx2]
    (1.5, [4, 13.1875, 24.25, 38.0]), (2.5, [3, 25.375, 24.75, 17.0])])
def test_second_order_through_a_maximum_iterations_loop_with_a_data_dependent_condition(x, expected):
    _check(_grow_until_ten, [tf.constant(x, tf.float64)], expected)


def test_second_order_through_a_maximum_iterations_loop_that_hits_its_bound():
    """x = 0.5 never reaches 10: all 20 steps run, y = sum x^k for k <= 20 (derivatives by hand)."""
    k = np.arange(21.0)
    x = 0.5
    expected = [20, np.sum(x ** k), np.sum(k[1:] * x ** (k[1:] - 1)), np.sum(k[2:] * (k[2:] - 1) * x ** (k[2:] - 2))]
    _check(_grow_until_ten, [tf.constant(x, tf.float64)], expected)


def test_second_order_without_maximum_iterations_is_refused_as_tensorflow_does():
    """TensorFlow 2.21 refuses it too ('XLA compilation requires a fixed tensor list size ... set
    maximum_iteration to a suitable value')."""
    def f(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.while_loop(lambda y: y < 10.0, lambda y: y * x + 1.0, [tf.constant(1.0, tf.float64)])[0]
            d1 = t1.gradient(y, x)
        return t2.gradient(d1, x)
    assert float(tf.function(f)(tf.constant(1.5, tf.float64))) == 38.0  # as TensorFlow's tf.function
    with pytest.raises(tf.errors.InvalidArgumentError, match="fixed tensor list size.*maximum_iterations"):
        tf.function(f, jit_compile=True)(tf.constant(1.5, tf.float64))


def _cond_in_a_loop(x):
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            h = x
            for _ in tf.range(3):
                h = tf.cond(h > 1.0, lambda: h * x, lambda: h + x * x)
        d1 = t1.gradient(h, x)
    return h, d1, t2.gradient(d1, x)


@pytest.mark.parametrize("x, expected", [  # TensorFlow 2.21, jit_compile=True: h, dh/dx, d2h/dx2
    (0.7, [1.323, 4.27, 8.2]), (1.2, [2.0736, 6.912, 17.28]), (0.3, [0.57, 2.8, 6.0])])
def test_first_and_second_order_through_a_cond_inside_a_compiled_loop(x, expected):
    """The loop stacks the cond's kept values (both branches', per iteration) as a pytree and the
    second order reads one iteration's back (LoopHistoryItem) and seeds them (LoopHistoryItemGrad).
    Before, the compiled first order raised 'None is not a valid value for jnp.array'."""
    _check(_cond_in_a_loop, [tf.constant(x, tf.float64)], expected)


def _cond_in_a_bounded_loop(x, w):
    with tf.GradientTape(persistent=True) as t2:
        t2.watch([x, w])
        with tf.GradientTape() as t1:
            t1.watch([x, w])
            i, h = tf.while_loop(
                lambda i, h: tf.reduce_sum(h) < 5.0,
                lambda i, h: (i + 1, tf.cond(tf.reduce_sum(h) > 1.0, lambda: tf.tanh(h * w) + h, lambda: h + x * w)),
                [tf.constant(0), x], maximum_iterations=10)
            y = tf.reduce_sum(h * h)
        gx, gw = t1.gradient(y, [x, w])
        s = tf.reduce_sum(gx) + tf.reduce_sum(gw * gw)
    return i, y, gx, gw, t2.gradient(s, x), t2.gradient(s, w)


def test_second_order_through_a_cond_inside_a_maximum_iterations_loop():
    expected = [4, 13.884647446072904, [30.03095468958636, 28.956573359079687],  # TensorFlow 2.21, jit_compile
                [10.535646511391038, 9.753870620839372], [714.5871581975815, -32.156266790510045],
                [24.29340251399283, -266.51698211690314]]
    _check(_cond_in_a_bounded_loop, [tf.constant([0.2, 0.3], tf.float64), tf.constant([0.9, 1.1], tf.float64)],
           expected, rtol=1e-9)


def _third_of_cond_in_a_loop(x):
    with tf.GradientTape() as t3:
        t3.watch(x)
        d2 = _cond_in_a_loop(x)[2]
    return d2, t3.gradient(d2, x)


@pytest.mark.parametrize("x, expected", [  # TensorFlow 2.21, jit_compile=True: d2h/dx2, d3h/dx3
    (0.7, [8.2, 6.0]), (1.2, [17.28, 28.799999999999997]), (0.3, [6.0, 0.0])])
def test_third_order_through_a_cond_inside_a_compiled_loop(x, expected):
    """The second order's backward loop sums the gradients of the cond's kept values over its
    iterations (a KeptGradients loop variable, zeros for every entry to start: a scan carry keeps
    its structure); both modes raised NotImplementedError before."""
    _check(_third_of_cond_in_a_loop, [tf.constant(x, tf.float64)], expected)


@pytest.mark.parametrize("fn, cases", [
    (third_order.cond_in_a_loop, third_order.COND_IN_A_LOOP),
    (third_order.cond_in_a_bounded_loop, third_order.COND_IN_A_BOUNDED_LOOP),
    (third_order.cond_on_two_variables, third_order.COND_ON_TWO_VARIABLES),
    (third_order.cond_reading_a_variable, third_order.COND_READING_A_VARIABLE),
    (third_order.cond_on_vectors, third_order.COND_ON_VECTORS),
    (third_order.cond_nested_in_a_cond, third_order.COND_NESTED_IN_A_COND)], ids=lambda v: getattr(v, "__name__", ""))
def test_third_order_through_a_cond_in_a_loop_agrees_in_all_three_modes(fn, cases):
    """tests/control_flow/test_third_order_through_loops.py's cases (TensorFlow 2.21's numbers,
    which jit_compile=True there reproduces to ~1e-13), compiled."""
    for args, expected in cases.items():  # one trace and one XLA compilation per mode for all the cases
        args = args if isinstance(args, tuple) else (args,)
        plain, jit = (third_order.run(fn, mode, *args) for mode in ("function", "jit"))
        for p, c, e in zip(plain, jit, expected):
            assert p.dtype == c.dtype and p.shape == c.shape
            np.testing.assert_allclose(c, p, rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(c, e, rtol=1e-9, atol=1e-12)


def _first_order_of_nested_conds(x):
    return derivatives(cond_in_cond_loop, x, 1)


@pytest.mark.parametrize("x", [0.5, 1.3, 2.5])
def test_first_order_through_a_cond_nested_in_a_cond_inside_a_compiled_loop(x):
    """The outer cond's kept values hold what the inner cond kept (a pytree, zeros of its shape in
    the branch not taken); it raised "Value <_Kept ...> with dtype object is not a valid JAX array"."""
    expected = third_order.COND_NESTED_IN_A_COND[x][:2]  # TensorFlow 2.21 (the same under jit_compile=True)
    _check(_first_order_of_nested_conds, [tf.constant(x, tf.float64)], expected)


def test_third_order_through_nested_loops_is_refused_as_tensorflow_does():
    """TensorFlow 2.21 refuses it under jit_compile=True (as the second order) and computes it in a
    tf.function, as eagerflow now does (tests/control_flow/test_third_order_through_loops.py)."""
    x = tf.constant(0.5, tf.float64)
    np.testing.assert_allclose(float(tf.function(third_order.nested_loops)(x)[3]), 12.069793207209031, rtol=1e-9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop nested in a loop"):
        tf.function(third_order.nested_loops, jit_compile=True)(x)


def test_a_data_dependent_loop_nested_in_a_differentiated_loop_still_compiles():
    """A kept loop body runs its nested control flow as recording (so a cond keeps its values);
    a nested data-dependent loop whose history no gradient reads still runs as a while loop."""
    def f(x, n0):
        with tf.GradientTape() as tape:
            tape.watch(x)
            h = x
            for t in tf.range(3):
                n = n0 + t
                steps = tf.constant(0)
                while n != 1:  # Collatz steps: 8, 16, 3 from 6, 7, 8
                    n = tf.where(n % 2 == 0, n // 2, 3 * n + 1)
                    steps += 1
                h = h * tf.cast(steps, tf.float64) * x
        return h, tape.gradient(h, x)
    _check(f, [tf.constant(0.5, tf.float64), tf.constant(6)], [384 * 0.5 ** 4, 4 * 384 * 0.5 ** 3])


def _nested_rnn(x, w):
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        h = x
        for _ in tf.range(3):
            for _ in tf.range(2):
                h = tf.tanh(tf.matmul(h, w) + x)
        y = tf.reduce_sum(h ** 2)
    return [y] + tape.gradient(y, [x, w])


def test_gradient_through_nested_loops():
    """The outer scan stacks the inner loop's history (a pytree) per iteration; it was refused."""
    expected = [0.568510235106428, [[1.2324830723729854, -0.7957536178898581]],  # TensorFlow 2.21, jit_compile
                [[0.2980805839304799, -0.146192085005521], [-0.8814293328210434, 0.6552418592406004]]]
    _check(_nested_rnn, [tf.constant([[0.3, -0.2]], tf.float64), tf.constant([[0.5, -0.4], [0.3, 0.9]], tf.float64)],
           expected, rtol=1e-9)


def test_second_order_through_nested_loops_is_refused_as_tensorflow_does():
    def f(x):
        return derivatives(sine_nested_loops, x, 2)[2]
    x = tf.constant(0.5, tf.float64)
    np.testing.assert_allclose(float(tf.function(f)(x)), 1.259085393936286, rtol=1e-12)  # TensorFlow's tf.function
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop nested in a loop"):
        tf.function(f, jit_compile=True)(x)
