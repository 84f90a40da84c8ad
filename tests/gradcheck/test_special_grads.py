"""Gradcheck rows for ops/math/special.py (gamma family, hyperbolic and inverse trigonometric functions,
atan2, xlogy, cumprod) and ops/math/segments.py (segment sums)."""
import numpy as np
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _polygamma_1(x):
    return tf.math.polygamma(tf.ones_like(x), x)


ROWS = [
    GradRow("Lgamma", lambda x: tf.math.lgamma(x), [(2, 3)], low=0.3, high=4.0, order=2),
    GradRow("Lgamma/negative", lambda x: tf.math.lgamma(x), [(3,)], low=-0.9, high=-0.1),
    GradRow("Digamma", lambda x: tf.math.digamma(x), [(2, 3)], low=0.3, high=12.0, order=2),
    GradRow("Polygamma", _polygamma_1, [(4,)], low=0.5, high=11.0, order=2),
    GradRow("Erfc", lambda x: tf.math.erfc(x), [(2, 3)], order=2),
    GradRow("Sinh", lambda x: tf.math.sinh(x), [(2, 3)], order=2),
    GradRow("Cosh", lambda x: tf.math.cosh(x), [(2, 3)], order=2),
    GradRow("Asin", lambda x: tf.math.asin(x), [(2, 3)], low=-0.9, high=0.9, order=2),
    GradRow("Acos", lambda x: tf.math.acos(x), [(2, 3)], low=-0.9, high=0.9, order=2),
    GradRow("Atan", lambda x: tf.math.atan(x), [(2, 3)], order=2),
    GradRow("Asinh", lambda x: tf.math.asinh(x), [(2, 3)], order=2),
    GradRow("Acosh", lambda x: tf.math.acosh(x), [(2, 3)], low=1.2, high=3.0, order=2),
    GradRow("Atanh", lambda x: tf.math.atanh(x), [(2, 3)], low=-0.9, high=0.9, order=2),
    GradRow("Atan2", lambda y, x: tf.math.atan2(y, x), [(2, 3), (3,)], low=0.3, high=2.0, order=2),
    GradRow("Xlogy", lambda x, y: tf.math.xlogy(x, y), [(2, 3), (2, 3)], low=0.3, high=2.0, order=2),
    GradRow("log_sigmoid", lambda x: tf.math.log_sigmoid(x), [(2, 3)]),
    GradRow("Cumprod", lambda x: tf.math.cumprod(x, axis=1), [(2, 3)], low=0.5, high=1.5, order=2),
    GradRow("Cumprod/exclusive-reverse", lambda x: tf.math.cumprod(x, exclusive=True, reverse=True), [(4,)],
            low=0.5, high=1.5),
    GradRow("SegmentSum", lambda x: tf.math.segment_sum(x * x, tf.constant([0, 0, 2, 3])), [(4, 2)], order=2),
    GradRow("segment_mean", lambda x: tf.math.segment_mean(x, tf.constant([0, 0, 1])), [(3, 2)]),
    GradRow("UnsortedSegmentSum", lambda x: tf.math.unsorted_segment_sum(x * x, tf.constant([1, -1, 0, 1]), 3),
            [(4, 2)], order=2),
    GradRow("unsorted_segment_mean/2d-ids",
            lambda x: tf.math.unsorted_segment_mean(x, tf.constant([[0, 1], [1, 1]]), 2), [(2, 2, 3)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)


def _distinct(shape):
    def make(rng):
        n = int(np.prod(shape))
        return [(rng.permutation(n) * 0.37 - 1.0).reshape(shape)]
    return make


EXTREME_ROWS = [
    GradRow("SegmentMax", lambda x: tf.math.segment_max(x, tf.constant([0, 0, 1, 3])), [(4, 2)],
            make=_distinct((4, 2))),
    GradRow("SegmentMin", lambda x: tf.math.segment_min(x * x, tf.constant([0, 0, 0, 2])), [(4, 2)],
            make=_distinct((4, 2))),
    GradRow("UnsortedSegmentMax", lambda x: tf.math.unsorted_segment_max(x, tf.constant([1, -1, 1, 0]), 2),
            [(4, 2)], make=_distinct((4, 2))),
    GradRow("UnsortedSegmentMin", lambda x: tf.math.unsorted_segment_min(x, tf.constant([[0, 1], [1, 1]]), 2),
            [(2, 2, 3)], make=_distinct((2, 2, 3))),
    GradRow("SegmentProd", lambda x: tf.math.segment_prod(x, tf.constant([0, 0, 1, 1, 3])), [(5, 2)], order=2),
    GradRow("UnsortedSegmentProd", lambda x: tf.math.unsorted_segment_prod(x, tf.constant([1, -1, 1, 0]), 2),
            [(4, 2)]),
    GradRow("unsorted_segment_sqrt_n", lambda x: tf.math.unsorted_segment_sqrt_n(x, tf.constant([0, 0, 2]), 3),
            [(3, 2)]),
    # Conj through complex casts (the harness feeds float64): the real part of conj(x^2) is x^2.
    GradRow("Conj", lambda x: tf.cast(tf.math.conj(tf.square(tf.cast(x, tf.complex128))), tf.float64), [(2, 3)]),
    GradRow("CumulativeLogsumexp", lambda x: tf.math.cumulative_logsumexp(x, axis=1), [(2, 4)], order=2),
    GradRow("CumulativeLogsumexp/exclusive-reverse",
            lambda x: tf.math.cumulative_logsumexp(x, exclusive=True, reverse=True)[:-1], [(4,)]),
    GradRow("lbeta", lambda x: tf.math.lbeta(x), [(2, 3)], low=0.5, high=3.0),
    GradRow("polyval", lambda x: tf.math.polyval([2.0, -1.0, 0.5], x), [(2, 3)]),
    GradRow("Cross", lambda a, b: tf.linalg.cross(a * a, b), [(2, 3), (3,)], order=2),
    GradRow("pinv", lambda x: tf.linalg.pinv(x), [(3, 2)]),
    GradRow("normalize", lambda x: tf.linalg.normalize(x, axis=1)[0], [(2, 3)]),
    GradRow("multiply_no_nan", lambda x, y: tf.math.multiply_no_nan(x, y), [(2, 3), (3,)]),
    GradRow("xdivy", lambda x, y: tf.math.xdivy(x, y), [(2, 3), (2, 3)], low=0.5, high=2.0),
    GradRow("xlog1py", lambda x, y: tf.math.xlog1py(x, y), [(2, 3), (2, 3)], low=0.5, high=2.0),
]


ROWS = ROWS + EXTREME_ROWS  # the coverage test reads ROWS


@pytest.mark.parametrize("row", EXTREME_ROWS, ids=str)
def test_extreme_and_composed_gradients(row):
    check_row(row)


def test_segment_prod_gradient_with_zeros():  # TF 2.21's values: one zero gets the others' product
    x = tf.constant([2., 0., 4., 0., 0., 5.])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        sorted_prod = tf.math.segment_prod(x, tf.constant([0, 0, 1, 1, 1, 2]))
        unsorted_prod = tf.math.unsorted_segment_prod(x, tf.constant([0, 0, 1, 1, 1, -1]), 3)
    np.testing.assert_array_equal(tape.gradient(sorted_prod, x).numpy(), [0., 2., 0., 0., 0., 1.])
    np.testing.assert_array_equal(tape.gradient(unsorted_prod, x).numpy(), [0., 2., 0., 0., 0., 0.])


def test_segment_max_gradient_splits_ties_evenly():  # TF 2.21's values
    x = tf.constant([1., 3., 3., 2.])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        sorted_max = tf.math.segment_max(x, tf.constant([0, 0, 0, 1]))
        unsorted_max = tf.math.unsorted_segment_max(x, tf.constant([0, 0, -1, 1]), 3)
    np.testing.assert_array_equal(tape.gradient(sorted_max, x).numpy(), [0., 0.5, 0.5, 1.])
    np.testing.assert_array_equal(tape.gradient(unsorted_max, x).numpy(), [0., 1., 0., 1.])
