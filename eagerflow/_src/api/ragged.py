"""`tf.ragged`: RaggedTensor factories and partitions (composite/ragged_tensor.py, ops/ragged/factories.py)."""
from ..composite.ragged_tensor import RaggedTensorSpec  # noqa: F401
from ..ops.ragged.factories import (constant, map_flat_values, row_splits_to_segment_ids,  # noqa: F401
                          segment_ids_to_row_splits)
from ..ops.ragged.factories import ragged_range as range  # noqa: F401,A001 - TensorFlow's name
from ..ops.ragged.convert import boolean_mask  # noqa: F401,E402
from ..ops.ragged import reduce as ragged_reduce  # noqa: F401,E402 - tf.reduce_* of a RaggedTensor (registers itself)
from ..ops.ragged import join as ragged_join  # noqa: F401,E402 - tf.concat/tf.stack of RaggedTensors (registers itself)
