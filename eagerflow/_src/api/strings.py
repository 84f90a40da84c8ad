"""`tf.strings`: element-wise string ops on dense tensors (ops/strings/elementwise.py, regex.py, join.py,
number_text.py), splitting and joining, hash buckets (ops/strings/hashing.py) and `format` (ops/io/printing.py)."""
from ..ops.strings.elementwise import length, lower, strip, substr, upper  # noqa: F401
from ..ops.strings.regex import regex_full_match, regex_replace  # noqa: F401
from ..ops.strings.join import join, reduce_join  # noqa: F401
from ..ops.strings.number_text import as_string, to_number  # noqa: F401
from ..ops.strings.split import split  # noqa: F401 - a RaggedTensor of pieces
from ..ops.strings.segment_join import unsorted_segment_join  # noqa: F401
from ..ops.strings.ngrams import ngrams  # noqa: F401
from ..ops.strings.unicode import (unicode_decode, unicode_decode_with_offsets, unicode_encode,  # noqa: F401
                                   unicode_split)
from ..ops.strings.hashing import to_hash_bucket_fast, to_hash_bucket_strong  # noqa: F401
from ..ops.strings.bytes_split import bytes_split  # noqa: F401
from ..ops.strings.script import unicode_script  # noqa: F401
from ..ops.strings.transcode import unicode_transcode  # noqa: F401
from ..ops.io.printing import string_format as format  # noqa: F401,A001 - TensorFlow's name
