"""`tf.linalg`."""
from ..ops.einsum import einsum  # noqa: F401
from ..ops.matmul import matmul, tensordot  # noqa: F401
