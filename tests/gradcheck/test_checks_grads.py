"""Gradcheck rows for ops/debugging/checks.py: CheckNumerics passes the gradient through (itself checked)."""
import pytest

from eagerflow._src.ops.debugging.checks import check_numerics
from tests.gradcheck.harness import GradRow, check_row

ROWS = [
    GradRow("check_numerics", lambda x: check_numerics(x * x, "m"), [(2, 3)], order=2),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
