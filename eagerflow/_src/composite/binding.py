"""The argument check a composite's TypeSpec gives a ConcreteFunction (trace/call_binding.py): the
value must be the spec's composite class, with as many parts as the spec has components, each of
the component's dtype and a compatible shape. True (the parts appended to `flat`), or why not, in
TensorFlow's words."""
from __future__ import annotations

from ..core.tensor import TensorSpec


def bind_components(spec, value, cls, attribute, flat):
    """`attribute`: the one TensorFlow's message names when `value` is not a `cls` (the first
    attribute its check reads: 'indices', 'ragged_rank', 'dense_shape')."""
    if not isinstance(value, cls):
        return f"'{type(value).__name__}' object has no attribute '{attribute}'"
    parts, specs = value.__tf_flatten__(), spec._component_specs()
    if len(parts) != len(specs):
        return f"Can not cast {value._type_spec!r} to {spec!r}"
    for part, component in zip(parts, specs):
        if part.dtype is not component.dtype or not component.shape.is_compatible_with(part.shape):
            return f"Can not cast {TensorSpec(part.shape, part.dtype)!r} to {component!r}"
    flat.extend(parts)
    return True
