"""Gradcheck rows for ops/linalg/tridiagonal.py (TensorFlow's gradient rules for TridiagonalSolve and
TridiagonalMatMul); the diagonally dominant main diagonal keeps the solves well conditioned."""
import numpy as np
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _dominant(batch, m, k):
    def make(rng):
        d = rng.uniform(-1, 1, batch + (3, m))
        d[..., 1, :] += 4.0
        return [d, rng.uniform(-1, 1, batch + (m, k))]
    return make


ROWS = [
    GradRow("TridiagonalSolve", tf.linalg.tridiagonal_solve, [(3, 4), (4, 2)], make=_dominant((), 4, 2), order=2),
    GradRow("TridiagonalSolve/batch-no-pivoting", lambda d, r: tf.linalg.tridiagonal_solve(
        d, r, partial_pivoting=False), [(2, 3, 3), (2, 3, 1)], make=_dominant((2,), 3, 1)),
    GradRow("TridiagonalMatMul", tf.linalg.tridiagonal_matmul, [(3, 4), (4, 2)], order=2),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
