"""Gradcheck rows for the tf.linalg additions: expm (the block-matrix rule), sqrtm (the Sylvester
rule), lu (LuGrad), eig/eigvals (EigGrad, real and complex input) and banded_triangular_solve,
against finite differences. Eigen-decompositions are checked through quantities that do not depend
on the eigenvectors' phase (|v|^2) on matrices with well separated eigenvalues."""
import numpy as np
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _shifted(*shapes, shift=3.0):
    """Random matrices plus shift*I (far from singular; eigenvalues near `shift`)."""
    def make(rng):
        out = []
        for s in shapes:
            a = rng.uniform(-1.0, 1.0, size=s)
            if len(s) >= 2 and s[-1] == s[-2]:
                a = a + shift * np.eye(s[-1])
            out.append(a)
        return out
    return make


def _separated_eigen(rng):
    """A real 3x3 matrix with eigenvalues 1, 2.5, 4 (well separated)."""
    p = rng.normal(size=(3, 3)) + 3.0 * np.eye(3)
    return [p @ np.diag([1.0, 2.5, 4.0]) @ np.linalg.inv(p)]


def _rotation_pair(rng):
    """A real 3x3 matrix with a complex-conjugate eigenvalue pair and one real eigenvalue."""
    return [np.array([[0.0, -2.0, 0.3], [1.5, 0.2, 0.1], [0.4, 0.0, 1.0]]) + rng.uniform(-0.05, 0.05, (3, 3))]


_W3 = np.arange(1.0, 10.0).reshape(3, 3)


def _eig_scalar(e, v):
    """A phase-independent real function of the eigen-decomposition."""
    weights = tf.constant([1.0, 2.0, 3.0], tf.float64)
    return (tf.reduce_sum(tf.math.real(e) * weights) + tf.reduce_sum(tf.square(tf.math.imag(e)))
            + tf.reduce_sum(tf.square(tf.abs(v)) * tf.constant(_W3)))


def _sorted_eigvals(x):
    e = tf.linalg.eigvals(x)
    return tf.sort(tf.math.real(e)) + tf.sort(tf.square(tf.math.imag(e)))


def _complex_eig(xr, xi):
    z = tf.cast(xr, tf.complex128) + tf.constant(1j) * tf.cast(xi, tf.complex128)  # eagerflow has no tf.complex
    return _eig_scalar(*tf.linalg.eig(z))


def _banded(lower, adjoint):
    return lambda bands, rhs: tf.linalg.banded_triangular_solve(bands, rhs, lower=lower, adjoint=adjoint)


def _diag_heavy_bands(lower):
    """Bands [2, 4] whose diagonal row stays away from zero."""
    def make(rng):
        bands = rng.uniform(-1.0, 1.0, size=(2, 4))
        bands[0 if lower else 1] += 3.0
        return [bands, rng.uniform(-1.0, 1.0, size=(4, 2))]
    return make


ROWS = [
    GradRow("MatrixExponential", tf.linalg.expm, [(3, 3)], low=-1.0, high=1.0, order=2),
    GradRow("MatrixExponential/large-norm", tf.linalg.expm, [(2, 3, 3)], low=-3.0, high=3.0, rtol=1e-4),
    GradRow("MatrixSquareRoot", tf.linalg.sqrtm, [(3, 3)], make=_shifted((3, 3))),
    GradRow("MatrixSquareRoot/batch", tf.linalg.sqrtm, [(2, 2, 2)], make=_shifted((2, 2, 2))),
    # Lu itself has no gradient in TensorFlow 2.21 (tests/ops/test_lu_gradient.py): the helpers are
    # differentiated with respect to a packed factor and a fixed pivot order, as TensorFlow allows.
    GradRow("lu_solve", lambda lu, b: tf.linalg.lu_solve(lu, tf.constant([2, 0, 1]), b), [(3, 3), (3, 2)],
            make=_shifted((3, 3), (3, 2))),
    GradRow("lu_matrix_inverse", lambda lu: tf.linalg.lu_matrix_inverse(lu, tf.constant([1, 2, 0])), [(3, 3)],
            make=_shifted((3, 3))),
    GradRow("lu_reconstruct/batch", lambda lu: tf.linalg.lu_reconstruct(lu, tf.constant([[1, 0, 2], [2, 1, 0]])),
            [(2, 3, 3)]),
    GradRow("Eig/real-spectrum", lambda x: _eig_scalar(*tf.linalg.eig(x)), [(3, 3)], make=_separated_eigen),
    GradRow("Eig/complex-pair", lambda x: _eig_scalar(*tf.linalg.eig(x)), [(3, 3)], make=_rotation_pair),
    GradRow("Eig/complex-input", _complex_eig, [(3, 3), (3, 3)]),
    GradRow("eigvals", _sorted_eigvals, [(3, 3)], make=_rotation_pair),
    GradRow("BandedTriangularSolve/lower", _banded(True, False), [(2, 4), (4, 2)], make=_diag_heavy_bands(True)),
    GradRow("BandedTriangularSolve/upper-adjoint", _banded(False, True), [(2, 4), (4, 2)],
            make=_diag_heavy_bands(False)),
    GradRow("eigh_tridiagonal", lambda d, e: tf.linalg.eigh_tridiagonal(d * 3.0, e),
            [(4,), (3,)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
