"""TensorFlow 2.21 registers no gradient for Lu (tf.linalg.lu): a gradient that has to go through
the factorisation is its LookupError, eagerly and inside a tf.function. lu_solve, lu_matrix_inverse and
lu_reconstruct are compositions of ordinary ops, so their gradients with respect to a given packed
factor exist; the values below are TensorFlow 2.21's for A = [[4, 3], [6, 3]], b = [[1], [2]]."""
import numpy as np
import pytest

import eagerflow as tf

A = np.array([[4.0, 3.0], [6.0, 3.0]], np.float32)
B = np.array([[1.0], [2.0]], np.float32)
NO_ENTRY = "^gradient registry has no entry for: Lu$"


def _modes(fn):
    return [fn, tf.function(fn)]


@pytest.mark.parametrize("mode", [0, 1], ids=["eager", "function"])
@pytest.mark.parametrize("target", ["lu", "solve", "inverse"])
def test_gradient_through_lu_is_a_lookup_error(mode, target):
    a, b = tf.constant(A), tf.constant(B)

    def grad():
        with tf.GradientTape() as tape:
            tape.watch(a)
            lu, p = tf.linalg.lu(a)
            if target == "lu":
                y = tf.reduce_sum(lu)
            elif target == "inverse":
                y = tf.reduce_sum(tf.linalg.lu_matrix_inverse(lu, p))
            else:
                y = tf.reduce_sum(tf.linalg.lu_solve(lu, p, b))
        return tape.gradient(y, a)

    with pytest.raises(LookupError, match=NO_ENTRY):
        _modes(grad)[mode]()


# d/d lu of sum(lu_matrix_inverse), sum(lu_solve(., b)), sum(lu_reconstruct * [[1, 2], [3, 4]])
INVERSE_GRAD = [[0.0, -0.05555555], [-0.5, -0.16666666]]
SOLVE_GRAD = [[-0.08333334, 0.05555556], [-1.0, 0.16666669]]
RECONSTRUCT_GRAD = [[3.6666667, 5.3333335], [12.0, 2.0]]


@pytest.mark.parametrize("mode", [0, 1], ids=["eager", "function"])
def test_helpers_differentiate_with_respect_to_the_packed_factor(mode):
    lu, p = tf.linalg.lu(tf.constant(A))
    weights = tf.constant([[1.0, 2.0], [3.0, 4.0]])

    def grads():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(lu)
            inverse = tf.reduce_sum(tf.linalg.lu_matrix_inverse(lu, p))
            solve = tf.reduce_sum(tf.linalg.lu_solve(lu, p, tf.constant(B)))
            rebuilt = tf.reduce_sum(tf.linalg.lu_reconstruct(lu, p) * weights)
        return tape.gradient(inverse, lu), tape.gradient(solve, lu), tape.gradient(rebuilt, lu)

    inverse, solve, rebuilt = _modes(grads)[mode]()
    np.testing.assert_allclose(inverse.numpy(), INVERSE_GRAD, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(solve.numpy(), SOLVE_GRAD, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rebuilt.numpy(), RECONSTRUCT_GRAD, rtol=1e-5, atol=1e-6)
