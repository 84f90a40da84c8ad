"""keras.ops.rearrange: einops' reshape-and-transpose patterns ("b (h p) w c -> b h (p w c)") as one reshape,
one transpose and one reshape of eagerflow ops."""
from __future__ import annotations

import math
import re

from ._common import tensor, tf


def _groups(side):
    """'b (h w) c' -> [['b'], ['h', 'w'], ['c']]."""
    tokens = re.findall(r"\(|\)|[A-Za-z_][A-Za-z0-9_]*|\S", side)
    groups, current = [], None
    for token in tokens:
        if token == "(":
            if current is not None:
                raise ValueError(f"Nested parentheses are not supported in rearrange. Received: {side!r}")
            current = []
        elif token == ")":
            if current is None:
                raise ValueError(f"Unbalanced parentheses in rearrange pattern. Received: {side!r}")
            groups.append(current)
            current = None
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", token):
            (current if current is not None else groups).append(token if current is not None else [token])
        else:
            raise ValueError(f"Unsupported token {token!r} in rearrange pattern (ellipsis and anonymous axes are not "
                             "supported yet).")
    if current is not None:
        raise ValueError(f"Unbalanced parentheses in rearrange pattern. Received: {side!r}")
    return groups


def rearrange(tensor_, pattern, **axes_lengths):
    t = tf()
    x = tensor(tensor_)
    if "->" not in pattern:
        raise ValueError(f"Pattern must contain '->'. Received: {pattern}")
    left, right = (_groups(side) for side in pattern.split("->"))
    # a left side of the wrong rank fails in the first reshape, with TensorFlow's error (as Keras on TF)
    left_names = [n for g in left for n in g]
    right_names = [n for g in right for n in g]
    if sorted(left_names) != sorted(right_names) or len(set(left_names)) != len(left_names):
        raise ValueError(f"The axes of both sides of the pattern must be the same, each once. Received: {pattern}")
    sizes = dict(axes_lengths)
    for group, dim in zip(left, x.shape.as_list()):
        unknown = [n for n in group if n not in sizes]
        known = math.prod(sizes[n] for n in group if n in sizes)
        if len(unknown) > 1:
            raise ValueError(f"Could not infer the sizes of {unknown} in {pattern}: pass them as keyword arguments.")
        if unknown:
            sizes[unknown[0]] = dim // known
        elif known != dim:
            raise ValueError(f"Shape mismatch for the axes {group}: {known} != {dim}.")
    x = t.reshape(x, [sizes[n] for n in left_names])
    x = t.transpose(x, [left_names.index(n) for n in right_names])
    return t.reshape(x, [math.prod(sizes[n] for n in g) for g in right])
