"""`tf.linalg`: products, decompositions, solves, matrix functions, norms and linear operators."""
# Products and matrix parts.
from ..ops.einsum import einsum  # noqa: F401
from ..ops.matmul import matmul, tensordot  # noqa: F401
from ..ops.diagonals import diag, diag_part, set_diag  # noqa: F401
from ..ops.matrix_parts import band_part, eye, matvec, trace  # noqa: F401
from ..ops.linalg_extra import cross, matrix_rank, normalize, pinv, tensor_diag, tensor_diag_part  # noqa: F401
from ..ops.tridiagonal import tridiagonal_matmul, tridiagonal_solve  # noqa: F401

# Decompositions, determinants and solves.
from ..ops.decompositions import eigh, eigvalsh, qr, svd  # noqa: F401
from ..ops.linalg import (adjoint, cholesky, cholesky_solve, det, inv, logdet, lstsq, matrix_transpose,  # noqa: F401
                          slogdet, solve, triangular_solve)
from ..ops.lu import lu, lu_matrix_inverse, lu_reconstruct, lu_solve  # noqa: F401
from ..ops.eig import eig, eigvals  # noqa: F401
from ..ops.eigh_tridiagonal import eigh_tridiagonal  # noqa: F401
from ..ops.banded_triangular_solve import banded_triangular_solve  # noqa: F401

# Matrix functions and norms.
from ..ops.linalg_matrix_functions import expm, logm, sqrtm  # noqa: F401
from ..ops.norms import global_norm, l2_normalize, norm  # noqa: F401

# Linear operators.
from ..ops.linear_operator import (LinearOperator, LinearOperatorAdjoint, LinearOperatorComposition,  # noqa: F401
                                   LinearOperatorFullMatrix, LinearOperatorInversion, LinearOperatorLowerTriangular)
from ..ops.linear_operator_diagonal import (LinearOperatorDiag, LinearOperatorIdentity,  # noqa: F401
                                            LinearOperatorScaledIdentity)

from . import linalg_experimental as experimental  # noqa: F401
