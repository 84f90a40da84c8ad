"""Common-subexpression elimination: two stateless ops of one type, on the same inputs with equal
attributes, compute the same value; the later one is replaced by the earlier."""
import numpy as np


def _attr_key(attrs):
    parts = []
    for k in sorted(attrs):
        v = attrs[k]
        if isinstance(v, np.ndarray):
            if v.size > 64:
                return None  # large constants are not worth comparing
            v = (v.dtype.str, v.shape, v.tobytes())
        try:
            hash(v)
        except TypeError:
            return None
        parts.append((k, v))
    return tuple(parts)


def eliminate_common_subexpressions(program):
    seen = {}
    for op in program.ops:
        if op.opdef.stateful or op.type in ("Placeholder",):
            continue
        attrs = _attr_key(op.attrs)
        if attrs is None:
            continue
        key = (op.type, tuple(id(program.resolve(t)) for t in op.inputs), attrs)
        first = seen.get(key)
        if first is None:
            seen[key] = op
            continue
        for mine, theirs in zip(op.outputs, first.outputs):
            program.subst[id(mine)] = theirs
