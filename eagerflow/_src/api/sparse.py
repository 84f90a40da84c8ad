"""`tf.sparse`: SparseTensor and the ops on it (composite/sparse_tensor.py, ops/sparse_*.py)."""
from ..composite.sparse_tensor import SparseTensor, SparseTensorSpec  # noqa: F401
from ..ops.sparse_core import from_dense, reorder, retain, to_dense  # noqa: F401
