"""tf.linalg.tridiagonal_solve / tridiagonal_matmul: values and gradients TensorFlow 2.21 gives
(written here), NumPy's dense solve as a reference, and the argument checks."""
import numpy as np
import pytest

import eagerflow as tf

D = [[2.0, 3.0, 0.0], [1.0, 4.0, 5.0], [0.0, 1.0, 2.0]]  # superdiagonal, main, subdiagonal
RHS = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def test_values_and_gradients_match_tensorflow():
    d, r = tf.constant(D, tf.float64), tf.constant(RHS, tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([d, r])
        x = tf.linalg.tridiagonal_solve(d, r)
        y = tf.linalg.tridiagonal_matmul(d, r)
    assert x.numpy().tolist() == [[3.5, 6.0], [-1.25, -2.0], [1.5, 2.0]]
    assert y.numpy().tolist() == [[7.0, 10.0], [28.0, 36.0], [31.0, 38.0]]
    gd, gr = tape.gradient(x, [d, r])
    np.testing.assert_allclose(gd.numpy(), [[8.9375, 6.125, 0.0], [-26.125, -5.6875, -4.375], [0.0, 16.625, 4.0625]])
    np.testing.assert_allclose(gr.numpy(), [[2.75, 2.75], [-1.75, -1.75], [1.25, 1.25]])
    gd, gr = tape.gradient(y, [d, r])
    assert gd.numpy().tolist() == [[7.0, 11.0, 0.0], [3.0, 7.0, 11.0], [0.0, 3.0, 7.0]]
    assert gr.numpy().tolist() == [[2.0, 2.0], [8.0, 8.0], [8.0, 8.0]]


def test_batches_formats_and_options_against_numpy():
    rng = np.random.default_rng(0)
    diags = rng.uniform(-1, 1, (2, 3, 5)) + np.array([0.0, 4.0, 0.0])[:, None]
    rhs = rng.uniform(-1, 1, (2, 5, 3))
    dense = np.zeros((2, 5, 5))
    for b in range(2):
        dense[b] = np.diag(diags[b, 1]) + np.diag(diags[b, 0, :-1], 1) + np.diag(diags[b, 2, 1:], -1)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(diags, rhs).numpy(), np.linalg.solve(dense, rhs))
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(diags, rhs, partial_pivoting=False).numpy(),
                               np.linalg.solve(dense, rhs))
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(dense, rhs, diagonals_format="matrix").numpy(),
                               np.linalg.solve(dense, rhs))
    seq = [diags[:, 0], diags[:, 1], diags[:, 2]]
    np.testing.assert_allclose(tf.linalg.tridiagonal_matmul(seq, rhs, diagonals_format="sequence").numpy(),
                               dense @ rhs)
    vec = tf.linalg.tridiagonal_solve(np.array(D, np.float32), np.array([1.0, 2.0, 3.0], np.float32),
                                      transpose_rhs=True)
    assert vec.numpy().tolist() == [3.0, -1.0, 1.0]  # TensorFlow's answer


def test_pivoting_and_its_absence_as_tensorflow():
    d = tf.constant([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]])  # [[0, 1], [1, 0]]: a zero first pivot
    assert tf.linalg.tridiagonal_solve(d, tf.ones([2, 1])).numpy().tolist() == [[1.0], [1.0]]
    assert np.isnan(tf.linalg.tridiagonal_solve(d, tf.ones([2, 1]), partial_pivoting=False).numpy()).all()


def test_refusals():
    with pytest.raises(ValueError, match="Expected 3 diagonals got 2"):
        tf.linalg.tridiagonal_solve(tf.ones([2, 3]), tf.ones([3, 1]))
    with pytest.raises(ValueError, match="Expected number of left-hand sided and right-hand sides to be equal, "
                                         "got 3 and 4"):
        tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([4, 1]))
    with pytest.raises(ValueError, match="Expected diagonals to be a sequence of length 3."):
        tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([3]), diagonals_format="sequence")


def test_graph_op_types():
    cf = tf.function(tf.linalg.tridiagonal_solve).get_concrete_function(tf.TensorSpec([3, 3]), tf.TensorSpec([3, 2]))
    assert [op.type for op in cf.graph.get_operations() if op.type not in ("Placeholder", "Identity")] == [
        "TridiagonalSolve"]
