"""eagerflow ops with no TensorFlow op of their own, written as the TensorFlow ops that compute the
same values (as TensorFlow's own Python functions build them). eagerflow's loader reads these nodes
back as the ops they are, so a loaded function computes the same values through them."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .function_def import Value
from .generic_op import emit
from .rewrites import const

JPEG_MAGIC = b"\xff\xd8\xff"  # a JPEG file's first three bytes (decode_image's format test)


def export_is_jpeg(builder, op):
    """IsJpeg(contents) = Equal(Substr(contents, 0, 3), "\\xff\\xd8\\xff"): tf.io.is_jpeg's ops."""
    head = Value(_dt.string)
    emit(builder, op, "Substr", [op.inputs[0], const(builder, f"{op.name}/pos", np.int32(0)),
                                 const(builder, f"{op.name}/len", np.int32(len(JPEG_MAGIC)))], {}, [head],
         base=f"{op.name}/head")
    magic = const(builder, f"{op.name}/magic", np.array(JPEG_MAGIC, object), _dt.string)
    emit(builder, op, "Equal", [head, magic], {}, list(op.outputs))


def export_unicode_char_split(builder, op):
    """UnicodeCharSplit(strings) -> (characters, row_splits): UnicodeDecode's code points and row
    splits, each code point encoded back to UTF-8 alone (UnicodeEncode with splits 0, 1, ..., n)."""
    characters, splits = op.outputs
    codes = Value(_dt.int32)
    emit(builder, op, "UnicodeDecode", [op.inputs[0]],
         {"input_encoding": "UTF-8", "errors": "replace", "replacement_char": 0xFFFD, "Tsplits": _dt.int64},
         [splits, codes], base=f"{op.name}/decode")
    count, bound, each = Value(_dt.int64), Value(_dt.int64), Value(_dt.int64)
    emit(builder, op, "Size", [codes], {"out_type": _dt.int64}, [count], base=f"{op.name}/count")
    one = const(builder, f"{op.name}/one", np.int64(1))
    emit(builder, op, "AddV2", [count, one], {}, [bound], base=f"{op.name}/bound")
    emit(builder, op, "Range", [const(builder, f"{op.name}/start", np.int64(0)), bound, one], {}, [each],
         base=f"{op.name}/each")
    emit(builder, op, "UnicodeEncode", [codes, each],
         {"output_encoding": "UTF-8", "errors": "replace", "replacement_char": 0xFFFD}, [characters])
