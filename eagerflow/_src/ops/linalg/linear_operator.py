"""`tf.linalg.LinearOperator` and the operators defined by a matrix or by other operators:
LinearOperatorFullMatrix, LinearOperatorLowerTriangular, LinearOperatorComposition,
LinearOperatorInversion, LinearOperatorAdjoint. The diagonal family (Diag, Identity, ScaledIdentity)
is in ops/linalg/linear_operator_diagonal.py.

An operator is a Python object over ordinary ops: each method builds what it computes from matmul,
solves, diag_part and friends, so it runs eagerly, traces inside tf.function and differentiates like
the ops it uses. The base class computes everything from `to_dense()`; a subclass overrides what its
structure makes cheaper (a triangular solve, a product of determinants). Error classes and words are
TensorFlow 2.21's.
"""
from __future__ import annotations

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..array import basic as _array
from . import diagonals as _diagonals
from . import solves as _linalg
from ..math import elementwise as _math
from . import matmul as _matmul
from . import matrix_parts as _parts
from ..math import reduce as _reduce
from .. import shape_rules as _rules

_FLOAT_COMPLEX = (_dt.float16, _dt.float32, _dt.float64, _dt.complex64, _dt.complex128)


def _dtype_text(dtype):
    return f"<dtype: '{dtype.name}'>"  # TensorFlow's repr of a DType


class LinearOperator:
    """A (batch of) M x N linear map(s); see the module docstring."""

    def __init__(self, dtype, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._dtype = _dt.as_dtype(dtype)
        if is_positive_definite and is_non_singular is None:  # TensorFlow infers it, as positive definite
            is_non_singular = True                            # implies non-singular
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_hint = is_square
        self._name = name or type(self).__name__

    # --- what every operator tells about itself ---
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        m, n = self.range_dimension, self.domain_dimension
        if m is not None and n is not None:
            return m == n
        return self._is_square_hint

    @property
    def shape(self) -> TensorShape:
        return self._shape()

    @property
    def batch_shape(self) -> TensorShape:
        return self.shape[:-2]

    @property
    def domain_dimension(self):
        return self.shape[-1]

    @property
    def range_dimension(self):
        return self.shape[-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    def shape_tensor(self, name="shape_tensor"):
        return _array.shape(self.to_dense())

    # --- the methods: public checks, then the subclass's _method ---
    def to_dense(self, name="to_dense"):
        return self._to_dense()

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return left.__matmul__(right)
        x = self._checked_argument(x)
        rows = x.shape[-1] if adjoint_arg else x.shape[-2]
        expected = self.range_dimension if adjoint else self.domain_dimension
        if rows is not None and expected is not None and rows != expected:
            raise ValueError(f"Dimensions {expected} and {rows} are not compatible")
        return self._matmul(x, adjoint, adjoint_arg)

    def matvec(self, x, adjoint=False, name="matvec"):
        x = self._checked_argument(x)
        return self.matmul(_array.expand_dims(x, -1), adjoint=adjoint)[..., 0]

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be square.")
        return self._solve(self._checked_argument(rhs), adjoint, adjoint_arg)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        rhs = self._checked_argument(rhs)
        return self.solve(_array.expand_dims(rhs, -1), adjoint=adjoint)[..., 0]

    def determinant(self, name="det"):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be square.")
        return self._determinant()

    def log_abs_determinant(self, name="log_abs_det"):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be square.")
        return self._log_abs_determinant()

    def trace(self, name="trace"):
        return _reduce.reduce_sum(self.diag_part(), axis=-1)

    def diag_part(self, name="diag_part"):
        return _diagonals.diag_part(self.to_dense())

    def adjoint(self, name="adjoint"):
        if self.is_self_adjoint is True:
            return self
        return LinearOperatorAdjoint(self)

    H = property(adjoint)

    def inverse(self, name="inverse"):
        return LinearOperatorInversion(self)

    def __matmul__(self, other):
        return LinearOperatorComposition([self, other])

    # --- what a subclass may make cheaper ---
    def _shape(self):
        return self.to_dense().shape

    def _to_dense(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement _to_dense")

    def _matmul(self, x, adjoint, adjoint_arg):
        return _matmul.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = _linalg.adjoint(rhs) if adjoint_arg else rhs
        return _linalg.solve(self.to_dense(), rhs, adjoint=adjoint)

    def _determinant(self):
        return _linalg.det(self.to_dense())

    def _log_abs_determinant(self):
        return _linalg.slogdet(self.to_dense())[1]

    def _checked_argument(self, x):
        x = as_tensor(x, dtype=None)
        if x.dtype is not self.dtype:
            raise TypeError(f"Expected argument to have dtype {_dtype_text(self.dtype)}.  Found: "
                            f"{_dtype_text(x.dtype)} in tensor {x}")
        return x


def _checked_matrix(matrix, arg="matrix"):
    t = as_tensor(matrix)
    if t.dtype not in _FLOAT_COMPLEX:
        raise TypeError(f"Argument `{arg}` must have dtype in [tf.float16, tf.float32, tf.float64, tf.complex64, "
                        f"tf.complex128]. Received: {_dtype_text(t.dtype)}.")
    if t.shape.rank is not None and t.shape.rank < 2:
        raise ValueError(f"Argument `{arg}` must have at least 2 dimensions. Received: {matrix}.")
    return t


class LinearOperatorFullMatrix(LinearOperator):
    """The operator a (batch of) dense matrix/matrices define."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        self._matrix = _checked_matrix(matrix)
        super().__init__(self._matrix.dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name)

    def _shape(self):
        return self._matrix.shape

    def _to_dense(self):
        return self._matrix


class LinearOperatorLowerTriangular(LinearOperator):
    """A lower-triangular operator; the part of `tril` above the diagonal is ignored."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorLowerTriangular"):
        self._tril = _parts.band_part(_checked_matrix(tril, "tril"), -1, 0)
        super().__init__(self._tril.dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square, name)

    def _shape(self):
        return self._tril.shape

    def _to_dense(self):
        return self._tril

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = _linalg.adjoint(rhs) if adjoint_arg else rhs
        return _linalg.triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

    def _determinant(self):
        return _reduce.reduce_prod(_diagonals.diag_part(self._tril), axis=-1)

    def _log_abs_determinant(self):
        return _reduce.reduce_sum(_math.log(_complex_abs(_diagonals.diag_part(self._tril))), axis=-1)

    def __matmul__(self, other):
        from .linear_operator_diagonal import is_diagonal
        if is_diagonal(other):  # a lower triangle times a diagonal stays lower triangular (as in TF)
            return LinearOperatorLowerTriangular(_matmul.matmul(self._tril, other.to_dense()))
        return super().__matmul__(other)


class LinearOperatorComposition(LinearOperator):
    """The product operators[0] @ operators[1] @ ... (applied right to left)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        dtype = operators[0].dtype
        if any(o.dtype is not dtype for o in operators):
            found = "   ".join(str((o.name, o.dtype)) for o in operators)
            raise TypeError(f"Expected all operators to have the same dtype.  Found {found}")
        self._operators = operators
        if is_non_singular is None and all(o.is_non_singular for o in operators):
            is_non_singular = True
        super().__init__(dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name or "_o_".join(o.name for o in operators))

    @property
    def operators(self):
        return list(self._operators)

    def _shape(self):
        first, last = self._operators[0].shape, self._operators[-1].shape
        batch = first[:-2]
        for o in self._operators[1:]:
            batch = _rules.broadcast_shape(batch, o.shape[:-2])
        return batch.concatenate([first[-2], last[-1]])

    def _to_dense(self):
        out = self._operators[-1].to_dense()
        for o in reversed(self._operators[:-1]):
            out = o.matmul(out)
        return out

    def _matmul(self, x, adjoint, adjoint_arg):
        x = _linalg.adjoint(x) if adjoint_arg else x
        order = self._operators if adjoint else list(reversed(self._operators))
        for o in order:
            x = o.matmul(x, adjoint=adjoint)
        return x

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = _linalg.adjoint(rhs) if adjoint_arg else rhs
        order = list(reversed(self._operators)) if adjoint else self._operators
        for o in order:
            rhs = o.solve(rhs, adjoint=adjoint)
        return rhs

    def _determinant(self):
        out = self._operators[0].determinant()
        for o in self._operators[1:]:
            out = out * o.determinant()
        return out

    def _log_abs_determinant(self):
        out = self._operators[0].log_abs_determinant()
        for o in self._operators[1:]:
            out = out + o.log_abs_determinant()
        return out


def _hint_check(flag, operator_flag, arg):
    if operator_flag is False:
        raise ValueError(f"Argument `{arg}` or argument `operator` must have supplied hint `{arg}` equal to `True` "
                         f"or `None`. Found `operator.{arg}`: {operator_flag}, `{arg}`: {flag}.")


class LinearOperatorInversion(LinearOperator):
    """operator^-1: its matmul is the operator's solve and the reverse."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        _hint_check(is_non_singular, operator.is_non_singular, "is_non_singular")
        _hint_check(is_square, operator.is_square, "is_square")
        self._operator = operator
        super().__init__(operator.dtype, operator.is_non_singular if is_non_singular is None else is_non_singular,
                         operator.is_self_adjoint if is_self_adjoint is None else is_self_adjoint,
                         operator.is_positive_definite if is_positive_definite is None else is_positive_definite,
                         True if is_square is None else is_square, name or operator.name + "_inv")

    @property
    def operator(self):
        return self._operator

    def _shape(self):
        return self._operator.shape

    def _to_dense(self):
        return _linalg.inv(self._operator.to_dense())

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        det = self._operator.determinant()
        return _array.ones_like(det) / det

    def _log_abs_determinant(self):
        return -self._operator.log_abs_determinant()

    def inverse(self, name="inverse"):
        return self._operator


class LinearOperatorAdjoint(LinearOperator):
    """operator^H: its matmul is the operator's with `adjoint` flipped."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operator = operator
        super().__init__(operator.dtype, operator.is_non_singular if is_non_singular is None else is_non_singular,
                         operator.is_self_adjoint if is_self_adjoint is None else is_self_adjoint,
                         operator.is_positive_definite if is_positive_definite is None else is_positive_definite,
                         is_square, name or operator.name + "_adjoint")

    @property
    def operator(self):
        return self._operator

    def _shape(self):
        s = self._operator.shape
        return s[:-2].concatenate([s[-1], s[-2]])

    def _to_dense(self):
        return _linalg.adjoint(self._operator.to_dense())

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        det = self._operator.determinant()
        return _math.conj(det) if det.dtype.is_complex else det

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def adjoint(self, name="adjoint"):
        return self._operator

    H = property(adjoint)


def _complex_abs(x):
    return _math.abs(x) if not x.dtype.is_complex else _math.complex_abs(x)


