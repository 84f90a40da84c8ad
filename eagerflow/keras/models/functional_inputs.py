"""What a functional model does with the inputs of a call before it runs its graph (Keras 3's rules).

A call such as `model(np.ones((2, 3)))` or `model({"a": ..., "b": ...})` is checked and converted:
- the inputs are matched to the model's Inputs: a dict by the Inputs' names, a single tensor to a
  one-Input list, other structures flattened in order;
- their number and static shapes are checked against one InputSpec per Input (batch size free, a
  trailing axis of size 1 ignored), with Keras' ValueError messages, before anything runs;
- each becomes a tensor of its Input's dtype (NumPy int64 or bool data feeds a float32 model, float
  data an int32 one), and a rank one off from the Input's (by a trailing axis of size 1) is squeezed
  or expanded.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..._src.core import nest
from ..._src.core.convert import convert_to_tensor
from ..._src.core.tensor import EagerTensor, Tensor
from ..._src.ops.array import basic as _array
from ..._src.state.variables import Variable
from ..layers.input_spec import InputSpec, check_input_compatibility
from ..layers.keras_tensor import KerasTensor


def _no_batch(shape):
    shape = list(shape)
    if shape:
        shape[0] = None
    return tuple(shape)


def _spec(tensor, name=None):
    return InputSpec(shape=_no_batch(tensor.shape), allow_last_axis_squeeze=True,
                     name=tensor._keras_history.layer.name if name is None else name)


def functional_input_spec(structure, flat_inputs):
    """One InputSpec per Input, named by its InputLayer (a dict of Inputs: by its keys, sorted);
    None for deeper structures, which Keras does not check."""
    if isinstance(structure, dict):
        if all(isinstance(t, KerasTensor) for t in structure.values()):
            return [_spec(structure[key], name=key) for key in sorted(structure)]
        return None
    return [_spec(t) for t in flat_inputs]


def _describe(structure, leaf):
    return nest.map_structure(leaf, structure)


def _check_structure(structure, inputs, must_match):
    """Keras warns when the call's structure differs from the Inputs' (lists and tuples alike), and
    refuses it where it cannot be reconciled."""
    def as_tuples(value):
        if isinstance(value, (list, tuple)):
            return tuple(as_tuples(v) for v in value)
        if isinstance(value, dict):
            return {k: as_tuples(v) for k, v in value.items()}
        return 0

    if as_tuples(structure) == as_tuples(inputs):
        return
    expected = _describe(structure, lambda t: t.name)
    received = _describe(inputs, lambda x: "None" if x is None else f"Tensor(shape={_shape_of(x)})")
    message = f"The structure of `inputs` doesn't match the expected structure.\nExpected: {expected}\n" \
              f"Received: inputs={received}"
    if must_match:
        raise ValueError(message)
    warnings.warn(message, stacklevel=4)


def _shape_of(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        return tuple(np.shape(x))
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


def _match_structure(structure, inputs):
    """The call's inputs arranged like the model's Inputs (Keras' _standardize_inputs)."""
    must_match = False
    if isinstance(structure, list) and len(structure) == 1 and isinstance(inputs, (Tensor, Variable)):
        inputs = [inputs]
    elif isinstance(inputs, dict) and not isinstance(structure, dict):
        if isinstance(structure, (list, tuple)) and all(isinstance(t, KerasTensor) for t in structure):
            if {t.name for t in structure} <= set(inputs):
                inputs = [inputs[t.name] for t in structure]
            else:
                must_match = True
        elif isinstance(structure, KerasTensor):
            if structure.name in inputs:
                inputs = [inputs[structure.name]]
            else:
                must_match = True
        else:
            must_match = True
    if isinstance(structure, dict) and not isinstance(inputs, dict) and list(structure) != sorted(structure):
        must_match = True
    _check_structure(structure, inputs, must_match)
    return nest.flatten(inputs, expand_composites=True)


def _paths(structure, prefix=""):
    if isinstance(structure, dict):
        items = sorted(structure.items())
    elif isinstance(structure, (list, tuple)):
        items = list(enumerate(structure))
    else:
        return [prefix]
    return [path for key, value in items for path in _paths(value, f"{prefix}.{key}" if prefix else str(key))]


def _to_input_dtype(value, spec_tensor):
    if value is None:
        raise ValueError(f"The input '{spec_tensor.name}' is not optional, but None was passed. Please provide a "
                         f"valid tensor.")
    tensor = value if isinstance(value, Tensor) else convert_to_tensor(value)
    if tensor.dtype != spec_tensor.dtype:
        tensor = _array.cast(tensor, spec_tensor.dtype)
    return tensor


def _fit_rank(values, structure, flat_inputs):
    """A rank one more than the Input's (trailing size 1) is squeezed, one less (the Input's last
    dimension 1) expanded; any other rank is refused with Keras' message."""
    adjusted = []
    for i, (x, ref) in enumerate(zip(values, flat_inputs)):
        rank, ref_rank = x.shape.rank, len(ref.shape)
        if rank is None or rank == ref_rank:
            adjusted.append(x)
        elif rank == ref_rank + 1 and x.shape.as_list()[-1] == 1:
            adjusted.append(_array.squeeze(x, axis=[-1]))
        elif rank == ref_rank - 1 and ref.shape[-1] == 1:
            adjusted.append(_array.expand_dims(x, -1))
        else:
            shown = x.numpy() if isinstance(x, EagerTensor) else x
            raise ValueError(f"Invalid input shape for input {shown} with name '{ref.name}' and path "
                             f"'{_paths(structure)[i]}'. Expected shape {tuple(ref.shape)}, but input has "
                             f"incompatible shape {tuple(x.shape.as_list())}")
    return adjusted


def standardize_inputs(structure, flat_inputs, inputs):
    """The call's inputs as a flat list of tensors, one per Input, in the Inputs' dtypes and ranks."""
    given = _match_structure(structure, inputs)
    converted = [_to_input_dtype(x, ref) for x, ref in zip(given, flat_inputs)]
    return _fit_rank(converted, structure, flat_inputs)
