"""Fourth-order gradients through a loop whose body holds a tf.cond, or another loop (four nested
GradientTapes), under tf.function and eagerly.

The expected numbers are TensorFlow 2.21's (tensorflow-cpu, float64, tf.function), written in
here; a second reference is the central difference of the third-order result. Before, tf.function
raised InvalidArgumentError at a WhileGrad ("'int' object has no attribute 'shape'" in AddN): the
zero gradient of a loop history's column of variants (what the cond kept per iteration) was
NumPy's zeros_like of an object array, a column of plain ints, and the backward walk of the third
order read one back as a cond's kept-values gradient.
"""
from __future__ import annotations

import numpy as np
import pytest

import eagerflow as tf
from tests.control_flow.nested_tapes import cond_in_cond_loop, cond_loop, derivatives, sine_nested_loops
from eagerflow._src.core.variant import VariantValue
from eagerflow._src.ops.array.basic import ZerosLike
from eagerflow._src.ops.math.elementwise import AddN


def cond_in_a_loop(x):
    """h <- h * x if h > 1 else h + x^2, three times from h = x: h and its first four derivatives."""
    return derivatives(cond_loop, x, 4)


def cond_in_a_bounded_loop(x):
    """A data-dependent loop (until h >= 5, at most 10 steps) whose body's cond switches branch."""
    with tf.GradientTape() as t4:
        t4.watch(x)
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    i, h = tf.while_loop(
                        lambda i, h: h < 5.0,
                        lambda i, h: (i + 1, tf.cond(h > 1.0, lambda: tf.tanh(h * x) + h * x,
                                                     lambda: h + tf.sin(x))),
                        [tf.constant(0), x], maximum_iterations=10)
                d1 = t1.gradient(h, x)
            d2 = t2.gradient(d1, x)
        d3 = t3.gradient(d2, x)
    return i, h, d1, d2, d3, t4.gradient(d3, x)


def cond_on_two_variables(x, w):
    """The branches use different variables (w in one, x in the other): mixed fourth derivatives."""
    with tf.GradientTape(persistent=True) as t4:
        t4.watch([x, w])
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
        dxxx, dwww, dxwx = t3.gradient(dxx, x), t3.gradient(dww, w), t3.gradient(dxw, x)
    return (h, dxx, dww, dxw, dxxx, dwww, dxwx,
            t4.gradient(dxxx, x), t4.gradient(dwww, w), t4.gradient(dxwx, w), t4.gradient(dxxx, w))


def cond_nested_in_a_cond(x):
    """A body with two conds, one nested in a branch of the other."""
    return derivatives(cond_in_cond_loop, x, 4)


def nested_loops(x):
    """h <- sin(h x), two inner steps per outer step, three outer steps."""
    return derivatives(sine_nested_loops, x, 4)


# TensorFlow 2.21, tf.function: [h, dh/dx, d2h/dx2, d3h/dx3, d4h/dx4]
COND_IN_A_LOOP = {
    0.7: [1.323, 4.27, 8.200000000000001, 6.0, 0.0],  # else, else, then
    1.2: [2.0736, 6.912, 17.28, 28.799999999999997, 24.0],  # then throughout: h = x^4
    0.95: [1.6718812499999998, 6.137, 16.529999999999998, 28.8, 24.0],  # else, then, then
    0.3: [0.57, 2.8, 6.0, 0.0, 0.0],  # else throughout: h = 3x^2 + x
    1.5: [5.0625, 13.5, 27.0, 36.0, 24.0],  # the task's example
}
# [i, h, d1, d2, d3, d4]
COND_IN_A_BOUNDED_LOOP = {
    0.7: [10, 3.1003332080198733, 11.356172035531529, 26.67988404313359, 555.2329958465458, -178.24559536893702],
    1.5: [2, 5.841914645784482, 7.92559152497156, 8.214204827052077, 8.651810955707965, -4.687744325027167],
    0.3: [10, 0.9158111814310284, 6.904585912905233, 33.500546486693146, -77.71986711683033, -3926.6043995025216],
    2.5: [1, 7.2499925467214315, 5.000074532507926, 1.9992844934790206, 0.00655870071083281,
          -0.056998970819046826],
}
# [h, dxx, dww, dxw, dxxx, dwww, dxwx, dxxxx, dwwww, dxwxw, dxxxw]
COND_ON_TWO_VARIABLES = {
    (0.7, 1.3): [1.44149321, 38.723308, 17.556508, 31.789055999999995, 82.25568000000001, 37.04232, 127.72864,
                 68.54640000000002, 33.986399999999996, 310.5584, 253.0944],
    (1.2, 0.8): [1.5959933184000001, 5.146296319999999, 16.2108368, 11.418344959999999, 8.532787200000001,
                 72.998784, 31.7978624, 6.291456000000003, 280.76543999999996, 173.71263999999996,
                 56.623104000000005],
    (0.4, 2.0): [1.2266900278870017, 111.98718142218242, 0.0, 0.0, 1318.098500173824, 0.0, 0.0,
                 15476.01916182528, 0.0, 0.0, 0.0],  # the branch with w never runs
    (1.1, 1.5): [1.50625, 0.0, 24.2, 13.5, 0.0, 36.6, 0.0, 0.0, 26.400000000000002, 0.0, 0.0],  # nor x^2's
}
COND_NESTED_IN_A_COND = {  # [h, d1, d2, d3, d4]
    0.5: [0.6503750000000003, 3.236750000000001, 10.285, 15.246000000000004, 0.0],
    0.9: [1.8435681000000006, 7.115526000000002, 20.124720000000007, 36.73560000000001, 31.94400000000001],
    1.3: [0.6644284075927669, -7.257076114032186, -48.907536782055544, 82.46457038933642, 3859.9279000600554],
    2.5: [-2.08668797326998, 1.7198114443660515, 66.21737243322517, 476.1480399508688, 7615.778729375756],
}
NESTED_LOOPS = {
    0.5: [0.007705178226513047, 0.10688436992657958, 1.259085393936286, 12.069793207209031, 85.84204780636966],
    1.3: [0.9403987693772429, 0.5526809584715473, -3.5268345783626374, 14.822501068717123, -48.63786351176519],
}


_COMPILED = {}  # fn -> tf.function: the tests of one function share its trace


def compiled(fn):
    if fn not in _COMPILED:
        _COMPILED[fn] = tf.function(fn)
    return _COMPILED[fn]


def run(fn, mode, *args):
    runner = fn if mode == "eager" else compiled(fn)
    return [None if v is None else np.asarray(v) for v in runner(*[tf.constant(a, tf.float64) for a in args])]


def assert_matches(got, expected, rtol=1e-9):
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        np.testing.assert_allclose(g, e, rtol=rtol, atol=1e-10, err_msg=f"output {i}")


@pytest.mark.parametrize("fn, cases", [
    (cond_in_a_loop, COND_IN_A_LOOP), (cond_in_a_bounded_loop, COND_IN_A_BOUNDED_LOOP),
    (cond_on_two_variables, COND_ON_TWO_VARIABLES), (cond_nested_in_a_cond, COND_NESTED_IN_A_COND),
    (nested_loops, NESTED_LOOPS)], ids=lambda v: getattr(v, "__name__", ""))
def test_fourth_order_under_tf_function_is_tensorflows(fn, cases):
    for args, expected in cases.items():  # one trace for all the cases of a function
        args = args if isinstance(args, tuple) else (args,)
        assert_matches(run(fn, "function", *args), expected)


@pytest.mark.parametrize("fn, args, expected", [
    (cond_in_a_loop, (1.5,), COND_IN_A_LOOP[1.5]), (cond_in_a_loop, (0.95,), COND_IN_A_LOOP[0.95]),
    (cond_in_a_bounded_loop, (0.7,), COND_IN_A_BOUNDED_LOOP[0.7]),
    (cond_on_two_variables, (0.7, 1.3), COND_ON_TWO_VARIABLES[0.7, 1.3]),
], ids=lambda v: getattr(v, "__name__", None))
def test_fourth_order_eagerly_is_the_same(fn, args, expected):
    """Eagerly every derivative here is connected (no branch leaves one constant)."""
    assert_matches(run(fn, "eager", *args), expected)


def _difference(fn, args, output, wrt, eps=1e-5):
    """Central difference of `fn(*args)[output]` in `args[wrt]`, through tf.function."""
    def at(delta):
        moved = [a + (delta if i == wrt else 0.0) for i, a in enumerate(args)]
        return float(compiled(fn)(*[tf.constant(a, tf.float64) for a in moved])[output])
    return (at(eps) - at(-eps)) / (2 * eps)


@pytest.mark.parametrize("fn, args, checks", [  # checks: (fourth-order output, third-order output, input)
    (cond_in_a_loop, (0.95,), [(4, 3, 0)]), (cond_in_a_loop, (1.5,), [(4, 3, 0)]),
    (cond_in_a_bounded_loop, (0.7,), [(5, 4, 0)]), (cond_in_a_bounded_loop, (1.5,), [(5, 4, 0)]),
    (cond_on_two_variables, (0.7, 1.3), [(7, 4, 0), (8, 5, 1), (9, 6, 1), (10, 4, 1)]),
    (cond_nested_in_a_cond, (0.9,), [(4, 3, 0)]), (nested_loops, (0.5,), [(4, 3, 0)]),
], ids=lambda v: getattr(v, "__name__", None))
def test_fourth_order_is_the_difference_of_the_third_order(fn, args, checks):
    """A reference independent of TensorFlow: d/dx of the third-order result, by differences
    (the inputs are away from where the cond switches branch or the loop its trip count)."""
    got = compiled(fn)(*[tf.constant(a, tf.float64) for a in args])
    for fourth, third, wrt in checks:
        np.testing.assert_allclose(float(got[fourth]), _difference(fn, args, third, wrt), rtol=1e-5, atol=1e-5,
                                   err_msg=f"output {fourth}")


def test_zeros_like_of_a_column_of_variants_is_a_column_of_zero_variants():
    """What a loop's history keeps for a cond per iteration is a column of variants; its zero
    gradient reads back, entry by entry, as a variant AddN can start from (it was NumPy's plain 0)."""
    column = np.empty(3, dtype=object)
    for i in range(3):
        column[i] = VariantValue(("kept", i))
    zeros = ZerosLike.kernel(column)
    assert zeros.dtype == object and zeros.shape == (3,)
    assert all(type(z) is VariantValue and z.payload is None for z in zeros)
    total = AddN.kernel(zeros[1], column[1])
    assert total is column[1]
