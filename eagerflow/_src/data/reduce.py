"""`Dataset.reduce(initial_state, reduce_func)`: a fold over the elements.

reduce_func is traced once over (state spec, element spec). As in TensorFlow, a state whose shape
changes from one step to the next (a growing concatenation) is relaxed: the function is traced
again with the dimensions that changed set to None, until the new state fits. A state whose
dtype or structure changes is an error (TensorFlow's classes and words).

Eagerly the fold is a Python loop calling the traced function; inside tf.function it is one
tf.while_loop over the dataset's elements (computed by ops for an indexable dataset, pulled from
the run-time pass for a stream), so it is not unrolled.
"""
from __future__ import annotations

from ..core import nest
from ..core.context import state
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import TensorSpec
from .functions import output_spec, same_structure, trace
from .structure import normalize, spec_of


_REDUCE_DTYPE = "The element types for the new state must match the initial state. Expected {} but got {}."


def fixed_state_function(func, initial_state, element_spec, call, name, split=lambda out: out,
                         dtype_message=_REDUCE_DTYPE):
    """(concrete function of (state, element), state spec) with the state spec relaxed to a fixed
    point; `split(outputs)` picks the new state out of the function's outputs."""
    state_spec = spec_of(initial_state)
    for _ in range(16):
        concrete = trace(func, (state_spec, element_spec), call, name)
        new = split(output_spec(concrete))
        if not same_structure(state_spec, new):
            raise InvalidArgumentError(
                None, None, "The number of components of the initial state and the reduce function output does "
                            f"not match. (initial_state={len(nest.flatten(state_spec, expand_composites=True))}, "
                            f"output={len(nest.flatten(new, expand_composites=True))}).")
        flat_old, flat_new = nest.flatten(state_spec, expand_composites=True), nest.flatten(new, expand_composites=True)
        for old, fresh in zip(flat_old, flat_new):
            if old.dtype != fresh.dtype:
                raise TypeError(dtype_message.format(f"<dtype: '{old.dtype.name}'>", f"<dtype: '{fresh.dtype.name}'>"))
        relaxed = [TensorSpec(o.shape.most_specific_compatible_shape(f.shape), o.dtype)
                   for o, f in zip(flat_old, flat_new)]
        if all(r.shape == o.shape for r, o in zip(relaxed, flat_old)):
            return concrete, state_spec
        state_spec = nest.pack_sequence_as(state_spec, relaxed, expand_composites=True)
    raise RuntimeError("reduce: the state's shape did not settle")  # pragma: no cover - shapes only relax


def _call(fn, inputs):
    return fn(*inputs)


def reduce(dataset, initial_state, reduce_func):
    initial = normalize(initial_state)
    concrete, state_spec = fixed_state_function(reduce_func, initial, dataset.element_spec, _call, "reduce_func")
    if state.graph is None:
        current = initial
        for element in dataset._elements():
            current = concrete(*nest.flatten(current, expand_composites=True),
                               *nest.flatten(element, expand_composites=True))
        return current
    return _reduce_loop(dataset, initial, state_spec, concrete)


def _reduce_loop(dataset, initial, state_spec, concrete):
    from ..control_flow.while_loop import while_loop
    from ..core.convert import convert_to_tensor
    source = dataset._loop_source()
    flat_spec = nest.flatten(state_spec, expand_composites=True)
    n = source.size

    def cond(index, *flat):
        if hasattr(source, "has_element"):
            return source.has_element(index)
        if n is None:
            return convert_to_tensor(True)
        return index < n

    def body(index, *flat):
        element = source.element(index)
        out = concrete(*flat, *nest.flatten(element, expand_composites=True))
        return [index + 1] + [convert_to_tensor(t) for t in nest.flatten(out, expand_composites=True)]

    flat_init = [convert_to_tensor(t) for t in nest.flatten(initial, expand_composites=True)]
    invariants = [TensorShape([])] + [s.shape for s in flat_spec]
    out = while_loop(cond, body, [convert_to_tensor(0)] + flat_init, shape_invariants=invariants)
    return nest.pack_sequence_as(state_spec, list(out[1:]), expand_composites=True)
