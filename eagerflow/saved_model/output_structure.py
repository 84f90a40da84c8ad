"""A function's output structure in the SavedModel document, both ways.

`{"output": i}` (the graph's output i), `null`, `{"list"|"tuple": [node, ...]}`,
`{"dict": [[key, node], ...]}`, and since format 1.2 `{"namedtuple": [type name, [field, ...],
[node, ...]]}`: TensorFlow restores a namedtuple output as a namedtuple of the same type name and
fields (a new class: the user's class is user code), and so does the loader here.
"""
from __future__ import annotations

import collections

from .._src.core.tensor import Tensor
from .files import data_loss

_MAX_DEPTH = 32


def encode(value, index, fn_name):
    """`value` (the traced outputs) as JSON; `index` maps id(output tensor) to its position."""
    if value is None:
        return None
    if isinstance(value, Tensor):
        return {"output": index[id(value)]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"dict": [[k, encode(v, index, fn_name)] for k, v in value.items()]}
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return {"namedtuple": [type(value).__name__, list(value._fields),
                               [encode(v, index, fn_name) for v in value]]}
    if isinstance(value, (list, tuple)):
        return {"list" if isinstance(value, list) else "tuple": [encode(v, index, fn_name) for v in value]}
    raise ValueError(f"Cannot save function {fn_name!r}: its output holds {value!r}")


def decode(obj, outputs, path, where, namedtuples, depth=0):
    """The structure over `outputs`; `namedtuples` caches the classes made while loading one file
    (one per type name and fields), so equal namedtuples of two functions share their class."""
    if depth > _MAX_DEPTH:
        raise data_loss(path, f"{where}: output structure nested too deeply")
    if obj is None:
        return None
    if isinstance(obj, dict) and len(obj) == 1:
        (kind, body), = obj.items()
        if kind == "output" and type(body) is int and 0 <= body < len(outputs):
            return outputs[body]
        if kind in ("list", "tuple") and isinstance(body, list):
            items = [decode(v, outputs, path, where, namedtuples, depth + 1) for v in body]
            return items if kind == "list" else tuple(items)
        if kind == "dict" and isinstance(body, list) and all(
                isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in body):
            return {k: decode(v, outputs, path, where, namedtuples, depth + 1) for k, v in body}
        if kind == "namedtuple" and isinstance(body, list) and len(body) == 3:
            cls = _namedtuple_class(body[0], body[1], namedtuples, path, where)
            if isinstance(body[2], list) and len(body[2]) == len(cls._fields):
                return cls(*[decode(v, outputs, path, where, namedtuples, depth + 1) for v in body[2]])
    raise data_loss(path, f"{where}: not a valid output structure")


def _namedtuple_class(name, fields, namedtuples, path, where):
    if not (isinstance(name, str) and isinstance(fields, list) and all(isinstance(f, str) for f in fields)):
        raise data_loss(path, f"{where}: a namedtuple is [type name, [field, ...], [node, ...]]")
    key = (name, tuple(fields))
    if key not in namedtuples:
        try:
            namedtuples[key] = collections.namedtuple(name, fields)
        except (ValueError, TypeError) as err:  # not identifiers, a keyword, a repeated field
            raise data_loss(path, f"{where}: bad namedtuple {name[:40]!r} ({err})") from None
    return namedtuples[key]
