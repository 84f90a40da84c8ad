"""Differential rows (generated code == eager == reference interpreter) for the tf.linalg additions:
expm, sqrtm, logm, lu (+ lu_solve / lu_matrix_inverse / lu_reconstruct), eig / eigvals,
banded_triangular_solve and eigh_tridiagonal. `rows(Row)` builds them with test_differential's Row.
MatrixExponential is the only one of these XLA compiles (as TensorFlow), so test_xla_differential
takes its rows from here too."""
import numpy as np

import eagerflow as tf

_RNG = np.random.default_rng(33)
SQ = (_RNG.uniform(-1, 1, (3, 3)) + 3.0 * np.eye(3)).astype(np.float32)
SQ64 = _RNG.uniform(-1, 1, (2, 3, 3)) + 2.0 * np.eye(3)
CSQ = (_RNG.uniform(-1, 1, (3, 3)) + 1j * _RNG.uniform(-1, 1, (3, 3)) + 2.0 * np.eye(3)).astype(np.complex64)
RHS = _RNG.uniform(-1, 1, (3, 2)).astype(np.float32)
BANDS = (_RNG.uniform(-1, 1, (2, 4)) + np.array([[3.0], [0.0]])).astype(np.float32)
BRHS = _RNG.uniform(-1, 1, (4, 2)).astype(np.float32)
ALPHA = np.array([1.0, 2.0, 3.0, 4.0])
BETA = np.array([0.5, 0.25, 0.1])


def _grad(f):
    def g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
            y = tf.reduce_sum(y * tf.reshape(tf.cast(tf.range(tf.size(y)) % 5, y.dtype), tf.shape(y)))
        return tape.gradient(y, x)
    return g


def _lu_all(x, b):
    lu, p = tf.linalg.lu(x)
    return lu, p, tf.linalg.lu_solve(lu, p, b), tf.linalg.lu_matrix_inverse(lu, p), tf.linalg.lu_reconstruct(lu, p)


def _eig_invariants(x):
    """Order- and phase-free functions of Eig's outputs: sorted values and the rebuilt matrix."""
    e, v = tf.linalg.eig(x)
    rebuilt = tf.linalg.solve(tf.linalg.adjoint(v), tf.linalg.adjoint(v * tf.expand_dims(e, -2)))  # = A^H
    return tf.sort(tf.math.real(e)), tf.linalg.adjoint(rebuilt)


def rows(Row):
    L = tf.linalg
    return [
        Row("MatrixExponential", L.expm, (SQ,)),
        Row("MatrixExponential", L.expm, (SQ64,), dims="dynamic", label="batch-dynamic"),
        Row("MatrixExponential", _grad(L.expm), (SQ64,), label="grad"),
        Row("MatrixExponential", L.expm, (np.ones((2, 3), np.float32),), dims="dynamic",
            raises=tf.errors.InvalidArgumentError, label="non-square"),
        Row("MatrixSquareRoot", L.sqrtm, (SQ,)),
        Row("MatrixSquareRoot", _grad(L.sqrtm), (SQ64,), label="grad"),
        Row("MatrixLogarithm", L.logm, (CSQ,)),
        Row("Lu", _lu_all, (SQ, RHS)),
        Row("Lu", lambda x: L.lu(x), (np.zeros((2, 2), np.float32),), raises=tf.errors.InvalidArgumentError,
            label="singular"),
        Row("Eig", _eig_invariants, (SQ64,)),
        Row("Eig", lambda x: tf.sort(tf.math.real(L.eigvals(x))), (SQ,), label="eigvals"),
        Row("BandedTriangularSolve", L.banded_triangular_solve, (BANDS, BRHS)),
        Row("BandedTriangularSolve", lambda b, r: L.banded_triangular_solve(b, r, lower=False, adjoint=True),
            (BANDS[::-1].copy(), BRHS), label="upper-adjoint"),
        Row("SelfAdjointEigV2", lambda a, b: L.eigh_tridiagonal(a, b), (ALPHA, BETA), label="eigh_tridiagonal"),
    ]
