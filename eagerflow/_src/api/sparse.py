"""`tf.sparse`: SparseTensor and the ops on it (composite/sparse_tensor.py, ops/sparse_*.py)."""
from ..composite.sparse_tensor import SparseTensor, SparseTensorSpec  # noqa: F401
from ..ops.sparse.conversion import from_dense, reorder, retain, to_dense  # noqa: F401
from ..ops.sparse.arithmetic import add, map_values, maximum, minimum, softmax, sparse_dense_matmul  # noqa: F401
from ..ops.sparse.arithmetic import sparse_dense_matmul as matmul  # noqa: F401 - TensorFlow's alias
from ..ops.sparse.reduce import (reduce_max, reduce_sum, segment_mean, segment_sqrt_n,  # noqa: F401
                                 segment_sum)
from ..ops.sparse.shape import (expand_dims, eye, fill_empty_rows, reshape, split, to_indicator,  # noqa: F401
                                transpose)
from ..ops.sparse.shape import sparse_concat as concat  # noqa: F401
from ..ops.sparse.shape import sparse_slice as slice  # noqa: F401,A001 - TensorFlow's name
from ..ops.sparse.mask import mask  # noqa: F401 - of IndexedSlices, as TensorFlow (ops/sparse/mask.py)
