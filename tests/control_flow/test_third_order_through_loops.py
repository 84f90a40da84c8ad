"""Third-order gradients through a loop whose body holds a tf.cond, or another loop (three nested
GradientTapes around a `for t in tf.range(...)` / tf.while_loop), eagerly and under tf.function.

The expected numbers are TensorFlow 2.21's (tensorflow-cpu, float64, tf.function; its eager and
jit_compile=True results agree to the last few digits), written in here; a second reference is
the central difference of the second-order result. Before, tf.function raised NotImplementedError
("Third-order gradients through a tf.while_loop whose body holds a tf.cond ... not supported yet").
tests/codegen/test_xla_higher_order.py runs the same cases under jit_compile=True.
"""
from __future__ import annotations

import numpy as np
import pytest

import eagerflow as tf
from tests.control_flow.nested_tapes import cond_in_cond_loop, cond_loop, derivatives, sine_nested_loops


def cond_in_a_loop(x):
    """h <- h * x if h > 1 else h + x^2, three times from h = x: h and its first three derivatives."""
    return derivatives(cond_loop, x, 3)


def cond_in_a_bounded_loop(x):
    """A data-dependent loop (until h >= 5, at most 10 steps) whose body's cond switches branch."""
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                i, h = tf.while_loop(
                    lambda i, h: h < 5.0,
                    lambda i, h: (i + 1, tf.cond(h > 1.0, lambda: tf.tanh(h * x) + h * x, lambda: h + tf.sin(x))),
                    [tf.constant(0), x], maximum_iterations=10)
            d1 = t1.gradient(h, x)
        d2 = t2.gradient(d1, x)
    return i, h, d1, d2, t3.gradient(d2, x)


def cond_on_two_variables(x, w):
    """The branches use different variables (w in one, x in the other): every third derivative."""
    with tf.GradientTape(persistent=True) as t3:
        t3.watch([x, w])
        with tf.GradientTape(persistent=True) as t2:
            t2.watch([x, w])
            with tf.GradientTape() as t1:
                t1.watch([x, w])
                h = x
                for _ in tf.range(4):
                    h = tf.cond(h > 1.0, lambda: h * w - 0.5, lambda: h * h + x)
            dx, dw = t1.gradient(h, [x, w])
        dxx, dww, dxw = t2.gradient(dx, x), t2.gradient(dw, w), t2.gradient(dx, w)
    return h, dx, dw, dxx, dww, dxw, t3.gradient(dxx, x), t3.gradient(dww, w), t3.gradient(dxw, x), t3.gradient(dxx, w)


_W = tf.Variable(1.3, dtype=tf.float64)


def cond_reading_a_variable(x):
    """cond_on_two_variables with w a tf.Variable (the tapes watch it as it is read)."""
    with tf.GradientTape(persistent=True) as t3:
        t3.watch(x)
        with tf.GradientTape(persistent=True) as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                h = x
                for _ in tf.range(4):
                    h = tf.cond(h > 1.0, lambda: h * _W - 0.5, lambda: h * h + x)
            dx, dw = t1.gradient(h, [x, _W])
        dww, dxw = t2.gradient(dw, _W), t2.gradient(dx, _W)
    return h, dx, dw, dww, dxw, t3.gradient(dww, _W), t3.gradient(dxw, x)


def cond_on_vectors(x0, x1):
    """A vector state through a matvec in one branch; the third order of a Hessian-vector product."""
    x = tf.stack([x0, x1])
    m = tf.constant([[0.5, -0.3], [0.8, 0.2]], tf.float64)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                h = x
                for _ in tf.range(3):
                    h = tf.cond(tf.reduce_sum(h) > 0.5, lambda: tf.tanh(tf.linalg.matvec(m, h)) + x,
                                lambda: h * x + 0.3)
                y = tf.reduce_sum(h * h)
            g = t1.gradient(y, x)
            s = tf.reduce_sum(g * tf.constant([1.0, -0.5], tf.float64))
        hg = t2.gradient(s, x)
        r = tf.reduce_sum(hg * hg)
    return y, g, hg, t3.gradient(r, x)


def cond_nested_in_a_cond(x):
    """A body with two conds, one nested in a branch of the other."""
    return derivatives(cond_in_cond_loop, x, 3)


def nested_loops(x):
    """h <- sin(h x), two inner steps per outer step, three outer steps."""
    return derivatives(sine_nested_loops, x, 3)


# TensorFlow 2.21, tf.function: [h, dh/dx, d2h/dx2, d3h/dx3]
COND_IN_A_LOOP = {
    0.7: [1.323, 4.27, 8.2, 6.0],  # else, else, then
    1.2: [2.0736, 6.912, 17.28, 28.799999999999997],  # then throughout
    0.95: [1.67188125, 6.137, 16.529999999999998, 28.8],  # else, then, then
    0.3: [0.57, 2.8, 6.0, 0.0],  # else throughout: h = 3x^2 + x
    -0.4: [0.08000000000000007, -1.4000000000000004, 6.0, 0.0],
}
# [i, h, dh/dx, d2h/dx2, d3h/dx3]
COND_IN_A_BOUNDED_LOOP = {
    0.7: [10, 3.1003332080198733, 11.356172035531529, 26.67988404313359, 555.2329958465458],  # hits its bound
    1.5: [2, 5.841914645784482, 7.92559152497156, 8.214204827052077, 8.651810955707965],
    0.3: [10, 0.9158111814310284, 6.904585912905233, 33.500546486693146, -77.71986711683033],
    2.5: [1, 7.2499925467214315, 5.000074532507926, 1.9992844934790206, 0.00655870071083281],
}
# [h, dx, dw, dxx, dww, dxw, dxxx, dwww, dxwx, dxxw]
COND_ON_TWO_VARIABLES = {
    (0.7, 1.3): [1.44149321, 7.985243199999999, 4.4673868, 38.723308, 17.556508, 31.789055999999995,
                 82.25568000000001, 37.04232, 127.72864, 127.72863999999998],
    (1.2, 0.8): [1.5959933184000001, 2.7478881280000005, 2.8881434880000003, 5.146296319999999, 16.2108368,
                 11.418344959999999, 8.532787200000001, 72.998784, 31.7978624, 31.797862399999996],
    (0.4, 2.0): [1.2266900278870017, 10.645849765085186, 0.0, 111.98718142218242, 0.0, 0.0, 1318.098500173824,
                 0.0, 0.0, 0.0],  # the branch with w never runs
    (1.1, 1.5): [1.50625, 5.0625, 9.475000000000001, 0.0, 24.2, 13.5, 0.0, 36.6, 0.0, 0.0],  # nor the one with x^2
}
# [h, dx, dw, dww, dxw, dwww, dxwx] (TensorFlow 2.21 with the tf.Variable: cond_on_two_variables' numbers)
COND_READING_A_VARIABLE = {
    0.7: [1.44149321, 7.985243199999999, 4.4673868, 17.556508, 31.789056, 37.04232, 127.72864],
}
# [y, dy/dx, d(dy/dx . v)/dx, d|that|^2/dx]
COND_ON_VECTORS = {
    (0.2, 0.1): [0.20222858432065166, [1.3764419694514851, 0.7645383556817079],
                 [6.144599530876625, -0.16277224505047455], [-0.23457265207729705, 19.79329603767843]],
    (0.6, 0.4): [1.5228520097401386, [3.6626903572968583, 1.1981089559648401],
                 [3.0882995127104302, -0.6344929122836989], [-3.095831600089121, -9.442190380864474]],
    (-0.3, 0.2): [0.30136495100743066, [-0.3716000388035632, 0.6666142859556763],
                  [1.6667645606239347, -2.1640548936225077], [-17.405503802908, 43.22451186752164]],
}
COND_NESTED_IN_A_COND = {  # [h, dh/dx, d2h/dx2, d3h/dx3]
    0.5: [0.6503750000000003, 3.236750000000001, 10.285, 15.246000000000004],
    0.9: [1.8435681000000006, 7.115526000000002, 20.124720000000007, 36.73560000000001],
    1.3: [0.6644284075927669, -7.257076114032186, -48.907536782055544, 82.46457038933642],
    2.5: [-2.08668797326998, 1.7198114443660515, 66.21737243322517, 476.1480399508688],  # the inner cond's sin
}
NESTED_LOOPS = {
    0.5: [0.007705178226513047, 0.10688436992657958, 1.259085393936286, 12.069793207209031],
    1.3: [0.9403987693772429, 0.5526809584715473, -3.5268345783626374, 14.822501068717123],
}


_COMPILED = {}  # (fn, jit) -> tf.function: the tests of one function share its traces


def compiled(fn, jit=False):
    if (fn, jit) not in _COMPILED:
        _COMPILED[fn, jit] = tf.function(fn, jit_compile=jit)
    return _COMPILED[fn, jit]


def run(fn, mode, *args):
    runner = fn if mode == "eager" else compiled(fn, jit=mode == "jit")
    return [None if v is None else np.asarray(v) for v in runner(*[tf.constant(a, tf.float64) for a in args])]


def assert_matches(got, expected, rtol=1e-9):
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        np.testing.assert_allclose(g, e, rtol=rtol, atol=1e-12, err_msg=f"output {i}")


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("x", sorted(COND_IN_A_LOOP))
def test_third_order_through_a_cond_in_a_tf_range_loop(mode, x):
    got = run(cond_in_a_loop, mode, x)
    expected = COND_IN_A_LOOP[x]
    if mode == "eager" and expected[3] == 0.0:  # eagerly d2 does not depend on x at all: TensorFlow's None too
        assert got[3] is None
        got, expected = got[:3], expected[:3]
    assert_matches(got, expected)


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("x", sorted(COND_IN_A_BOUNDED_LOOP))
def test_third_order_through_a_cond_in_a_maximum_iterations_loop(mode, x):
    assert_matches(run(cond_in_a_bounded_loop, mode, x), COND_IN_A_BOUNDED_LOOP[x])


@pytest.mark.parametrize("xw", sorted(COND_ON_TWO_VARIABLES))
def test_third_order_through_a_cond_whose_branches_use_different_variables(xw):
    assert_matches(run(cond_on_two_variables, "function", *xw), COND_ON_TWO_VARIABLES[xw])


@pytest.mark.parametrize("xw", [(0.7, 1.3), (1.2, 0.8)])  # both branches run: every derivative is connected
def test_third_order_through_a_cond_whose_branches_use_different_variables_eagerly(xw):
    assert_matches(run(cond_on_two_variables, "eager", *xw), COND_ON_TWO_VARIABLES[xw])


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_third_order_through_a_cond_reading_a_variable(mode):
    assert_matches(run(cond_reading_a_variable, mode, 0.7), COND_READING_A_VARIABLE[0.7])


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("x", sorted(COND_ON_VECTORS))
def test_third_order_through_a_cond_on_vectors(mode, x):
    assert_matches(run(cond_on_vectors, mode, *x), COND_ON_VECTORS[x])


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("x", sorted(COND_NESTED_IN_A_COND))
def test_third_order_through_a_cond_nested_in_a_cond(mode, x):
    assert_matches(run(cond_nested_in_a_cond, mode, x), COND_NESTED_IN_A_COND[x])


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("x", sorted(NESTED_LOOPS))
def test_third_order_through_a_loop_nested_in_a_loop(mode, x):
    """The backward walk of the second order's backward loop reads the inner loop's history per
    iteration, as it reads a cond's kept values."""
    assert_matches(run(nested_loops, mode, x), NESTED_LOOPS[x])


def _difference(fn, args, output, wrt, eps=1e-5):
    """Central difference of `fn(*args)[output]` in `args[wrt]`, through tf.function."""
    def at(delta):
        moved = [a + (delta if i == wrt else 0.0) for i, a in enumerate(args)]
        return float(compiled(fn)(*[tf.constant(a, tf.float64) for a in moved])[output])
    return (at(eps) - at(-eps)) / (2 * eps)


@pytest.mark.parametrize("fn, args, checks", [  # checks: (third-order output, second-order output, input)
    (cond_in_a_loop, (0.7,), [(3, 2, 0)]), (cond_in_a_loop, (0.95,), [(3, 2, 0)]),
    (cond_in_a_loop, (1.2,), [(3, 2, 0)]),
    (cond_in_a_bounded_loop, (0.7,), [(4, 3, 0)]), (cond_in_a_bounded_loop, (0.3,), [(4, 3, 0)]),
    (cond_in_a_bounded_loop, (1.5,), [(4, 3, 0)]),
    (cond_on_two_variables, (0.7, 1.3), [(6, 3, 0), (7, 4, 1), (8, 5, 0), (9, 3, 1)]),
    (cond_nested_in_a_cond, (0.9,), [(3, 2, 0)]), (cond_nested_in_a_cond, (2.5,), [(3, 2, 0)]),
    (nested_loops, (0.5,), [(3, 2, 0)]), (nested_loops, (1.3,), [(3, 2, 0)]),
], ids=lambda v: getattr(v, "__name__", None))
def test_third_order_is_the_difference_of_the_second_order(fn, args, checks):
    """A reference independent of TensorFlow: d/dx of the second-order result, by differences
    (the inputs are away from where the cond switches branch or the loop its trip count)."""
    got = compiled(fn)(*[tf.constant(a, tf.float64) for a in args])
    for third, second, wrt in checks:
        np.testing.assert_allclose(float(got[third]), _difference(fn, args, second, wrt), rtol=1e-6, atol=1e-6,
                                   err_msg=f"output {third}")


def test_a_branch_or_body_reading_a_variable_makes_the_stateful_op():
    """TF 2.21: tf.cond over branches reading a variable is `If`, a loop whose body reads one is
    `While`; pure branches stay `StatelessIf`. Values as TF's: (2.0, 10.0, [6.0])."""
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        y1 = tf.cond(x > 0, lambda: v * 2.0, lambda: x)
        v.assign(5.0)
        y2 = tf.cond(x > 0, lambda: v * 2.0, lambda: x)
        i1 = tf.while_loop(lambda i: i < 3.0, lambda i: i + v, [x])
        w = tf.cond(x > 0, lambda: x * 2.0, lambda: x)
        return y1, y2, i1, w
    y1, y2, (i1,), w = f(tf.constant(1.0))
    assert (float(y1), float(y2), float(i1), float(w)) == (2.0, 10.0, 6.0, 2.0)
    graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    assert [op.type for op in graph.get_operations() if "If" in op.type or "While" in op.type] == [
        "If", "If", "While", "StatelessIf"]
