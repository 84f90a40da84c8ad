"""Maximum: the elementwise maximum of a list of tensors (and its functional form)."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from .base_merge import Elementwise


class Maximum(Elementwise):
    _op = staticmethod(_math.maximum)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)
