"""Call arguments -> a hashable trace key, plus the flat list of tensors the graph takes.

The key follows TensorFlow's rules: a tensor (or NumPy array) by dtype and shape, a Python scalar
or string by type and value, a Variable by identity, lists/tuples/dicts/namedtuples by structure,
other hashable objects by value, unhashable ones by identity. Building the key is on the cached-call
hot path, so it is one recursive walk with no allocation beyond the key itself.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape
from ..core.tensor import EagerTensor, Tensor, TensorSpec, make_eager

TENSOR = "T"
VARIABLE = "V"


def key_of(value, tensors: list):
    """The key part for one argument; appends the tensors it contains to `tensors`."""
    t = type(value)
    if t is EagerTensor:
        tensors.append(value)
        return (TENSOR, value._dtype, value._value.shape)
    if t is int or t is float or t is bool or t is str or value is None:
        return (t, value)
    if t is tuple or t is list:
        return (t, tuple(key_of(v, tensors) for v in value))
    if t is dict:
        return (dict, tuple((k, key_of(value[k], tensors)) for k in sorted(value, key=str)))
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        arr = np.asarray(value)
        tensor = make_eager(arr.copy(), _dt.from_numpy(arr.dtype))
        tensors.append(tensor)
        return (TENSOR, tensor._dtype, arr.shape)
    if isinstance(value, Tensor):  # a symbolic tensor from an enclosing trace
        tensors.append(value)
        return (TENSOR, value.dtype, tuple(value.shape.as_list()) if value.shape.rank is not None else None)
    if isinstance(value, tuple) and hasattr(t, "_fields"):  # namedtuple
        return (t, tuple(key_of(v, tensors) for v in value))
    if hasattr(t, "_as_tensor"):  # a Variable argument: keyed by its spec, fed as its handle
        tensors.append(value.handle)
        return (VARIABLE, value.dtype, tuple(value.shape.as_list()), value.trainable)
    try:
        hash(value)
    except TypeError:
        return ("O", t, id(value))
    return ("H", t, value)


def specs_from_key(part):
    """Rebuilds the argument structure with TensorSpecs where tensors were (for tracing)."""
    kind = part[0]
    if kind == TENSOR:
        return TensorSpec(TensorShape(None if part[2] is None else list(part[2])), part[1])
    return part


def relax(key_a, key_b):
    """The most specific key both keys fit, for `reduce_retracing`; None if their structure differs.
    Tensor shapes become None where they differ."""
    if type(key_a) is not tuple or type(key_b) is not tuple or len(key_a) != len(key_b):
        return None if key_a != key_b else key_a
    if key_a and key_a[0] == TENSOR and key_b and key_b[0] == TENSOR:
        if key_a[1] is not key_b[1]:
            return None
        sa, sb = key_a[2], key_b[2]
        if sa is None or sb is None or len(sa) != len(sb):
            return (TENSOR, key_a[1], None)
        return (TENSOR, key_a[1], tuple(x if x == y else None for x, y in zip(sa, sb)))
    out = []
    for a, b in zip(key_a, key_b):
        if type(a) is tuple and type(b) is tuple:
            r = relax(a, b)
            if r is None:
                return None
            out.append(r)
        elif a == b and type(a) is type(b):
            out.append(a)
        else:
            return None
    return tuple(out)


def accepts(general, key) -> bool:
    """Whether a call with `key` can run a function traced for `general` (None dims match anything)."""
    if type(general) is not tuple or type(key) is not tuple:
        return general == key and type(general) is type(key)
    if general and general[0] == TENSOR:
        if not (key and key[0] == TENSOR and general[1] is key[1]):
            return False
        gs, ks = general[2], key[2]
        if gs is None:
            return True
        return ks is not None and len(gs) == len(ks) and all(g is None or g == k for g, k in zip(gs, ks))
    return len(general) == len(key) and all(accepts(g, k) for g, k in zip(general, key))


def _describe(part):
    if type(part) is tuple and part and part[0] == TENSOR:
        shape = "<unknown>" if part[2] is None else str(TensorShape(list(part[2])))
        return f"tensor {part[1].name}{shape}"
    if type(part) is tuple and len(part) == 2 and isinstance(part[0], type):
        if part[0] in (tuple, list, dict):
            return f"{part[0].__name__} of {len(part[1])}"
        return f"{part[0].__name__} {part[1]!r}"
    return repr(part)


def explain(old, new, names) -> str:
    """The first argument whose key part differs between two call keys, in words:
    "argument 'x': tensor float32(3,) -> tensor float32(4,)"."""
    (old_args, old_kw), (new_args, new_kw) = old, new
    if len(old_args) != len(new_args):
        return f"{len(old_args)} -> {len(new_args)} positional arguments"
    for i, (a, b) in enumerate(zip(old_args, new_args)):
        if a != b:
            name = names[i] if i < len(names) else f"args_{i - len(names)}"
            return f"argument {name!r}: {_describe(a)} -> {_describe(b)}"
    old_d, new_d = dict(old_kw), dict(new_kw)
    for k in sorted(set(old_d) | set(new_d)):
        if old_d.get(k) != new_d.get(k):
            return f"argument {k!r}: {_describe(old_d.get(k))} -> {_describe(new_d.get(k))}"
    return "no difference in the arguments"


def has_unknown_dims(key) -> bool:
    """Whether a key has a tensor of unknown rank or with a None dimension."""
    if type(key) is not tuple:
        return False
    if key and key[0] == TENSOR:
        return key[2] is None or any(d is None for d in key[2])
    return any(has_unknown_dims(part) for part in key)
