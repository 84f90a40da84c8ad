"""Minimum: the elementwise minimum of a list of tensors (and its functional form)."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from .base_merge import Elementwise


class Minimum(Elementwise):
    _op = staticmethod(_math.minimum)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)
