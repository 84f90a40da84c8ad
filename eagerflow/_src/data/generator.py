"""`Dataset.from_generator`: elements yielded by a Python generator, checked against the declared
signature (structure, dtype by conversion, shape by compatibility) as TensorFlow checks them.

A stream: every pass calls `generator(*args)` afresh. Inside tf.function the generator runs when
the function runs (stream.py), as TensorFlow runs it through a py_func."""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import TensorSpec, make_eager
from .dataset import Dataset
from .structure import UNKNOWN


def _spec_from_types(types, shapes):
    """output_types with output_shapes (shapes given per type leaf; a missing one is unknown)."""
    if isinstance(types, dict):
        return {k: _spec_from_types(types[k], None if shapes is None else shapes[k]) for k in types}
    if isinstance(types, (tuple, list)):
        parts = [_spec_from_types(t, None if shapes is None else shapes[i]) for i, t in enumerate(types)]
        return type(types)(*parts) if hasattr(type(types), "_fields") else tuple(parts)
    return TensorSpec(TensorShape(None) if shapes is None else TensorShape(shapes), _dt.as_dtype(types))


def _signature(output_types, output_shapes, output_signature):
    if output_signature is not None:
        if output_types is not None:
            raise TypeError("The `output_types` argument can not be used together with the `output_signature` "
                            "argument.")
        if output_shapes is not None:
            raise TypeError("The `output_shapes` argument can not be used together with the `output_signature` "
                            "argument.")
        from .composite_elements import is_composite_spec
        for leaf in nest.flatten(output_signature, expand_composites=True):
            if not isinstance(leaf, TensorSpec) and not is_composite_spec(leaf):
                raise TypeError("`output_signature` must contain objects that are subclass of `tf.TypeSpec` but "
                                f"found {type(leaf)} which is not.")
        return output_signature
    if output_types is None:
        raise TypeError("To specify the output signature you need to provide either the `output_signature` "
                        "argument or the `output_types` argument.")
    return _spec_from_types(output_types, output_shapes)


def _component(value, spec):
    np_dtype = object if spec.dtype == _dt.string else spec.dtype.np_dtype
    try:
        array = np.asarray(value, dtype=np_dtype)
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(None, None, f"TypeError: `generator` yielded an element that could not be "
                                               f"converted to the expected type. The expected type was "
                                               f"{spec.dtype.name}, but the yielded element was {value}.") from e
    if not spec.shape.is_compatible_with(TensorShape(list(array.shape))):
        raise InvalidArgumentError(None, None, f"TypeError: `generator` yielded an element of shape "
                                               f"{TensorShape(list(array.shape))} where an element of shape "
                                               f"{spec.shape} was expected.")
    return make_eager(array, spec.dtype)


def _composite(value, spec):
    """A yielded RaggedTensor or SparseTensor of `spec`; anything else (a nested list too) is refused, as
    TensorFlow refuses it."""
    from .composite_elements import COMPOSITES, leaf_spec
    got = leaf_spec(value if isinstance(value, COMPOSITES) else convert_to_tensor(value))
    same_kind = type(got) is type(spec) and got.dtype == spec.dtype and \
        getattr(got, "ragged_rank", 0) == getattr(spec, "ragged_rank", 0) and spec.shape.is_compatible_with(got.shape)
    if not same_kind:
        raise InvalidArgumentError(None, None, f"TypeError: `generator` yielded an element of {got!r} where an "
                                               f"element of {spec!r} was expected.")
    return value


def _element(value, spec):
    from .composite_elements import is_composite_spec
    if is_composite_spec(spec):
        return _composite(value, spec)
    if not nest.is_nested(spec, expand_composites=True):
        return _component(value, spec)
    if isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            raise _structure_error(spec, value)
        return {k: _element(value[k], spec[k]) for k in spec}
    if not isinstance(value, tuple) or len(value) != len(spec):
        raise _structure_error(spec, value)
    parts = [_element(v, s) for v, s in zip(value, spec)]
    return type(spec)(*parts) if hasattr(type(spec), "_fields") else tuple(parts)


def _structure_error(spec, value):
    types = nest.map_structure(lambda s: s.dtype, spec, expand_composites=True)
    return InvalidArgumentError(None, None, "TypeError: `generator` yielded an element that did not match the "
                                            f"expected structure. The expected structure was {types}, but the "
                                            f"yielded element was {value}.")


class GeneratorDataset(Dataset):
    _name = "_FlatMapDataset"  # TensorFlow's repr of a from_generator dataset
    _indexable = False

    def __init__(self, generator, output_types, output_shapes, args, output_signature):
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        self._spec = _signature(output_types, output_shapes, output_signature)
        self._generator = generator
        self._args = tuple(convert_to_tensor(a) for a in (args or ()))
        self._size = UNKNOWN

    def _stream(self):
        for value in self._generator(*[a.numpy() for a in self._args]):
            yield _element(value, self._spec)
