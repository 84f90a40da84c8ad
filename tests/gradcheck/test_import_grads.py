"""Gradcheck rows for the ops SavedModels TensorFlow wrote bring in (ops/math/gradient_ops.py: TensorFlow's
gradient ops, held by saved training steps; ops/control/saved_custom_gradient.py: a saved
@tf.custom_gradient). Their own gradients (what a second derivative through an imported training step
uses) against central differences, in float64."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.control.saved_custom_gradient import SavedCustomGradient
from eagerflow._src.ops.math import gradient_ops as G
from eagerflow._src.ops.registry import bind
from tests.gradcheck.harness import GradRow, check_row

_FEATURES = tf.constant(np.array([[-1.5, -0.4, 0.3], [0.8, 2.5, 7.0]]))  # away from the kinks at 0 and 6
_OUTPUTS = tf.constant(np.array([[-0.9, -0.3, 0.2], [0.6, 1.5, 4.0]]))  # ELU/SELU outputs, away from 0


def _both(op):
    return lambda y, dy: bind(op, (y, dy))


def _positive(rng):
    return [rng.uniform(0.5, 2.0, (2, 3)), rng.uniform(-1, 1, (2, 3))]


def _unit(rng):
    return [rng.uniform(-0.9, 0.9, (2, 3)), rng.uniform(-1, 1, (2, 3))]


_SPEC = tf.TensorSpec([2, 3], tf.float64)
_SQUARING_GRADIENT = tf.function(lambda g0, g1, c: g0 * c * c).get_concrete_function(_SPEC, _SPEC, _SPEC)


def _saved_custom_gradient(x):
    """y = x * 2 forward, whose saved gradient is dy * x^2 (it reads the forward value x)."""
    results = bind(SavedCustomGradient, (x * 2.0, x, x), {"_function": _SQUARING_GRADIENT, "n_outputs": 2})
    return results[0] + tf.stop_gradient(x) * 0.0


ROWS = [
    GradRow("SigmoidGrad", _both(G.SigmoidGrad), [], make=_unit, order=2),
    GradRow("TanhGrad", _both(G.TanhGrad), [], make=_unit, order=2),
    GradRow("RsqrtGrad", _both(G.RsqrtGrad), [], make=_positive, order=2),
    GradRow("SqrtGrad", _both(G.SqrtGrad), [], make=_positive, order=2),
    GradRow("ReciprocalGrad", _both(G.ReciprocalGrad), [], make=_positive, order=2),
    GradRow("InvGrad", _both(G.InvGrad), [], make=_positive, order=2),
    GradRow("EluGrad", lambda g: bind(G.EluGrad, (g, _OUTPUTS)), [(2, 3)], order=2),
    GradRow("EluGrad-outputs", lambda y: bind(G.EluGrad, (tf.ones([2, 3], tf.float64) * 0.7, y)), [(2, 3)],
            make=lambda rng: [rng.uniform(-0.9, -0.1, (2, 3))]),
    GradRow("SeluGrad", lambda g: bind(G.SeluGrad, (g, _OUTPUTS)), [(2, 3)], order=2),
    GradRow("SoftplusGrad", lambda g, x: bind(G.SoftplusGrad, (g, x)), [(2, 3), (2, 3)], order=2),
    GradRow("Relu6Grad", lambda g: bind(G.Relu6Grad, (g, _FEATURES)), [(2, 3)], order=2),
    GradRow("LeakyReluGrad", lambda g: bind(G.LeakyReluGrad, (g, _FEATURES), {"alpha": 0.3}), [(2, 3)], order=2),
    GradRow("SavedCustomGradient", _saved_custom_gradient, [(2, 3)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    if row.name == "SavedCustomGradient":  # its gradient is the saved function's, not y's derivative
        x = tf.constant(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _saved_custom_gradient(x)
        np.testing.assert_allclose(tape.gradient(y, x).numpy(), x.numpy() ** 2)
        return
    check_row(row)
