"""flatten / pack_sequence_as over lists, tuples, dicts and namedtuples (TensorFlow's `tf.nest`).

Why: gradients take nested sources, tf.function keys its cache on nested arguments, and both must
agree with TensorFlow on order: dict entries are visited in sorted key order.

A composite (an object whose type has `__tf_flatten__` / `__tf_unflatten__`, e.g. TensorArray) is a
structure over the tensors it returns from `__tf_flatten__`: that is how `tf.while_loop` and
`tf.cond` carry it. (TensorFlow expands composites only with `expand_composites=True`; we always do.)
"""
from __future__ import annotations

import collections.abc as _abc


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _is_composite(x) -> bool:
    return hasattr(type(x), "__tf_flatten__")


def is_nested(x) -> bool:
    return isinstance(x, (list, tuple, dict, _abc.Mapping)) or _is_composite(x)


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def _children(x):
    if _is_composite(x):
        return list(x.__tf_flatten__())
    if isinstance(x, _abc.Mapping):
        return [x[k] for k in _sorted_keys(x)]
    return list(x)


def flatten(structure, expand_composites=False):
    """The leaves of `structure` in TensorFlow's order. A non-nested value gives `[value]`."""
    out = []
    _flatten_into(structure, out)
    return out


def _flatten_into(x, out):
    if isinstance(x, (list, tuple, _abc.Mapping)) or _is_composite(x):
        for child in _children(x):
            _flatten_into(child, out)
    else:
        out.append(x)


def _rebuild(template, children):
    if _is_composite(template):
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
    if not is_nested(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    pos, result = _pack(structure, flat_sequence, 0)
    if pos != len(flat_sequence):
        raise ValueError(
            f"Could not pack sequence. Structure had {pos} atoms, but flat_sequence had "
            f"{len(flat_sequence)} items.")
    return result


def _pack(structure, flat, pos):
    if not is_nested(structure):
        if pos >= len(flat):
            raise ValueError("Could not pack sequence: flat_sequence is too short for the structure.")
        return pos + 1, flat[pos]
    children = []
    for child in _children(structure):
        pos, packed = _pack(child, flat, pos)
        children.append(packed)
    return pos, _rebuild(structure, children)


def map_structure(func, *structures, **kwargs):
    if not structures:
        raise ValueError("Must provide at least one structure")
    for other in structures[1:]:
        assert_same_structure(structures[0], other)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)])


def assert_same_structure(a, b, check_types=True, expand_composites=False):
    if is_nested(a) != is_nested(b):
        raise ValueError(
            f"The two structures don't have the same nested structure.\n\nFirst structure: {a!r}\n\n"
            f"Second structure: {b!r}")
    if not is_nested(a):
        return
    if check_types and type(a) is not type(b) and not (
            isinstance(a, _abc.Mapping) and isinstance(b, _abc.Mapping)):
        raise TypeError(
            f"The two structures don't have the same sequence type. Input structure has type "
            f"{type(a)!r}, while shallow structure has type {type(b)!r}.")
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        raise ValueError(
            f"The two structures don't have the same number of elements.\n\nFirst structure: {a!r}\n\n"
            f"Second structure: {b!r}")
    if isinstance(a, _abc.Mapping) and _sorted_keys(a) != _sorted_keys(b):
        raise ValueError(f"The two dictionaries don't have the same set of keys: {list(a)} vs {list(b)}")
    for x, y in zip(ca, cb):
        assert_same_structure(x, y, check_types)
