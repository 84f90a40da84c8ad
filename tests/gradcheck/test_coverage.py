"""Every differentiable op has a gradcheck row that exercises it.

Fails when an op is added without a row, and (through the rows themselves) when a gradient rule
is removed or broken.
"""
import importlib
import pathlib

import pytest

from eagerflow._src.ops.registry import NO_GRADIENT, OPS, UNREGISTERED_GRADIENT, defop
from tests.gradcheck.harness import ops_recorded

# Ops whose gradient is defined but that no row can reach, each with the reason.
EXEMPT = {
    "OptionalNone": "takes no inputs: there is nothing to differentiate it with respect to",
    "ProdOfOthers": "the helper inside Prod's gradient; its own gradient is not defined (first order only)",
    "LoopHistorySeedStacks": "unpacks a loop history's gradient for the backward walk of a third order; its own "
                             "gradient is a fourth order (the harness stops at order 3): the order=3 loop rows and "
                             "tests/control_flow/test_third_order_through_loops.py check the third derivatives",
    "CropAndResize": "float32 output whatever the image dtype (as in TensorFlow), too coarse for the float64 "
                     "differences; tests/ops/test_image_crop.py checks both gradients against TensorFlow's numbers "
                     "and the image gradient against exact (linear) float32 differences",
    "FusedBatchNormV3": "float16/bfloat16/float32 only, as in TensorFlow, so the float64 harness cannot run it; "
                        "tests/ops/test_fused_batch_norm.py checks its gradients against TensorFlow's numbers",
    "LRN": "float32/half only, as in TensorFlow, so the float64 harness cannot run it; tests/ops/test_nn_breadth.py "
           "checks its gradient (LRNGrad) against TensorFlow's numbers and float64 differences of the formula",
    "MaxPool3D": "float16/float32 only, as in TensorFlow, so the float64 harness cannot run it; "
                 "tests/gradcheck/test_volume_grads.py checks its gradient ops directly and tests/ops/test_conv3d.py "
                 "its gradient against TensorFlow's numbers",
    "RandomGamma": "a random draw: finite differences cannot hold the sample fixed while alpha moves; "
                   "tests/ops/test_random_gamma_poisson.py checks RandomGammaGrad against TensorFlow's numbers and "
                   "E[d sample / d alpha] = d E[sample] / d alpha = 1/beta by Monte Carlo",
    "ReadVariableOp": "a variable read: rows differentiate w.r.t. tensors; tests/autodiff/test_tape.py checks "
                      "variable gradients against hand-computed values",
}


def _all_rows():
    rows = []
    for path in sorted(pathlib.Path(__file__).parent.glob("test_*_grads.py")):
        module = importlib.import_module(f"tests.gradcheck.{path.stem}")
        rows.extend(getattr(module, "ROWS", []))
    return rows


def test_every_differentiable_op_has_a_row():
    rows = _all_rows()
    assert rows, "no gradcheck rows found"
    exercised = set()
    for row in rows:
        exercised |= ops_recorded(row)
    # Importing the row modules imported every op family, so OPS is complete here.
    # (An op TensorFlow registers no gradient for raises LookupError: tests/ops/test_no_registered_gradient.py.)
    differentiable = {name for name, op in OPS.items() if op.grad not in (NO_GRADIENT, UNREGISTERED_GRADIENT)}
    missing = sorted(differentiable - exercised - set(EXEMPT))
    assert not missing, f"differentiable ops with no gradcheck row: {missing}"


def test_defop_requires_an_explicit_gradient_decision():
    with pytest.raises(ValueError, match="NO_GRADIENT explicitly"):
        defop("NoSuchOpForTest", kernel=lambda x: x, infer=None, grad=None)
    assert "NoSuchOpForTest" not in OPS
