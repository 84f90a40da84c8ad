"""DecodeCompressed: `tf.io.decode_compressed`, each string of a tensor inflated (ZLIB or GZIP; "" returns it
as it is), with TensorFlow's DataLossError for a damaged stream."""
from __future__ import annotations

import gzip
import re
import zlib

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import DataLossError, InvalidArgumentError
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop


def _inflate(data: bytes, kind: str) -> bytes:
    try:
        return gzip.decompress(data) if kind == "GZIP" else zlib.decompress(data)
    except (zlib.error, OSError, EOFError) as err:
        found = re.match(r"Error (-?\d+) while decompressing data: (.*)", str(err))
        text = f"with error {found.group(1)}: {found.group(2)}" if found else f": {err}"
        raise DataLossError(None, None, f"inflate() failed {text}") from None


def _kernel(data, compression_type=""):
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise InvalidArgumentError(None, None, "Only ZLIB, ZSTD, GZIP or NONE are supported compressions")
    if compression_type == "":
        return data
    flat = [_inflate(bytes(v), compression_type) for v in np.ravel(data)]
    return np.array(flat + [None], dtype=object)[:-1].reshape(np.shape(data))


def _infer(inputs, attrs):
    R.check_input_dtype("DecodeCompressed", inputs, 0, _dt.string)
    return [Spec(inputs[0].shape, _dt.string)]


DecodeCompressed = defop("DecodeCompressed", inputs=("bytes",), kernel=_kernel, infer=_infer, grad=NO_GRADIENT,
                         doc="Each string inflated from ZLIB or GZIP (or kept, for no compression).")


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 - TensorFlow's argument name
    """`tf.io.decode_compressed`."""
    return bind(DecodeCompressed, [as_tensor(bytes, _dt.string)], {"compression_type": str(compression_type)},
                name=name)
