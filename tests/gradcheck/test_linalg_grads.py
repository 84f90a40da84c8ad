"""Gradcheck rows for tf.linalg (ops/linalg/solves.py, ops/linalg/matrix_parts.py) and the norms built on them.

Decompositions are checked through quantities that do not depend on the sign conventions of the
factors (singular vectors and eigenvectors are unique only up to sign: their squares are not), and
on inputs that keep them well defined: symmetric positive definite matrices for Cholesky, well
separated singular values and eigenvalues, matrices kept away from singularity.
"""
import numpy as np
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _well_conditioned(*shapes):
    """Random matrices plus 3*I: far from singular."""
    def make(rng):
        out = []
        for s in shapes:
            a = rng.uniform(-1.0, 1.0, size=s)
            if len(s) >= 2 and s[-1] == s[-2]:
                a = a + 3.0 * np.eye(s[-1])
            out.append(a)
        return out
    return make


def _sym(x):
    """A symmetric function of x (so both triangles of the input carry the perturbation)."""
    return (x + tf.linalg.matrix_transpose(x)) * tf.constant(0.5, tf.float64)


def _spd(x):
    return _sym(x) + tf.constant(3.0 * np.eye(x.shape[-1]), tf.float64)


def _distinct_eigen(rng):
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return [q @ np.diag([1.0, 2.5, 4.0]) @ q.T + rng.uniform(-0.05, 0.05, size=(3, 3))]


def _chol_factor(x):
    return tf.linalg.cholesky(_spd(x))


ROWS = [
    GradRow("MatrixInverse", lambda x: tf.linalg.inv(x), [(3, 3)], make=_well_conditioned((3, 3)), order=2),
    GradRow("MatrixInverse/adjoint-batch", lambda x: tf.linalg.inv(x, adjoint=True), [(2, 3, 3)],
            make=_well_conditioned((2, 3, 3))),
    GradRow("MatrixDeterminant", lambda x: tf.linalg.det(x), [(3, 3)], make=_well_conditioned((3, 3)), order=2),
    GradRow("LogMatrixDeterminant", lambda x: tf.linalg.slogdet(x).log_abs_determinant, [(2, 3, 3)],
            make=_well_conditioned((2, 3, 3))),
    GradRow("logdet", lambda x: tf.linalg.logdet(_spd(x)), [(3, 3)]),
    GradRow("MatrixSolve", lambda a, b: tf.linalg.solve(a, b), [(3, 3), (3, 2)],
            make=_well_conditioned((3, 3), (3, 2)), order=2),
    GradRow("MatrixSolve/adjoint-batch", lambda a, b: tf.linalg.solve(a, b, adjoint=True), [(2, 3, 3), (2, 3, 1)],
            make=_well_conditioned((2, 3, 3), (2, 3, 1))),
    GradRow("MatrixTriangularSolve/lower", lambda a, b: tf.linalg.triangular_solve(a, b), [(3, 3), (3, 2)],
            make=_well_conditioned((3, 3), (3, 2))),
    GradRow("MatrixTriangularSolve/upper-adjoint",
            lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True), [(3, 3), (3, 2)],
            make=_well_conditioned((3, 3), (3, 2))),
    GradRow("Cholesky", _chol_factor, [(3, 3)], order=2),
    GradRow("cholesky_solve", lambda x, b: tf.linalg.cholesky_solve(_chol_factor(x), b), [(3, 3), (3, 2)]),
    GradRow("Qr/tall", lambda x: tf.concat(list(tf.linalg.qr(x)), axis=0), [(4, 3)], make=_well_conditioned((4, 3))),
    GradRow("Qr/square", lambda x: tf.concat(list(tf.linalg.qr(x)), axis=0), [(3, 3)],
            make=_well_conditioned((3, 3))),
    GradRow("Qr/wide", lambda x: tf.concat([tf.linalg.qr(x)[0], tf.linalg.qr(x)[1]], axis=1), [(2, 4)],
            make=_well_conditioned((2, 4))),
    GradRow("Qr/wide-batch", lambda x: tf.linalg.qr(x).r, [(2, 2, 3)], make=_well_conditioned((2, 2, 3))),
    GradRow("Svd/values", lambda x: tf.linalg.svd(x, compute_uv=False), [(3, 2)]),
    GradRow("Svd/u-squared-tall", lambda x: tf.square(tf.linalg.svd(x)[1]), [(4, 3)]),
    GradRow("Svd/v-squared-wide", lambda x: tf.square(tf.linalg.svd(x)[2]), [(2, 4)]),
    GradRow("Svd/all-square", lambda x: tf.concat([tf.linalg.svd(x)[0][None, :], tf.square(tf.linalg.svd(x)[1]),
                                                   tf.square(tf.linalg.svd(x)[2])], axis=0), [(3, 3)]),
    GradRow("SelfAdjointEigV2/values", lambda x: tf.linalg.eigh(_sym(x))[0], [(3, 3)], make=_distinct_eigen),
    GradRow("SelfAdjointEigV2/vectors-squared", lambda x: tf.square(tf.linalg.eigh(_sym(x))[1]), [(3, 3)],
            make=_distinct_eigen),
    GradRow("eigvalsh", lambda x: tf.linalg.eigvalsh(_sym(x)), [(3, 3)], make=_distinct_eigen),
    GradRow("MatrixDiagV3", lambda d: tf.linalg.diag(d * d), [(2, 3)], order=2),
    GradRow("MatrixDiagV3/k", lambda d: tf.linalg.diag(d, k=-1), [(3,)]),
    GradRow("MatrixDiagV3/band", lambda d: tf.linalg.diag(d, k=(-1, 1), align="LEFT_RIGHT"), [(2, 3, 3)]),
    GradRow("MatrixDiagPartV3/band", lambda x: tf.linalg.diag_part(x, k=(-2, 1), padding_value=5), [(3, 4)]),
    GradRow("MatrixSetDiagV3/band", lambda x, d: tf.linalg.set_diag(x, d, k=(0, 1)), [(3, 3), (2, 3)]),
    GradRow("MatrixDiagPartV3", lambda x: tf.linalg.diag_part(x * x), [(2, 3, 4)], order=2),
    GradRow("MatrixDiagPartV3/k", lambda x: tf.linalg.diag_part(x, k=1), [(3, 4)]),
    GradRow("MatrixSetDiagV3", lambda x, d: tf.linalg.set_diag(x * x, d * d), [(3, 3), (3,)], order=2),
    GradRow("MatrixBandPart", lambda x: tf.linalg.band_part(x * x, 1, 0), [(2, 4, 4)], order=2),
    GradRow("trace", lambda x: tf.linalg.trace(x * x), [(2, 3, 3)]),
    GradRow("matvec", lambda a, b: tf.linalg.matvec(a, b, transpose_a=True), [(3, 2), (3,)]),
    GradRow("lstsq/tall", lambda a, b: tf.linalg.lstsq(a, b), [(4, 2), (4, 1)], make=_well_conditioned((4, 2), (4, 1))),
    GradRow("lstsq/l2-wide", lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.1), [(2, 3), (2, 2)]),
    GradRow("norm/euclidean", lambda x: tf.norm(x), [(2, 3)]),
    GradRow("norm/1-axis", lambda x: tf.norm(x, ord=1, axis=1), [(2, 3)], low=0.2),
    GradRow("norm/3-axis-keepdims", lambda x: tf.norm(x, ord=3, axis=0, keepdims=True), [(2, 3)], low=0.2),
    GradRow("norm/matrix-2", lambda x: tf.norm(x, ord=2, axis=[-2, -1]), [(2, 3, 2)]),
    GradRow("clip_by_norm", lambda x: tf.clip_by_norm(x, 1.0, axes=[1]), [(2, 3)]),
    GradRow("clip_by_global_norm", lambda x, y: tf.clip_by_global_norm([x, y], 1.5)[0][0], [(2, 2), (3,)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
