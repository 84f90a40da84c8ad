"""Values of dtype `variant`: opaque Python payloads carried by tensors (a loop's history, a
TensorArray's list). They look like 0-d arrays to the machinery (`dtype`, `shape`, `ndim`), and
their `dtype` key maps to `tf.variant` in core/dtypes.py."""
from __future__ import annotations

import numpy as np

from . import dtypes as _dt


class VariantValue:
    __slots__ = ("payload",)
    dtype = _dt.VARIANT_KEY
    shape = ()
    ndim = 0
    size = 1

    def __init__(self, payload):
        self.payload = payload

    # A variant that flows as a gradient may be "zero" (nothing reached it): `zeros_like` gives
    # VariantValue(None), and adding a zero variant to another gives the other. Subclasses with
    # a real zero (a list of zeros) override both.
    def __array_function__(self, func, types, args, kwargs):
        if func is np.zeros_like:
            return VariantValue(None)
        return NotImplemented

    def __add__(self, other):
        if self.payload is None:
            return other
        if getattr(other, "payload", None) is None:
            return self
        raise TypeError(f"Cannot add two {type(self.payload).__name__} variants")

    __radd__ = __add__  # 0 + variant: np.zeros_like of a column of variants is a column of plain zeros

    def __repr__(self):
        return f"<variant {type(self.payload).__name__}>"
