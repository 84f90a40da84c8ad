"""Higher derivatives through nested GradientTapes, and the loop bodies the third- and fourth-order
tests (tests/control_flow/test_*_order_through_loops.py and their jit_compile twins in tests/codegen/)
differentiate: one copy of each, whatever the order."""
from __future__ import annotations

import eagerflow as tf


def derivatives(f, x, order):
    """(f(x), f'(x), ..., the `order`-th derivative) of a scalar function through `order` nested
    GradientTapes, each watching x and recording everything inside it, as a user nests them by hand."""
    if order == 0:
        return (f(x),)
    with tf.GradientTape() as tape:
        tape.watch(x)
        lower = derivatives(f, x, order - 1)
    return lower + (tape.gradient(lower[-1], x),)


def cond_loop(x):
    """h <- h * x if h > 1 else h + x^2, three times from h = x."""
    h = x
    for _ in tf.range(3):
        h = tf.cond(h > 1.0, lambda: h * x, lambda: h + x * x)
    return h


def two_conds(h, x):
    h = tf.cond(h > 1.0, lambda: tf.cond(h > 2.0, lambda: tf.sin(h) * x, lambda: h * x), lambda: h + x * x)
    return tf.cond(h < 3.0, lambda: h * 1.1, lambda: h * x)


def cond_in_cond_loop(x):
    """A body with two conds, one nested in a branch of the other, three times from h = x."""
    h = x
    for _ in tf.range(3):
        h = two_conds(h, x)
    return h


def sine_nested_loops(x):
    """h <- sin(h x), two inner steps per outer step, three outer steps."""
    h = x
    for _ in tf.range(3):
        for _ in tf.range(2):
            h = tf.sin(h * x)
    return h
