"""tf.linalg.LinearOperator basics against TensorFlow 2.21: FullMatrix, Diag, Identity,
ScaledIdentity, LowerTriangular, Composition, Inversion, Adjoint. Expected values, types, names
and messages were printed by TensorFlow 2.21 for the same calls."""
import numpy as np
import pytest

import eagerflow as tf

L = tf.linalg
M = np.array([[4., 1.], [2., 3.]])
LT = np.array([[2., 0.], [1., 3.]])
X = np.array([[1., 2.], [3., 4.]])
V = np.array([1., -1.])


def _operators():
    full = L.LinearOperatorFullMatrix(M)
    diag = L.LinearOperatorDiag(np.array([2., 5.]))
    return {
        "full": full, "diag": diag,
        "ident": L.LinearOperatorIdentity(2, dtype=tf.float64),
        "scaled": L.LinearOperatorScaledIdentity(2, tf.constant(3.0, tf.float64)),
        "lower": L.LinearOperatorLowerTriangular(LT),
        "comp": L.LinearOperatorComposition([full, diag]),
        "inv": L.LinearOperatorInversion(full),
        "adj": L.LinearOperatorAdjoint(full),
    }


# name -> (name, flags (non_singular, self_adjoint, positive_definite, square), dense, matmul, matmul adjoint,
#          matmul adjoint_arg, matvec, solve, solvevec, det, log|det|, type of adjoint(), type of inverse(),
#          trace, diag_part, type of op @ diag)
TF = {
    "full": ("LinearOperatorFullMatrix", (None, None, None, True), [[4, 1], [2, 3]], [[7, 12], [11, 16]],
             [[10, 16], [10, 14]], [[6, 16], [8, 18]], [3, -1], [[0, 0.2], [1, 1.2]], [0.4, -0.6], 10.0,
             2.302585092994046, "LinearOperatorAdjoint", "LinearOperatorInversion", 7.0, [4, 3],
             "LinearOperatorComposition"),
    "diag": ("LinearOperatorDiag", (None, True, None, True), [[2, 0], [0, 5]], [[2, 4], [15, 20]],
             [[2, 4], [15, 20]], [[2, 6], [10, 20]], [2, -5], [[0.5, 1], [0.6, 0.8]], [0.5, -0.2], 10.0,
             2.3025850929940455, "LinearOperatorDiag", "LinearOperatorDiag", 7.0, [2, 5], "LinearOperatorDiag"),
    "ident": ("LinearOperatorIdentity", (True, True, True, True), [[1, 0], [0, 1]], [[1, 2], [3, 4]],
              [[1, 2], [3, 4]], [[1, 3], [2, 4]], [1, -1], [[1, 2], [3, 4]], [1, -1], 1.0, 0.0,
              "LinearOperatorIdentity", "LinearOperatorIdentity", 2.0, [1, 1], "LinearOperatorDiag"),
    "scaled": ("LinearOperatorScaledIdentity", (None, True, None, True), [[3, 0], [0, 3]], [[3, 6], [9, 12]],
               [[3, 6], [9, 12]], [[3, 9], [6, 12]], [3, -3], [[1 / 3, 2 / 3], [1, 4 / 3]], [1 / 3, -1 / 3], 9.0,
               2.1972245773362196, "LinearOperatorScaledIdentity", "LinearOperatorScaledIdentity", 6.0, [3, 3],
               "LinearOperatorDiag"),
    "lower": ("LinearOperatorLowerTriangular", (None, None, None, True), [[2, 0], [1, 3]], [[2, 4], [10, 14]],
              [[5, 8], [9, 12]], [[2, 6], [7, 15]], [2, -2], [[0.5, 1], [0.8333333333333333, 1]], [0.5, -0.5], 6.0,
              1.791759469228055, "LinearOperatorAdjoint", "LinearOperatorInversion", 5.0, [2, 3],
              "LinearOperatorLowerTriangular"),
    "comp": ("LinearOperatorFullMatrix_o_LinearOperatorDiag", (None, None, None, True), [[8, 5], [4, 15]],
             [[23, 36], [49, 68]], [[20, 32], [50, 70]], [[18, 44], [34, 72]], [3, -11], [[0, 0.1], [0.2, 0.24]],
             [0.2, -0.12], 100.0, 4.605170185988092, "LinearOperatorAdjoint", "LinearOperatorInversion", 23.0,
             [8, 15], "LinearOperatorComposition"),
    "inv": ("LinearOperatorFullMatrix_inv", (None, None, None, True), [[0.3, -0.1], [-0.2, 0.4]],
            [[0, 0.2], [1, 1.2]], [[-0.3, -0.2], [1.1, 1.4]], [[0.1, 0.5], [0.6, 1.0]], [0.4, -0.6],
            [[7, 12], [11, 16]], [3, -1], 0.1, -2.302585092994046, "LinearOperatorAdjoint",
            "LinearOperatorFullMatrix", 0.7, [0.3, 0.4], "LinearOperatorComposition"),
    "adj": ("LinearOperatorFullMatrix_adjoint", (None, None, None, True), [[4, 2], [1, 3]], [[10, 16], [10, 14]],
            [[7, 12], [11, 16]], [[8, 20], [7, 15]], [2, -2], [[-0.3, -0.2], [1.1, 1.4]], [0.5, -0.5], 10.0,
            2.302585092994046, "LinearOperatorFullMatrix", "LinearOperatorInversion", 7.0, [4, 3],
            "LinearOperatorComposition"),
}


@pytest.mark.parametrize("key", list(TF))
def test_operator_matches_tf(key):
    op = _operators()[key]
    diag = _operators()["diag"]
    (name, flags, dense, mm, mm_adj, mm_adj_arg, mv, solve, solvevec, det, logdet, adj_type, inv_type, trace,
     diag_part, at_type) = TF[key]
    assert op.name == name
    assert (op.is_non_singular, op.is_self_adjoint, op.is_positive_definite, op.is_square) == flags
    assert op.shape == (2, 2) and op.batch_shape == () and op.dtype == tf.float64
    assert op.domain_dimension == 2 and op.range_dimension == 2
    np.testing.assert_array_equal(op.shape_tensor().numpy(), [2, 2])
    checks = [(op.to_dense(), dense), (op.matmul(X), mm), (op.matmul(X, adjoint=True), mm_adj),
              (op.matmul(X, adjoint_arg=True), mm_adj_arg), (op.matvec(V), mv), (op.solve(X), solve),
              (op.solvevec(V), solvevec), (op.determinant(), det), (op.log_abs_determinant(), logdet),
              (op.trace(), trace), (op.diag_part(), diag_part)]
    for got, expected in checks:
        assert got.dtype == tf.float64
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-13, atol=1e-15)
    assert type(op.adjoint()).__name__ == adj_type
    assert type(op.inverse()).__name__ == inv_type
    assert type(op @ diag).__name__ == at_type


def test_operators_trace_and_differentiate():
    m = tf.constant(M)

    def det_of_composition(matrix):
        op = L.LinearOperatorComposition([L.LinearOperatorFullMatrix(matrix), L.LinearOperatorDiag(tf.constant(
            [2.0, 5.0], tf.float64))])
        return op.log_abs_determinant() + tf.reduce_sum(op.solve(tf.constant(X)))

    np.testing.assert_allclose(tf.function(det_of_composition)(m).numpy(), det_of_composition(m).numpy())
    with tf.GradientTape() as tape:
        tape.watch(m)
        y = L.LinearOperatorFullMatrix(m).log_abs_determinant()
    np.testing.assert_allclose(tape.gradient(y, m).numpy(), np.linalg.inv(M).T, rtol=1e-13)  # d log|det| = A^-T


def test_batches_and_defaults_match_tf():
    assert L.LinearOperatorIdentity(2, batch_shape=[3]).to_dense().shape == (3, 2, 2)
    assert L.LinearOperatorIdentity(2).dtype == tf.float32
    assert L.LinearOperatorDiag(np.ones((3, 2))).shape == (3, 2, 2)
    scaled = L.LinearOperatorScaledIdentity(2, [2., 3.]).to_dense()
    assert scaled.dtype == tf.float32
    np.testing.assert_array_equal(scaled.numpy(), [[[2, 0], [0, 2]], [[3, 0], [0, 3]]])
    np.testing.assert_array_equal(L.LinearOperatorLowerTriangular(np.array([[2., 9.], [1., 3.]])).to_dense().numpy(),
                                  [[2, 0], [1, 3]])
    diag = L.LinearOperatorDiag([1., 2.], is_positive_definite=True)
    assert (diag.is_non_singular, diag.is_self_adjoint, diag.is_positive_definite, diag.is_square) == (True,) * 4
    comp = _operators()["comp"]
    assert [type(o).__name__ for o in comp.operators] == ["LinearOperatorFullMatrix", "LinearOperatorDiag"]
    ident = L.LinearOperatorIdentity(2).solve(np.ones((2, 1), np.float32))
    assert ident.dtype == tf.float32


def test_errors_match_tf():
    wide = L.LinearOperatorFullMatrix(np.ones((2, 3)))
    with pytest.raises(NotImplementedError, match="^Exact solve not implemented for an operator that is expected "
                                                  "to not be square.$"):
        wide.solve(np.ones((2, 1)))
    with pytest.raises(NotImplementedError, match="^Determinant not implemented for an operator that is expected "
                                                  "to not be square.$"):
        wide.determinant()
    with pytest.raises(TypeError, match=r"^Argument `matrix` must have dtype in \[tf.float16, tf.float32, "
                                        r"tf.float64, tf.complex64, tf.complex128\]. Received: <dtype: 'int32'>.$"):
        L.LinearOperatorFullMatrix(np.ones((2, 2), np.int32))
    with pytest.raises(ValueError, match=r"^Argument `matrix` must have at least 2 dimensions. Received: \[1. 1.\].$"):
        L.LinearOperatorFullMatrix(np.ones(2))
    with pytest.raises(ValueError, match="^Dimensions 2 and 3 are not compatible$"):
        _operators()["full"].matmul(np.ones((3, 1)))
    with pytest.raises(ValueError, match=r"^Expected a non-empty list of operators. Found: \[\]$"):
        L.LinearOperatorComposition([])
    with pytest.raises(TypeError, match=r"^Expected all operators to have the same dtype.  Found "
                                        r"\('LinearOperatorFullMatrix', tf.float64\)   \('LinearOperatorDiag', "
                                        r"tf.float32\)$"):
        L.LinearOperatorComposition([_operators()["full"], L.LinearOperatorDiag(np.ones(2, np.float32))])
    with pytest.raises(ValueError, match=r"^Argument `is_square` or argument `operator` must have supplied hint "
                                         r"`is_square` equal to `True` or `None`. Found `operator.is_square`: False, "
                                         r"`is_square`: None.$"):
        L.LinearOperatorInversion(wide)
    with pytest.raises(ValueError, match=r"Found `operator.is_non_singular`: False, `is_non_singular`: None.$"):
        L.LinearOperatorInversion(L.LinearOperatorFullMatrix(M, is_non_singular=False))
    with pytest.raises(TypeError, match=r"^Expected argument to have dtype <dtype: 'float32'>.  Found: "
                                        r"<dtype: 'float64'> in tensor"):
        L.LinearOperatorIdentity(2).matmul(np.ones((2, 1)))
