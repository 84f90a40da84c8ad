"""Gradcheck rows for every differentiable op in ops/math/elementwise.py and ops/linalg/einsum.py.

Binary ops get broadcasting inputs (so the gradient goes through SumToShape); domains avoid
singularities (log/sqrt/div on positive values, pow with a positive base); many rows also check
second derivatives (`order=2`), which differentiates SumToShape itself.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.math.elementwise import Conj
from eagerflow._src.ops.array.basic import SumToShape
from eagerflow._src.ops.registry import bind
from tests.gradcheck.harness import GradRow, check_row

BCAST = [(2, 3), (3,)]
BCAST2 = [(2, 1), (1, 3)]


def _signed_away_from_zero(shape):
    def make(rng):
        return [rng.uniform(0.3, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)]
    return make


def _positive(*shapes, low=0.5, high=2.0):
    return lambda rng: [rng.uniform(low, high, size=s) for s in shapes]


ROWS = [
    # --- binary elementwise (broadcasting) ---
    GradRow("AddV2", lambda x, y: x + y, BCAST, order=2),
    GradRow("AddV2/bcast2", lambda x, y: tf.add(x, y), BCAST2),
    GradRow("Sub", lambda x, y: x - y, BCAST2, order=2),
    GradRow("Mul", lambda x, y: x * y, BCAST, order=2),
    GradRow("Mul/bcast2", lambda x, y: x * y, BCAST2, order=2),
    GradRow("RealDiv", lambda x, y: x / y, BCAST, make=_positive((2, 3), (3,)), order=2),
    GradRow("DivNoNan", lambda x, y: tf.math.divide_no_nan(x, y), BCAST2, make=_positive((2, 1), (1, 3))),
    GradRow("FloorMod", lambda x, y: tf.math.floormod(x, y), BCAST, make=_positive((2, 3), (3,), low=0.7, high=3.0)),
    GradRow("Pow", lambda x, y: tf.pow(x, y), BCAST, make=_positive((2, 3), (3,)), order=2),
    GradRow("Pow/scalar-exponent", lambda x: x ** 3.0, [(2, 3)], order=2),
    GradRow("Maximum", lambda x, y: tf.maximum(x, y), BCAST, order=2),
    GradRow("Minimum", lambda x, y: tf.minimum(x, y), BCAST2),
    GradRow("SquaredDifference", lambda x, y: tf.math.squared_difference(x, y), BCAST, order=2),
    # --- unary elementwise ---
    GradRow("Neg", lambda x: -x, [(2, 3)], order=2),
    GradRow("Abs", lambda x: tf.abs(x), [(2, 3)], make=_signed_away_from_zero((2, 3)), order=2),
    GradRow("Sign", lambda x: tf.sign(x) * x, [(2, 3)], make=_signed_away_from_zero((2, 3))),
    GradRow("Exp", tf.exp, [(2, 3)], order=2),
    GradRow("Expm1", tf.math.expm1, [(2, 3)], order=2),
    GradRow("Log", tf.math.log, [(2, 3)], make=_positive((2, 3)), order=2),
    GradRow("Log1p", tf.math.log1p, [(2, 3)], low=-0.5, high=2.0, order=2),
    GradRow("Sqrt", tf.sqrt, [(2, 3)], make=_positive((2, 3)), order=2),
    GradRow("Rsqrt", tf.math.rsqrt, [(2, 3)], make=_positive((2, 3)), order=2),
    GradRow("Square", tf.square, [(2, 3)], order=2),
    GradRow("Reciprocal", tf.math.reciprocal, [(2, 3)], make=_positive((2, 3)), order=2),
    GradRow("Sin", tf.sin, [(2, 3)], order=2),
    GradRow("Cos", tf.cos, [(2, 3)], order=2),
    GradRow("Tan", tf.math.tan, [(2, 3)], low=-1.0, high=1.0, order=2),
    GradRow("Tanh", tf.tanh, [(2, 3)], order=2),
    GradRow("Sigmoid", tf.sigmoid, [(2, 3)], order=2),
    # Conj is only built for complex tensors; bound directly here it is the identity on reals.
    GradRow("Conj", lambda x: bind(Conj, (x,)) * x, [(2, 3)], order=2),
    # Complex -> real ops on x * (1 + 2j): the chain through Cast and Mul is checked against the
    # real derivative (sqrt(5) sign(x), 1 and 2).
    GradRow("ComplexAbs", lambda x: tf.abs(tf.cast(x, tf.complex128) * (1 + 2j)), [(2, 3)],
            make=_signed_away_from_zero((2, 3))),
    GradRow("Real", lambda x: tf.math.real(tf.cast(x, tf.complex128) * (1 + 2j)) * x, [(2, 3)]),
    GradRow("Imag", lambda x: tf.math.imag(tf.cast(x, tf.complex128) * (1 + 2j)) * x, [(2, 3)]),
    # tf.complex(x, y) then |z|^2 = x^2 + y^2 and real/imag back: both parts' gradients, y broadcast
    GradRow("Complex", lambda x, y: tf.abs(tf.complex(x, y * 2.0)) ** 2 + tf.math.imag(tf.complex(x, y)) * x,
            [(2, 3), (3,)]),
    GradRow("Erf", tf.math.erf, [(2, 3)], order=2),
    GradRow("SpaceToBatchND", lambda x: tf.space_to_batch_nd(x, [2, 2], [[1, 1], [0, 2]]) ** 2, [(2, 2, 2, 3)]),
    GradRow("BatchToSpaceND", lambda x: tf.batch_to_space(x * x, [2], [[1, 0]]), [(4, 3, 2)]),
    # --- cast, add_n, clip ---
    GradRow("Cast/complex-round-trip", lambda x: tf.cast(tf.cast(x, tf.complex128), tf.float64) * x, [(2, 3)],
            order=2),
    GradRow("AddN", lambda x, y, z: tf.add_n([x, y * y, z]), [(2, 3)] * 3, order=2),
    GradRow("ClipByValue", lambda t, lo, hi: tf.clip_by_value(t, lo, hi), [(3, 4), (4,), ()],
            make=lambda rng: [rng.uniform(-3, 3, (3, 4)), rng.uniform(-1.5, -0.5, (4,)), np.array(1.2)]),
    # --- matrix products ---
    GradRow("MatMul", lambda a, b: tf.matmul(a, b), [(2, 3), (3, 4)], order=2),
    GradRow("MatMul/ta", lambda a, b: tf.matmul(a, b, transpose_a=True), [(3, 2), (3, 4)], order=2),
    GradRow("MatMul/tb", lambda a, b: tf.matmul(a, b, transpose_b=True), [(2, 3), (4, 3)]),
    GradRow("MatMul/ta-tb", lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True), [(3, 2), (4, 3)]),
    GradRow("BatchMatMulV2", lambda a, b: tf.matmul(a, b), [(2, 2, 3), (2, 3, 2)], order=2),
    GradRow("BatchMatMulV2/broadcast", lambda a, b: tf.matmul(a, b), [(1, 2, 3), (2, 3, 2)], order=2),
    GradRow("BatchMatMulV2/rank-mix", lambda a, b: tf.matmul(a, b), [(2, 3), (2, 3, 2)]),
    GradRow("BatchMatMulV2/adj_x", lambda a, b: tf.matmul(a, b, adjoint_a=True), [(2, 3, 2), (1, 3, 2)]),
    GradRow("BatchMatMulV2/adj_y", lambda a, b: tf.matmul(a, b, adjoint_b=True), [(2, 2, 3), (2, 2, 3)]),
    GradRow("BatchMatMulV2/adj_xy", lambda a, b: tf.matmul(a, b, adjoint_a=True, adjoint_b=True),
            [(2, 3, 2), (2, 2, 3)], order=2),
    GradRow("tensordot", lambda a, b: tf.tensordot(a, b, [[0, 2], [1, 0]]), [(2, 3, 2), (2, 2)]),
    # --- SumToShape called directly (its own gradient is BroadcastTo) ---
    GradRow("SumToShape", lambda g: bind(SumToShape, (g, tf.constant([1, 3]))) * 2.0, [(4, 2, 3)], order=2),
    # --- einsum ---
    GradRow("Einsum/matmul", lambda a, b: tf.einsum("ij,jk->ik", a, b), [(2, 3), (3, 2)], order=2),
    GradRow("Einsum/batch", lambda a, b: tf.einsum("bij,bjk->bik", a, b), [(2, 2, 3), (2, 3, 2)], order=2),
    GradRow("Einsum/transpose", lambda a: tf.einsum("ij->ji", a), [(2, 3)]),
    GradRow("Einsum/sum-away", lambda a: tf.einsum("ijk->j", a), [(2, 3, 2)], order=2),
    GradRow("Einsum/sum-away-2", lambda a, b: tf.einsum("ij,jk->k", a, b), [(2, 3), (3, 2)], order=2),
    GradRow("Einsum/outer", lambda a, b: tf.einsum("i,j->ij", a, b), [(2,), (3,)]),
    GradRow("Einsum/implicit", lambda a, b: tf.einsum("ij,j", a, b), [(2, 3), (3,)]),
    GradRow("Einsum/dot", lambda a, b: tf.einsum("ij,ij->", a, b), [(2, 3), (2, 3)], order=2),
    GradRow("Einsum/ellipsis", lambda a, b: tf.einsum("...ij,...jk->...ik", a, b), [(2, 2, 3), (3, 2)]),
    GradRow("Einsum/ellipsis-broadcast", lambda a, b: tf.einsum("...ij,...jk->...ik", a, b),
            [(2, 1, 2, 3), (3, 3, 2)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)


def test_maximum_tie_goes_to_first_input():
    """On equal inputs TensorFlow sends the whole gradient to x (x >= y), none to y."""
    x, y = tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        hi, lo = tf.maximum(x, y), tf.minimum(x, y)
    np.testing.assert_array_equal(tape.gradient(hi, x).numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(tape.gradient(hi, y).numpy(), [0.0, 1.0])
    np.testing.assert_array_equal(tape.gradient(lo, x).numpy(), [1.0, 1.0])


@pytest.mark.parametrize("fn", [tf.floor, tf.round, tf.math.ceil, lambda x: x // 2.0])
def test_rounding_ops_have_no_gradient(fn):
    x = tf.constant([1.3, 2.7])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    assert tape.gradient(y, x) is None
