"""`tf.ragged`: RaggedTensor factories and partitions (composite/ragged_tensor.py, ops/ragged/factories.py).

Importing it also makes tf.reduce_*, tf.concat and tf.stack accept RaggedTensors: ops/ragged/reduce.py
and ops/ragged/join.py register themselves with those ops."""
from ..composite.ragged_tensor import RaggedTensorSpec  # noqa: F401
from ..ops.ragged.factories import (constant, map_flat_values, row_splits_to_segment_ids,  # noqa: F401
                          segment_ids_to_row_splits)
from ..ops.ragged.factories import ragged_range as range  # noqa: F401,A001 - TensorFlow's name
from ..ops.ragged.convert import boolean_mask  # noqa: F401
from ..ops.ragged import reduce as ragged_reduce, join as ragged_join  # noqa: F401 - see above
