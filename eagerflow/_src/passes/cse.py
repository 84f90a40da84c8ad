"""Common-subexpression elimination: two stateless ops of one type, on the same inputs with equal
attributes, compute the same value; the later one is replaced by the earlier.

Stateful ops are never merged: two `tf.random.normal` calls draw different numbers and two
`tf.print`s print twice. Attribute values are compared with their type (`1`, `1.0` and `True` are
equal in Python but are different attributes), and arrays by dtype, shape and bytes.
"""
import numpy as np


def _attr_key(attrs):
    parts = []
    for k in sorted(attrs):
        v = attrs[k]
        if isinstance(v, np.ndarray):
            if v.size > 64:
                return None  # large constants are not worth comparing
            v = (v.dtype.str, v.shape, v.tobytes())
        elif isinstance(v, float):
            v = (float, repr(v))  # -0.0 is not 0.0; nan is nan
        elif isinstance(v, (list, tuple)):
            v = (type(v), tuple((type(e), e) for e in v))
        else:
            v = (type(v), v)
        try:
            hash(v)
        except TypeError:
            return None
        parts.append((k, v))
    return tuple(parts)


# Ops whose value depends on state that stateful ops may change between two calls.
_READS_STATE = frozenset({"ReadVariableOp"})


def eliminate_common_subexpressions(program):
    seen = {}
    epoch = 0  # bumped at every stateful op: two variable reads merge only with no write between
    for op in program.ops:
        if op.opdef.stateful:
            epoch += 1
            continue  # effects stay
        if op.type in ("Placeholder",) or all(id(t) in program.subst for t in op.outputs):
            continue  # replaced ops (forwarded, folded) are dead and keep their substitution
        attrs = _attr_key(op.attrs)
        if attrs is None:
            continue
        key = (op.type, tuple(id(program.resolve(t)) for t in op.inputs), attrs)
        if op.type in _READS_STATE:
            key += (epoch,)
        first = seen.get(key)
        if first is None:
            seen[key] = op
            continue
        for mine, theirs in zip(op.outputs, first.outputs):
            program.subst[id(mine)] = theirs
