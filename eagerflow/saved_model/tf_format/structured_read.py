"""StructuredValue messages read back: a function's canonicalized input signature (TensorSpecs and
Python literals in tuples, lists and dicts) and its output structure. Namedtuples come back as
namedtuples of the saved type name, as TensorFlow restores them."""
from __future__ import annotations

import collections
import keyword

from ..._src.core.tensor import TensorSpec
from ..files import data_loss
from .tf_values import BadValue, dtype_of, shape_of

MAX_DEPTH = 64


def decode(value, path, where, namedtuples, depth=0):
    if depth > MAX_DEPTH:
        raise data_loss(path, f"{where}: a structure nested too deeply")
    kind = value.WhichOneof("kind")
    if kind == "tensor_spec_value":
        spec = value.tensor_spec_value
        try:
            return TensorSpec(shape_of(spec.shape), dtype_of(spec.dtype), spec.name or None)
        except BadValue as err:
            raise data_loss(path, f"{where}: {err}") from None
    if kind == "none_value" or kind is None:
        return None
    if kind in ("bool_value", "int64_value", "float64_value", "string_value"):
        return getattr(value, kind)
    if kind in ("tuple_value", "list_value"):
        items = [decode(v, path, where, namedtuples, depth + 1) for v in getattr(value, kind).values]
        return tuple(items) if kind == "tuple_value" else items
    if kind == "dict_value":
        # a protobuf map has no order: the order eagerflow recorded, else sorted (TensorFlow flattens
        # a dict in sorted key order)
        fields = value.dict_value.fields
        order = list(value.dict_value.eagerflow_key_order)
        if sorted(order) != sorted(fields):
            if order:
                raise data_loss(path, f"{where}: a dict's key order does not name its keys")
            order = sorted(fields)
        return {k: decode(fields[k], path, where, namedtuples, depth + 1) for k in order}
    if kind == "named_tuple_value":
        nt = value.named_tuple_value
        fields = [p.key for p in nt.values]
        if not _name_ok(nt.name) or not all(_name_ok(f) and not f.startswith("_") for f in fields) \
                or len(set(fields)) != len(fields):
            raise data_loss(path, f"{where}: bad namedtuple {nt.name[:40]!r}: a namedtuple with invalid names "
                                  f"(its type and distinct fields must be identifiers, not keywords)")
        key = (nt.name, tuple(fields))
        cls = namedtuples.get(key)
        if cls is None:
            cls = namedtuples[key] = collections.namedtuple(nt.name, fields)
        return cls(*[decode(p.value, path, where, namedtuples, depth + 1) for p in nt.values])
    raise data_loss(path, f"{where}: a structure of kind {kind}, which eagerflow does not read")


def _name_ok(name):
    return name.isidentifier() and not keyword.iskeyword(name)
