"""Values of dtype `variant`: opaque Python payloads carried by tensors (a loop's history, a
TensorArray's list). They look like 0-d arrays to the machinery (`dtype`, `shape`, `ndim`), and
their `dtype` key maps to `tf.variant` in core/dtypes.py."""
from __future__ import annotations

from . import dtypes as _dt


class VariantValue:
    __slots__ = ("payload",)
    dtype = _dt.VARIANT_KEY
    shape = ()
    ndim = 0
    size = 1

    def __init__(self, payload):
        self.payload = payload

    def __repr__(self):
        return f"<variant {type(self.payload).__name__}>"
