"""Gradcheck rows for the reductions and scans in ops/math/reduce.py (and the reductions composed there).

Max/Min rows use distinct values (a tie is a kink); the tie case is checked on its own against
TensorFlow's even split. Prod is checked on an input holding a zero, where dividing the product by
the element would fail.
"""
import numpy as np
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _distinct(shape):
    def make(rng):
        n = int(np.prod(shape))
        return [(rng.permutation(n) * 0.37 - 1.0).reshape(shape)]
    return make


def _with_zero(rng):
    x = rng.uniform(0.5, 1.5, size=(2, 3)) * rng.choice([-1.0, 1.0], size=(2, 3))
    x[0, 1] = 0.0
    return [x]


ROWS = [
    GradRow("Sum/all", lambda x: tf.reduce_sum(x), [(2, 3)], order=2),
    GradRow("Sum/axis", lambda x: tf.reduce_sum(x * x, axis=1), [(2, 3, 2)], order=2),
    GradRow("Sum/neg-list-keepdims", lambda x: tf.reduce_sum(x, axis=[0, -1], keepdims=True), [(2, 3, 2)], order=2),
    GradRow("Mean/all", lambda x: tf.reduce_mean(x * x), [(2, 3)], order=2),
    GradRow("Mean/axis", lambda x: tf.reduce_mean(x, axis=-1, keepdims=True), [(2, 3)], order=2),
    GradRow("Max/axis", lambda x: tf.reduce_max(x, axis=1), [(2, 3)], make=_distinct((2, 3)), order=2),
    GradRow("Max/all", lambda x: tf.reduce_max(x * x), [(2, 3)], make=_distinct((2, 3))),
    GradRow("Min/axis-keepdims", lambda x: tf.reduce_min(x, axis=0, keepdims=True), [(3, 2)], make=_distinct((3, 2))),
    GradRow("Min/all", lambda x: tf.reduce_min(x), [(2, 2)], make=_distinct((2, 2))),
    GradRow("Prod/axis", lambda x: tf.reduce_prod(x, axis=1), [(2, 3)], low=0.5, high=1.5),
    GradRow("Prod/with-zero", lambda x: tf.reduce_prod(x, axis=[0, 1]), [(2, 3)], make=_with_zero),
    GradRow("Prod/with-zero-keepdims", lambda x: tf.reduce_prod(x, axis=1, keepdims=True), [(2, 3)], make=_with_zero),
    GradRow("Cumsum", lambda x: tf.math.cumsum(x * x, axis=1), [(2, 3)], order=2),
    GradRow("Cumsum/exclusive-reverse", lambda x: tf.math.cumsum(x, axis=0, exclusive=True, reverse=True),
            [(3, 2)], order=2),
    GradRow("Cumsum/reverse", lambda x: tf.cumsum(x, -1, reverse=True), [(4,)], order=2),
    GradRow("reduce_logsumexp", lambda x: tf.math.reduce_logsumexp(x, axis=1), [(2, 3)], order=2),
    GradRow("reduce_logsumexp/all-keepdims", lambda x: tf.reduce_logsumexp(x, keepdims=True), [(2, 3)]),
    GradRow("reduce_variance", lambda x: tf.math.reduce_variance(x, axis=0), [(3, 2)], order=2),
    GradRow("reduce_std", lambda x: tf.math.reduce_std(x, axis=-1, keepdims=True), [(2, 3)], order=2),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)


@pytest.mark.parametrize("fn", [tf.reduce_max, tf.reduce_min])
def test_extreme_ties_split_the_gradient_evenly(fn):
    """TensorFlow divides the gradient equally among the positions holding the max (min)."""
    x = tf.constant([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]) * (1.0 if fn is tf.reduce_max else -1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x, axis=1)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[0.0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])


def test_prod_gradient_with_two_zeros_is_zero():
    x = tf.constant([0.0, 2.0, 0.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_prod(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [0.0, 0.0, 0.0, 0.0])
