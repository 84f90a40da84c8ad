"""User functions of a dataset (map, filter, reduce, scan): converted by AutoGraph and traced once
over the element spec, as TensorFlow does, so Python side effects run once and the function's
output structure is known (and checked) when the dataset is built, not when it is iterated."""
from __future__ import annotations

from ..core import nest
from ..core.tensor import TensorSpec
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

    def flat_fn(*flat):
        nested = nest.is_nested(input_structure, expand_composites=True)
        inputs = nest.pack_sequence_as(input_structure, list(flat), expand_composites=True) if nested else flat[0]
        out = call(fn, inputs)
        if isinstance(out, list):  # TensorFlow takes a returned list as a tuple
            out = tuple(out)
        return normalize_element(out)

    wrapped = function(flat_fn, autograph=False, name=name or getattr(func, "__name__", "func"))
    return wrapped.get_concrete_function(*nest.flatten(input_structure, expand_composites=True))


def output_spec(concrete):
    return nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), concrete.structured_outputs,
                              expand_composites=True)


def same_structure(a, b) -> bool:
    try:
        nest.assert_same_structure(a, b, expand_composites=True)
    except (ValueError, TypeError):
        return False
    return True
