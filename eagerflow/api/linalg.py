"""`tf.linalg`."""
from ..ops.math import matmul, tensordot  # noqa: F401
