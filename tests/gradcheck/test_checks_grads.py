"""Gradcheck rows for ops/debugging/numerics.py: CheckNumerics passes the gradient through (itself checked)."""
import pytest

from eagerflow._src.ops.debugging.numerics import check_numerics
from tests.gradcheck.harness import GradRow, check_row

ROWS = [
    GradRow("check_numerics", lambda x: check_numerics(x * x, "m"), [(2, 3)], order=2),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
