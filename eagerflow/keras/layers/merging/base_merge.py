"""What the merging layers share: the checks of their list input and masks, and the elementwise base
class (broadcasting as Keras 3 does) of Maximum, Minimum, Multiply, Average and Subtract."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ..base import Layer


def check_masks(inputs, mask):
    if not isinstance(mask, (tuple, list)):
        raise ValueError(f"`mask` should be a list. Received: mask={mask}")
    if not isinstance(inputs, (tuple, list)):
        raise ValueError(f"`inputs` should be a list. Received: inputs={inputs}")
    if len(mask) != len(inputs):
        raise ValueError(f"The lists `inputs` and `mask` should have the same length. Received: inputs={inputs} of "
                         f"length {len(inputs)}, and mask={mask} of length {len(mask)}")


def check_list(layer, inputs):
    if not isinstance(inputs, (list, tuple)) or len(inputs) < 1:
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} "
                         f"(not a list of tensors)")


def or_masks(inputs, mask):
    """Keras 3's merge rule: the OR of the inputs' masks; none if any input has none."""
    if mask is None:
        return None
    check_masks(inputs, mask)
    if any(m is None for m in mask):
        return None
    out = mask[0]
    for m in mask[1:]:
        out = _math.logical_or(out, m)
    return out


def input_shapes(inputs):
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


def aligned_inputs(inputs):
    """The inputs checked as Keras checks them, the lower-rank ones given size-1 axes after the batch axis
    until every rank is equal (Keras' rule, which is not NumPy's right-aligned broadcasting)."""
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: input_shape="
                         f"{input_shapes(inputs)} (not a list of shapes)")
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


def feature_masks(inputs, mask):
    """Each input's (batch, steps) mask broadcast over its features, or None for an input without one."""
    if mask is None:
        return [None] * len(inputs)
    return [None if m is None else _array.broadcast_to(_array.expand_dims(m, -1), _array.shape(x))
            for x, m in zip(inputs, mask)]


class Elementwise(Layer):
    """A merge of two or more inputs by one elementwise binary op, applied left to right; masked steps of
    one input take the other's value (Keras 3's rule for Maximum and Minimum, which have no identity)."""
    supports_masking = True
    _op = None

    def compute_mask(self, inputs, mask=None):
        return or_masks(inputs, mask)

    def call(self, inputs, mask=None):
        inputs = aligned_inputs(inputs)
        op = type(self)._op
        if mask is None or all(m is None for m in mask):
            out = inputs[0]
            for x in inputs[1:]:
                out = op(out, x)
            return out
        masks = feature_masks(inputs, mask)
        out, out_mask = inputs[0], masks[0]
        for x, m in zip(inputs[1:], masks[1:]):
            if m is not None:
                x = _array.where(m, x, out)
            if out_mask is not None:
                out = _array.where(out_mask, out, x)
            out_mask = _math.logical_or(out_mask, m) if m is not None and out_mask is not None else None
            out = op(out, x)
        return out


