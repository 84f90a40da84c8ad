"""User functions of a dataset (map, filter, reduce, scan): converted by AutoGraph and traced once
over the element spec, as TensorFlow does, so Python side effects run once and the function's
output structure is known (and checked) when the dataset is built, not when it is iterated."""
from __future__ import annotations

from ..core import nest
from .structure import normalize_element


def call_with_element(fn, element):
    """TensorFlow's calling convention: a tuple element is passed as separate arguments."""
    return fn(*element) if type(element) is tuple else fn(element)


def trace(func, input_structure, call, name=None):
    """`call(fn, inputs)` invokes the converted `func` on the packed inputs; returns the concrete
    function over the flat inputs (calling it with flat values returns the output structure)."""
    from ..autograph.api import converted
    from ..trace.function import function
    fn = converted(func)

    from .composite_elements import component_specs, pack_components

    def flat_fn(*flat):  # the element's components (a RaggedTensor's flat_values and row_splits, ...)
        inputs = pack_components(input_structure, flat)
        out = call(fn, inputs)
        if isinstance(out, list):  # TensorFlow takes a returned list as a tuple
            out = tuple(out)
        return normalize_element(out)

    wrapped = function(flat_fn, autograph=False, name=name or getattr(func, "__name__", "func"))
    return wrapped.get_concrete_function(*component_specs(input_structure))


def output_spec(concrete):
    from .structure import spec_of
    return spec_of(concrete.structured_outputs)


def same_structure(a, b) -> bool:
    try:
        nest.assert_same_structure(a, b, expand_composites=True)
    except (ValueError, TypeError):
        return False
    return True
