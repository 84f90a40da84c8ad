"""Dot: a batched dot product over chosen axes, optionally of L2-normalised inputs (and its functional form)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.linalg.einsum import einsum
from ..base import Layer
from .base_merge import input_shapes


_LETTERS = "bcdefghijklmnopqrstuvwxyz"


def _l2_normalize(x, axis):
    """x / max(||x||, 1e-6), along `axis`, as Keras 3's Dot(normalize=True) scales its inputs."""
    square_sum = _reduce.reduce_sum(x * x, axis=axis, keepdims=True)
    return x * _math.rsqrt(_math.maximum(square_sum, _math.cast(1e-12, x.dtype)))


class Dot(Layer):
    """The dot product of two batched tensors over axes[0] of the first and axes[1] of the second; the
    output keeps the first's other axes then the second's (a (batch,) result becomes (batch, 1))."""

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError(f"Invalid type for argument `axes`: it should be a list or an int. Received: "
                                f"axes={axes}")
            if len(axes) != 2:
                raise ValueError(f"Invalid format for argument `axes`: it should contain two elements. Received: "
                                 f"axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError(f"Invalid format for argument `axes`: list elements should be integers. Received: "
                                 f"axes={axes}")
        self.axes = axes
        self.normalize = normalize

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: input_shape="
                             f"{input_shapes(inputs)}")
        x, y = inputs
        rx, ry = x.shape.rank, y.shape.rank
        axes = [self.axes, self.axes] if isinstance(self.axes, int) else list(self.axes)
        axes = [axes[0] % rx, axes[1] % ry]
        sx, sy = x.shape.as_list(), y.shape.as_list()
        if sx[axes[0]] is not None and sy[axes[1]] is not None and sx[axes[0]] != sy[axes[1]]:
            raise ValueError(f"Incompatible input shapes: axis values {sx[axes[0]]} (at axis {axes[0]}) != "
                             f"{sy[axes[1]]} (at axis {axes[1]}). Full input shapes: {tuple(sx)}, {tuple(sy)}")
        if self.normalize:
            x, y = _l2_normalize(x, axes[0]), _l2_normalize(y, axes[1])
        # one einsum: "a" is the batch, "z" the contracted axis, distinct letters for the rest
        letters = iter(_LETTERS)
        sub_x = ["a"] + [("z" if i == axes[0] else next(letters)) for i in range(1, rx)]
        sub_y = ["a"] + [("z" if i == axes[1] else next(letters)) for i in range(1, ry)]
        kept = [c for c in sub_x + sub_y[1:] if c != "z"]
        out = einsum(f"{''.join(sub_x)},{''.join(sub_y)}->{''.join(kept)}", x, y)
        return _array.expand_dims(out, 1) if len(kept) == 1 else out

    def get_config(self):
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


def dot(inputs, axes=-1, normalize=False, **kwargs):
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)
