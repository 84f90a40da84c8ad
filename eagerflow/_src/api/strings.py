"""`tf.strings`: element-wise string ops on dense tensors (ops/strings.py), splitting and joining,
hash buckets (ops/string_hash.py) and `format` (ops/io.py)."""
from ..ops.strings import (as_string, join, length, lower, reduce_join, regex_full_match,  # noqa: F401
                           regex_replace, strip, substr, to_number, upper)
from ..ops.strings_split import split  # noqa: F401 - a RaggedTensor of pieces
from ..ops.strings_segment_join import unsorted_segment_join  # noqa: F401
from ..ops.string_hash import to_hash_bucket_fast, to_hash_bucket_strong  # noqa: F401
from ..ops.io import string_format as format  # noqa: F401,A001 - TensorFlow's name
