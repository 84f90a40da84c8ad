"""flatten / pack_sequence_as over lists, tuples, dicts and namedtuples (TensorFlow's `tf.nest`).

Why: gradients take nested sources, tf.function keys its cache on nested arguments, and both must
agree with TensorFlow on order: dict entries are visited in sorted key order.

A composite (an object whose type has `__tf_flatten__` / `__tf_unflatten__`: SparseTensor,
RaggedTensor, TensorArray) is a leaf, as in TensorFlow, unless `expand_composites=True`: then it is a
structure over the tensors it returns from `__tf_flatten__`. Code of ours that carries values
through graphs (tf.function arguments and outputs, tf.while_loop, tf.cond, tf.data, gradients) asks
for the expansion explicitly at each call.
"""
from __future__ import annotations

import collections.abc as _abc


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _is_composite(x) -> bool:
    return hasattr(type(x), "__tf_flatten__")


def is_nested(x, expand_composites=False) -> bool:
    """A list, tuple or mapping (TensorFlow's `tf.nest.is_nested`); a composite too when expanding."""
    return isinstance(x, (list, tuple, dict, _abc.Mapping)) or (expand_composites and _is_composite(x))


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def _children(x, expand_composites=False):
    if expand_composites and _is_composite(x):
        return list(x.__tf_flatten__())
    if isinstance(x, _abc.Mapping):
        return [x[k] for k in _sorted_keys(x)]
    return list(x)


def flatten(structure, expand_composites=False):
    """The leaves of `structure` in TensorFlow's order. A non-nested value gives `[value]`; a
    composite is one leaf unless `expand_composites` (then its component tensors)."""
    out = []
    if expand_composites:
        _flatten_expanding(structure, out)
    else:
        _flatten_into(structure, out)
    return out


def _flatten_into(x, out):
    if isinstance(x, (list, tuple, _abc.Mapping)):
        for child in _children(x):
            _flatten_into(child, out)
    else:
        out.append(x)


def _flatten_expanding(x, out):
    if isinstance(x, (list, tuple, _abc.Mapping)) or _is_composite(x):
        for child in _children(x, True):
            _flatten_expanding(child, out)
    else:
        out.append(x)


def _rebuild(template, children):
    if _is_composite(template):  # only reached when expanding composites
        return template.__tf_unflatten__(children)
    if isinstance(template, _abc.Mapping):
        keys = _sorted_keys(template)
        result = dict(zip(keys, children))
        if type(template) is dict:
            return {k: result[k] for k in template}
        try:
            return type(template)((k, result[k]) for k in template)
        except TypeError:
            return {k: result[k] for k in template}
    if _is_namedtuple(template):
        return type(template)(*children)
    if isinstance(template, tuple):
        return tuple(children)
    if isinstance(template, list):
        return list(children)
    raise TypeError(f"Cannot rebuild structure of type {type(template).__name__}")


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Rebuilds `structure` with its leaves replaced, in order, by `flat_sequence`."""
    flat_sequence = list(flat_sequence)
    if not is_nested(structure, expand_composites):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    pos, result = _pack(structure, flat_sequence, 0, expand_composites)
    if pos != len(flat_sequence):
        raise ValueError(
            f"Could not pack sequence. Structure had {pos} atoms, but flat_sequence had "
            f"{len(flat_sequence)} items.")
    return result


def _pack(structure, flat, pos, expand):
    if not is_nested(structure, expand):
        if pos >= len(flat):
            raise ValueError("Could not pack sequence: flat_sequence is too short for the structure.")
        return pos + 1, flat[pos]
    children = []
    for child in _children(structure, expand):
        pos, packed = _pack(child, flat, pos, expand)
        children.append(packed)
    return pos, _rebuild(structure, children)


def map_structure(func, *structures, **kwargs):
    """`func` over the leaves of `structures` (one structure, or several of the same shape)."""
    expand = kwargs.pop("expand_composites", False)
    check_types = kwargs.pop("check_types", True)
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types` and `expand_composites`, "
                         f"not: `{next(iter(kwargs))}`")
    if not structures:
        raise ValueError("Must provide at least one structure")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types, expand)
    flats = [flatten(s, expand) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)], expand)


def assert_same_structure(a, b, check_types=True, expand_composites=False, _whole=None):
    expand = expand_composites
    if is_nested(a, expand) != is_nested(b, expand):
        raise ValueError(
            f"The two structures don't have the same nested structure.\n\nFirst structure: {a!r}\n\n"
            f"Second structure: {b!r}")
    if not is_nested(a, expand):
        return
    if check_types and type(a) is not type(b) and not (
            isinstance(a, _abc.Mapping) and isinstance(b, _abc.Mapping)):
        raise TypeError(
            f"The two structures don't have the same sequence type. Input structure has type "
            f"{type(a)!r}, while shallow structure has type {type(b)!r}.")
    ca, cb = _children(a, expand), _children(b, expand)
    whole = _whole or (a, b)
    if len(ca) != len(cb):
        raise ValueError(_nested_difference(whole, f"The two structures don't have the same number of elements. "
                                                   f"First structure: {_shown(a)}. Second structure: {_shown(b)}"))
    if isinstance(a, _abc.Mapping) and _sorted_keys(a) != _sorted_keys(b):
        raise ValueError(_nested_difference(whole, f"The two dictionaries don't have the same set of keys. First "
                                                   f"structure has keys {_shown(list(a))}, while second structure "
                                                   f"has keys {_shown(list(b))}"))
    for x, y in zip(ca, cb):
        assert_same_structure(x, y, check_types, expand, whole)


def _shown(x) -> str:
    return f"type={type(x).__name__} str={x!r}"


def _nested_difference(whole, detail) -> str:
    """TensorFlow's words for two structures that differ somewhere inside: the whole structures
    first, then where."""
    first, second = whole
    return (f"The two structures don't have the same nested structure.\n\nFirst structure: {_shown(first)}\n\n"
            f"Second structure: {_shown(second)}\n\nMore specifically: {detail}")
