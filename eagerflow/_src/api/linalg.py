"""`tf.linalg`: products, decompositions, solves, matrix functions, norms and linear operators."""
# Products and matrix parts.
from ..ops.linalg.einsum import einsum  # noqa: F401
from ..ops.linalg.matmul import matmul, tensordot  # noqa: F401
from ..ops.linalg.diagonals import diag, diag_part, set_diag  # noqa: F401
from ..ops.linalg.matrix_parts import band_part, eye, matvec, trace  # noqa: F401
from ..ops.linalg.matmul import cross
from ..ops.linalg.pinv_rank import matrix_rank, pinv
from ..ops.linalg.norms import normalize
from ..ops.linalg.diagonals import tensor_diag, tensor_diag_part  # noqa: F401
from ..ops.linalg.tridiagonal import tridiagonal_matmul, tridiagonal_solve  # noqa: F401

# Decompositions, determinants and solves.
from ..ops.linalg.decompositions import eigh, eigvalsh, qr, svd  # noqa: F401
from ..ops.linalg.solves import (adjoint, cholesky, cholesky_solve, det, inv, logdet, lstsq, matrix_transpose,  # noqa: F401
                          slogdet, solve, triangular_solve)
from ..ops.linalg.lu import lu, lu_matrix_inverse, lu_reconstruct, lu_solve  # noqa: F401
from ..ops.linalg.eig import eig, eigvals  # noqa: F401
from ..ops.linalg.eigh_tridiagonal import eigh_tridiagonal  # noqa: F401
from ..ops.linalg.banded_triangular_solve import banded_triangular_solve  # noqa: F401

# Matrix functions and norms.
from ..ops.linalg.matrix_functions import expm, logm, sqrtm  # noqa: F401
from ..ops.linalg.norms import global_norm, l2_normalize, norm  # noqa: F401

# Linear operators.
from ..ops.linalg.linear_operator import (LinearOperator, LinearOperatorAdjoint, LinearOperatorComposition,  # noqa: F401
                                   LinearOperatorFullMatrix, LinearOperatorInversion, LinearOperatorLowerTriangular)
from ..ops.linalg.linear_operator_diagonal import (LinearOperatorDiag, LinearOperatorIdentity,  # noqa: F401
                                            LinearOperatorScaledIdentity)

from . import linalg_experimental as experimental  # noqa: F401
