"""Gradcheck rows for ops/math/special_inverse.py and ops/math/bessel_zeta.py. Betainc and Zeta are
differentiated only where TensorFlow defines a gradient (x, and q); Igamma's gradient in a goes
through IgammaGradA."""
import numpy as np
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _apart(rng):
    """nextafter's direction must not flip under the finite-difference step."""
    x = rng.uniform(-2, 2, (2, 3))
    return [x, x + np.where(rng.uniform(size=(2, 3)) < 0.5, -1.0, 1.0)]


def _angle(x, y):
    return tf.math.angle(tf.cast(x, tf.complex128) + tf.cast(y, tf.complex128) * 1j)


ROWS = [
    GradRow("Erfinv", tf.math.erfinv, [(2, 3)], low=-0.9, high=0.9, order=2),
    GradRow("Ndtri", tf.math.ndtri, [(2, 3)], low=0.05, high=0.95, order=2),
    GradRow("erfcinv", tf.math.erfcinv, [(2, 3)], low=0.1, high=1.9),
    GradRow("Igamma", tf.math.igamma, [(2, 3), (2, 3)], low=0.3, high=5.0, rtol=1e-4),
    GradRow("Igammac", tf.math.igammac, [(3,), (2, 3)], low=0.3, high=5.0, rtol=1e-4),
    GradRow("Betainc", lambda x: tf.math.betainc(tf.constant([0.5, 2.0, 4.0], tf.float64), 1.5, x), [(3,)],
            low=0.05, high=0.95, order=2),
    GradRow("Zeta", lambda q: tf.math.zeta(tf.constant([2.0, 3.5, 5.0], tf.float64), q), [(2, 3)],
            low=0.3, high=3.0, order=2),
    GradRow("BesselI0", tf.math.bessel_i0, [(2, 3)], low=-4, high=4, order=2),
    GradRow("BesselI0e", tf.math.special.bessel_i0e, [(2, 3)], low=-4, high=4, order=2),
    GradRow("BesselI1", tf.math.bessel_i1, [(2, 3)], low=-4, high=4, order=2),
    GradRow("BesselI1e", tf.math.bessel_i1e, [(2, 3)], low=-4, high=4, order=2),
    GradRow("BesselI0e/large", tf.math.bessel_i0e, [(4,)], low=31, high=60),
    GradRow("NextAfter", tf.math.nextafter, [(2, 3), (2, 3)], make=_apart),
    GradRow("Angle", _angle, [(2, 3), (2, 3)], low=0.3, high=2.0),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
