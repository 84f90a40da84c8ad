"""TensorFlow's Optional ops: a variant holding a tuple of tensors, or nothing.

eagerflow's own graphs never build them; they are how TensorFlow's files carry the values a
conditional's taken branch computed for its gradient (the If's extra output, read back by the
gradient If's branches), so SavedModels that hold a tf.cond's gradient, written by TensorFlow or
exported by eagerflow (graph_export/cond_gradient_export.py), load and run here."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.variant import VariantValue
from ..registry import Spec, bind, defop


class OptionalValue(VariantValue):
    """An Optional: `payload` is the tuple of its components, or None when it holds nothing.

    As TensorFlow's Optional variant: its zeros are an Optional of its components' zeros (the
    gradient a cond's kept values get when none reached them), and two add component by component
    (gradients of the same kept values from several readers)."""
    __slots__ = ()

    def __array_function__(self, func, types, args, kwargs):
        if func is np.zeros_like:
            return OptionalValue(None if self.payload is None else tuple(np.zeros_like(c) for c in self.payload))
        return NotImplemented

    def __add__(self, other):
        theirs = getattr(other, "payload", None)
        if self.payload is None or not isinstance(theirs, tuple):
            return other if self.payload is None else self
        if len(theirs) != len(self.payload):
            raise InvalidArgumentError(None, None, "Cannot add optionals with different numbers of components.")
        return OptionalValue(tuple(a + b for a, b in zip(self.payload, theirs)))

    __radd__ = __add__


def _scalar_variant(inputs, attrs):
    return [Spec(TensorShape([]), _dt.variant)]


def _from_value_kernel(*components, Toutput_types=None):
    return OptionalValue(tuple(components))


def _none_kernel():
    return OptionalValue(None)


def _get_value_kernel(optional, output_types, output_shapes):
    components = getattr(optional, "payload", None)
    if not isinstance(optional, OptionalValue) or components is None:
        raise InvalidArgumentError(None, None, "The optional variant does not have a value.")
    if len(components) != len(output_types) or any(
            np.asarray(c).dtype != np.dtype(d.as_numpy_dtype) for c, d in zip(components, output_types)
            if d is not _dt.variant):
        raise InvalidArgumentError(None, None, "Optional does not have the declared component types "
                                               f"{[d.name for d in output_types]}.")
    return tuple(components)


def _get_value_infer(inputs, attrs):
    types, shapes = attrs["output_types"], attrs["output_shapes"]
    if len(types) != len(shapes):
        raise InvalidArgumentError(None, None, "output_types and output_shapes must have the same length")
    return [Spec(TensorShape(s), d) for s, d in zip(shapes, types)]


def _get_value_grad(op, *grads):
    """The components' gradients packed as an Optional (zeros for a component none reached)."""
    from ..array.basic import zeros_like
    filled = [g if g is not None else zeros_like(t) for g, t in zip(grads, op.outputs)]
    return [bind(OptionalFromValue, tuple(filled), {"Toutput_types": [t.dtype for t in filled]})]


def _from_value_grad(op, g):
    """Each component's gradient out of the Optional's gradient; zeros when it holds none (no
    gradient reached the Optional, the usual case: only a gradient of a gradient reaches it)."""
    return list(bind(OptionalGradientComponents, (g, *op.inputs)))


def _gradient_components_grad(op, *grads):
    """Reading components out of an Optional's gradient is linear in that gradient: its own gradient
    packs the incoming gradients as an Optional again (as OptionalGetValue's does); `like` only gives
    shapes and dtypes, so it gets none."""
    return [*_get_value_grad(op, *grads), *[None] * (len(op.inputs) - 1)]


def _gradient_components_kernel(gradient, *like):
    components = getattr(gradient, "payload", None)
    if not isinstance(components, tuple) or len(components) != len(like):
        return tuple(np.zeros_like(c) for c in like)
    return components


OptionalFromValue = defop(
    "OptionalFromValue", inputs=("components",), kernel=_from_value_kernel, infer=_scalar_variant,
    grad=_from_value_grad, doc="An Optional holding the given components.")
OptionalNone = defop(
    "OptionalNone", inputs=(), kernel=_none_kernel, infer=_scalar_variant, grad=lambda op, *g: [],
    doc="An Optional holding nothing.")
OptionalGetValue = defop(
    "OptionalGetValue", inputs=("optional",), kernel=_get_value_kernel, infer=_get_value_infer,
    grad=_get_value_grad, multi_output=True, doc="The components an Optional holds; an error if it holds none.")
OptionalGradientComponents = defop(
    "OptionalGradientComponents", inputs=("gradient", "like"), kernel=_gradient_components_kernel,
    infer=lambda inputs, attrs: [Spec(t.shape, t.dtype) for t in inputs[1:]],
    grad=_gradient_components_grad, multi_output=True,
    doc="The components of an Optional's gradient, or zeros like `like` when it holds none.")
OptionalHasValue = defop(
    "OptionalHasValue", inputs=("optional",), kernel=lambda optional: np.bool_(
        getattr(optional, "payload", None) is not None), infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.bool_)],
    grad=lambda op, g: [None], doc="Whether an Optional holds a value.")
