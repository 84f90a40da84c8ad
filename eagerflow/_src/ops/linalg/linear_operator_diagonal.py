"""The diagonal linear operators: LinearOperatorDiag, LinearOperatorIdentity,
LinearOperatorScaledIdentity (base class and the others in ops/linalg/linear_operator.py).

Their structure makes every method elementwise: matmul scales rows, solve divides, the determinant
is a product, the adjoint and the inverse are diagonal again (so `adjoint()`/`inverse()` return the
same kind of operator, as TensorFlow's do). A real diagonal operator is self-adjoint, and TensorFlow
marks it so.
"""
from __future__ import annotations

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .linear_operator import LinearOperator, _FLOAT_COMPLEX, _dtype_text
from ..operands import as_tensor
from ..array import basic as _array
from . import diagonals as _diagonals
from . import solves as _linalg
from ..math import elementwise as _math
from ..math import reduce as _reduce


def is_diagonal(operator) -> bool:
    return isinstance(operator, (LinearOperatorDiag, LinearOperatorIdentity, LinearOperatorScaledIdentity))


def _self_adjoint_if_real(dtype, is_self_adjoint):
    return True if (is_self_adjoint is None and not dtype.is_complex) else is_self_adjoint


class _Diagonal(LinearOperator):
    """Shared behaviour: a subclass gives `_diagonal_values()` (broadcastable to [..., n])."""

    def _to_dense(self):
        return _diagonals.diag(self.diag_part())

    def _matmul(self, x, adjoint, adjoint_arg):
        x = _linalg.adjoint(x) if adjoint_arg else x
        d = self._diagonal_values()
        d = _math.conj(d) if (adjoint and d.dtype.is_complex) else d
        return _array.expand_dims(d, -1) * x

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = _linalg.adjoint(rhs) if adjoint_arg else rhs
        d = self._diagonal_values()
        d = _math.conj(d) if (adjoint and d.dtype.is_complex) else d
        return rhs / _array.expand_dims(d, -1)

    def _determinant(self):
        return _reduce.reduce_prod(self.diag_part(), axis=-1)

    def _log_abs_determinant(self):
        d = self.diag_part()
        magnitude = _math.complex_abs(d) if d.dtype.is_complex else _math.abs(d)
        return _reduce.reduce_sum(_math.log(magnitude), axis=-1)

    def __matmul__(self, other):
        if is_diagonal(other):  # diagonal times diagonal: a diagonal (TensorFlow's Diag)
            return LinearOperatorDiag(self.diag_part() * other.diag_part())
        return super().__matmul__(other)


class LinearOperatorDiag(_Diagonal):
    """diag(d) for d of shape [..., n]."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name="LinearOperatorDiag"):
        self._diag = as_tensor(diag)
        if self._diag.dtype not in _FLOAT_COMPLEX:
            raise TypeError(f"Argument `diag` must have dtype in [tf.float16, tf.float32, tf.float64, tf.complex64, "
                            f"tf.complex128]. Received: {_dtype_text(self._diag.dtype)}.")
        super().__init__(self._diag.dtype, is_non_singular, _self_adjoint_if_real(self._diag.dtype, is_self_adjoint),
                         is_positive_definite, is_square, name)

    @property
    def diag(self):
        return self._diag

    def _shape(self):
        s = self._diag.shape
        return s.concatenate([s[-1]])

    def _diagonal_values(self):
        return self._diag

    def diag_part(self, name="diag_part"):
        return self._diag

    def adjoint(self, name="adjoint"):
        return self if not self.dtype.is_complex else LinearOperatorDiag(_math.conj(self._diag))

    H = property(adjoint)

    def inverse(self, name="inverse"):
        return LinearOperatorDiag(_array.ones_like(self._diag) / self._diag)


class LinearOperatorIdentity(_Diagonal):
    """The n x n identity (stacked to `batch_shape`)."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorIdentity"):
        self._num_rows = int(num_rows)
        self._batch = [] if batch_shape is None else [int(d) for d in batch_shape]
        super().__init__(_dt.as_dtype(dtype or _dt.float32), is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)

    def _shape(self):
        return TensorShape(self._batch + [self._num_rows, self._num_rows])

    def _diagonal_values(self):
        return _array.ones(self._batch + [self._num_rows], dtype=self.dtype)

    def diag_part(self, name="diag_part"):
        return self._diagonal_values()

    def _matmul(self, x, adjoint, adjoint_arg):
        x = _linalg.adjoint(x) if adjoint_arg else x
        if not self._batch:
            return x
        return _array.broadcast_to(x, self._batch + list(x.shape[-2:])) if x.shape.rank == 2 else x

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def adjoint(self, name="adjoint"):
        return self

    H = property(adjoint)

    def inverse(self, name="inverse"):
        return self


class LinearOperatorScaledIdentity(_Diagonal):
    """multiplier * I (n x n); the multiplier's shape is the batch shape."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorScaledIdentity"):
        self._num_rows = int(num_rows)
        self._multiplier = as_tensor(multiplier)
        super().__init__(self._multiplier.dtype, is_non_singular,
                         _self_adjoint_if_real(self._multiplier.dtype, is_self_adjoint), is_positive_definite,
                         is_square, name)

    @property
    def multiplier(self):
        return self._multiplier

    def _shape(self):
        return self._multiplier.shape.concatenate([self._num_rows, self._num_rows])

    def _diagonal_values(self):
        return _array.expand_dims(self._multiplier, -1)  # broadcasts along the n entries

    def diag_part(self, name="diag_part"):
        batch = list(self._multiplier.shape)
        return _array.broadcast_to(self._diagonal_values(), batch + [self._num_rows])

    def adjoint(self, name="adjoint"):
        if not self.dtype.is_complex:
            return self
        return LinearOperatorScaledIdentity(self._num_rows, _math.conj(self._multiplier))

    H = property(adjoint)

    def inverse(self, name="inverse"):
        return LinearOperatorScaledIdentity(self._num_rows, _array.ones_like(self._multiplier) / self._multiplier)


