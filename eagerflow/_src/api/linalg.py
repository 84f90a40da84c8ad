"""`tf.linalg`."""
from ..ops.einsum import einsum  # noqa: F401
from ..ops.matmul import matmul, tensordot  # noqa: F401

# --- issue 9 point 5: the everyday tf.linalg set (ops/linalg.py, ops/decompositions.py, ops/matrix_parts.py, ops/norms.py) ---
from ..ops.decompositions import eigh, eigvalsh, qr, svd  # noqa: F401,E402
from ..ops.linalg import (adjoint, cholesky, cholesky_solve, det, inv, logdet, lstsq, matrix_transpose,  # noqa: F401,E402
                          slogdet, solve, triangular_solve)
from ..ops.diagonals import diag, diag_part, set_diag  # noqa: F401,E402
from ..ops.matrix_parts import band_part, eye, matvec, trace  # noqa: F401,E402
from ..ops.norms import global_norm, l2_normalize, norm  # noqa: F401,E402
from ..ops.linalg_extra import cross, matrix_rank, normalize, pinv, tensor_diag, tensor_diag_part  # noqa: F401,E402
# --- end everyday tf.linalg ---
from ..ops.tridiagonal import tridiagonal_matmul, tridiagonal_solve  # noqa: F401,E402
from ..ops.lu import lu, lu_matrix_inverse, lu_reconstruct, lu_solve  # noqa: F401,E402
from ..ops.eig import eig, eigvals  # noqa: F401,E402
from ..ops.linalg_matrix_functions import expm, logm, sqrtm  # noqa: F401,E402
from ..ops.banded_triangular_solve import banded_triangular_solve  # noqa: F401,E402
from ..ops.eigh_tridiagonal import eigh_tridiagonal  # noqa: F401,E402
from ..ops.linear_operator import (LinearOperator, LinearOperatorAdjoint, LinearOperatorComposition,  # noqa: F401,E402
                                   LinearOperatorFullMatrix, LinearOperatorInversion, LinearOperatorLowerTriangular)
from ..ops.linear_operator_diagonal import (LinearOperatorDiag, LinearOperatorIdentity,  # noqa: F401,E402
                                            LinearOperatorScaledIdentity)
from . import linalg_experimental as experimental  # noqa: F401,E402  (tf.linalg.experimental)
