"""`tf.linalg.experimental.conjugate_gradient`: solves A x = rhs for a self-adjoint positive
definite LinearOperator A by conjugate gradients, batched over rhs's leading axes.

TensorFlow's semantics, which callers depend on:
  - the operator must *say* it is self-adjoint and positive definite (its hints), else ValueError;
  - `tol` is relative: iteration stops once every batch member's residual norm is at most
    tol * ||rhs|| (all members step together until the last one converges), or after `max_iter`;
  - with an initial guess `x`, the first residual is rhs - A x (but the tolerance still scales with
    ||rhs||);
  - a `preconditioner` (a LinearOperator approximating A^-1) is applied with its matvec;
  - the result is the namedtuple CGState(i, x, r, p, gamma): iterations run, the solution, the
    residual, the last search direction and gamma = r . M r (||r||^2 without a preconditioner).
Built from ordinary ops with the steps in a tf.while_loop (hence its place in control_flow/), so it
runs eagerly and under tf.function.
"""
from __future__ import annotations

import collections

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor
from ..ops.array import basic as _array
from ..ops.math import elementwise as _math
from ..ops.math import reduce as _reduce
from ..ops.array.joining import concat
from ..ops.linalg.norms import norm
from ..ops.array.static_shapes import broadcast_dynamic_shape
from .while_loop import while_loop

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _dot(x, y):
    """conj(x) . y over the last axis (batched)."""
    return _reduce.reduce_sum(_math.conj(x) * y, axis=-1)


def _batch_shape(operator):
    batch = operator.batch_shape
    if batch.is_fully_defined():
        return _array.constant(batch.as_list(), dtype=_dt.int32)
    return _array.shape(operator.to_dense())[:-2]


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    """CGState(i, x, r, p, gamma) after conjugate-gradient steps on operator x = rhs (see the module
    docstring for the stopping rule)."""
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")
    rhs = convert_to_tensor(rhs, dtype=operator.dtype)
    batch = broadcast_dynamic_shape(_array.shape(rhs)[:-1], _batch_shape(operator))
    if preconditioner is not None:
        batch = broadcast_dynamic_shape(batch, _batch_shape(preconditioner))
    r0 = _array.broadcast_to(rhs, concat([batch, _array.shape(rhs)[-1:]], axis=0))
    tol = tol * norm(r0, axis=-1)
    if x is None:
        x = _array.zeros_like(r0)
    else:
        x = convert_to_tensor(x, dtype=rhs.dtype)
        r0 = rhs - operator.matvec(x)
    p0 = r0 if preconditioner is None else preconditioner.matvec(r0)

    def keep_going(i, state):
        return _math.logical_and(i < max_iter, _reduce.reduce_any(norm(state.r, axis=-1) > tol))

    def step(i, state):
        z = operator.matvec(state.p)
        alpha = state.gamma / _dot(state.p, z)
        x = state.x + alpha[..., None] * state.p
        r = state.r - alpha[..., None] * z
        q = r if preconditioner is None else preconditioner.matvec(r)
        gamma = _dot(r, q)
        p = q + (gamma / state.gamma)[..., None] * state.p
        return i + 1, CGState(i + 1, x, r, p, gamma)

    start = _array.constant(0, dtype=_dt.int32)
    _, state = while_loop(keep_going, step, [start, CGState(start, x, r0, p0, _dot(r0, p0))])
    return CGState(*state)
