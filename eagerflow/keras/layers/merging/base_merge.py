"""Merging layers, called on a list of tensors: Concatenate, Add, Subtract, Multiply, Average, Maximum,
Minimum (elementwise, broadcasting as Keras 3 does) and Dot (a batched dot product over chosen axes)."""
from __future__ import annotations

from ...._src.ops import array as _array
from ...._src.ops import math as _math
from ...._src.ops import reduce as _reduce
from ...._src.ops.joining import concat
from ...._src.ops.einsum import einsum
from ...._src.ops.math import add_n
from ..base import Layer


def _check_masks(inputs, mask):
    if not isinstance(mask, (tuple, list)):
        raise ValueError(f"`mask` should be a list. Received: mask={mask}")
    if not isinstance(inputs, (tuple, list)):
        raise ValueError(f"`inputs` should be a list. Received: inputs={inputs}")
    if len(mask) != len(inputs):
        raise ValueError(f"The lists `inputs` and `mask` should have the same length. Received: inputs={inputs} of "
                         f"length {len(inputs)}, and mask={mask} of length {len(mask)}")


def _check_list(layer, inputs):
    if not isinstance(inputs, (list, tuple)) or len(inputs) < 1:
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} "
                         f"(not a list of tensors)")


class Concatenate(Layer):
    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        """Keras 3: each input's mask (all-true where it has none) broadcast over its features, joined
        along the axis, then any() over the last axis."""
        if mask is None:
            return None
        _check_masks(inputs, mask)
        if all(m is None for m in mask):
            return None
        parts = []
        for x, m in zip(inputs, mask):
            if m is None:
                parts.append(_math.not_equal(_array.ones_like(x), _array.zeros_like(x)))
            elif m.shape.rank < x.shape.rank:
                parts.append(_array.broadcast_to(_array.expand_dims(m, -1), _array.shape(x)))
            else:
                parts.append(m)
        return _reduce.reduce_any(concat(parts, self.axis), axis=-1)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        _check_list(self, inputs)
        return concat(list(inputs), self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Add(Layer):
    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return _or_masks(inputs, mask)

    def call(self, inputs):
        _check_list(self, inputs)
        return add_n(list(inputs)) if len(inputs) > 1 else inputs[0]


def _or_masks(inputs, mask):
    """Keras 3's merge rule: the OR of the inputs' masks; none if any input has none."""
    if mask is None:
        return None
    _check_masks(inputs, mask)
    if any(m is None for m in mask):
        return None
    out = mask[0]
    for m in mask[1:]:
        out = _math.logical_or(out, m)
    return out


def _shapes(inputs):
    """Static shapes as Keras quotes them in messages: a tuple, or a list of tuples."""
    if isinstance(inputs, (list, tuple)):
        return [tuple(x.shape.as_list()) for x in inputs]
    return tuple(inputs.shape.as_list())


def _elementwise_shape(shape1, shape2):
    """Keras 3's static check: trailing axes must match, a 1 or None matching anything."""
    if len(shape1) < len(shape2):
        return _elementwise_shape(shape2, shape1)
    if not shape2:
        return shape1
    out = list(shape1[:-len(shape2)])
    for i, j in zip(shape1[-len(shape2):], shape2):
        if i is None or j is None:
            out.append(None)
        elif i == 1 or j == 1:
            out.append(j if i == 1 else i)
        elif i != j:
            raise ValueError(f"Inputs have incompatible shapes. Received shapes {shape1} and {shape2}")
        else:
            out.append(i)
    return tuple(out)


def _aligned(inputs):
    """The inputs checked as Keras checks them, the lower-rank ones given size-1 axes after the batch axis
    until every rank is equal (Keras' rule, which is not NumPy's right-aligned broadcasting)."""
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: input_shape="
                         f"{_shapes(inputs)} (not a list of shapes)")
    shapes = [tuple(x.shape.as_list()) for x in inputs]
    out_shape = shapes[0][1:]
    for shape in shapes[1:]:
        out_shape = _elementwise_shape(out_shape, shape[1:])  # Keras compares all but the batch axis
    top = max(len(shape) for shape in shapes)
    aligned = []
    for x, shape in zip(inputs, shapes):
        for _ in range(top - len(shape)):
            x = _array.expand_dims(x, 1)
        aligned.append(x)
    return aligned


def _feature_masks(inputs, mask):
    """Each input's (batch, steps) mask broadcast over its features, or None for an input without one."""
    if mask is None:
        return [None] * len(inputs)
    return [None if m is None else _array.broadcast_to(_array.expand_dims(m, -1), _array.shape(x))
            for x, m in zip(inputs, mask)]


class _Elementwise(Layer):
    """A merge of two or more inputs by one elementwise binary op, applied left to right; masked steps of
    one input take the other's value (Keras 3's rule for Maximum and Minimum, which have no identity)."""
    supports_masking = True
    _op = None

    def compute_mask(self, inputs, mask=None):
        return _or_masks(inputs, mask)

    def call(self, inputs, mask=None):
        inputs = _aligned(inputs)
        op = type(self)._op
        if mask is None or all(m is None for m in mask):
            out = inputs[0]
            for x in inputs[1:]:
                out = op(out, x)
            return out
        masks = _feature_masks(inputs, mask)
        out, out_mask = inputs[0], masks[0]
        for x, m in zip(inputs[1:], masks[1:]):
            if m is not None:
                x = _array.where(m, x, out)
            if out_mask is not None:
                out = _array.where(out_mask, out, x)
            out_mask = _math.logical_or(out_mask, m) if m is not None and out_mask is not None else None
            out = op(out, x)
        return out


class Maximum(_Elementwise):
    _op = staticmethod(_math.maximum)


class Minimum(_Elementwise):
    _op = staticmethod(_math.minimum)


class Multiply(_Elementwise):
    """The product; a masked step counts as 1, and where every input is masked the output is 0 (Keras 3)."""
    _op = staticmethod(_math.multiply)

    def call(self, inputs, mask=None):
        if mask is None or all(m is None for m in mask):
            return super().call(inputs)
        inputs = _aligned(inputs)
        masks = _feature_masks(inputs, mask)
        out, out_mask = None, None
        for x, m in zip(inputs, masks):
            if m is not None:
                x = _array.where(m, x, _array.ones_like(x))
                out_mask = m if out_mask is None else _math.logical_or(out_mask, m)
            out = x if out is None else _math.multiply(out, x)
        if all(m is not None for m in masks):
            out = _array.where(out_mask, out, _array.zeros_like(out))
        return out


class Average(_Elementwise):
    def call(self, inputs):
        inputs = _aligned(inputs)
        total = add_n(list(inputs)) if len(inputs) > 1 else inputs[0]
        return total / _math.cast(len(inputs), total.dtype)


class Subtract(_Elementwise):
    def call(self, inputs):
        if isinstance(inputs, (list, tuple)) and len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: input_shape="
                             f"{_shapes(inputs)}")
        inputs = _aligned(inputs)
        return _math.subtract(inputs[0], inputs[1])


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
                             f"{_shapes(inputs)}")
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


# Keras' functional forms: `keras.layers.add([a, b])` is `Add()([a, b])` (a fresh layer per call)
def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes=-1, normalize=False, **kwargs):
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)
