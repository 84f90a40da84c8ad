"""What every keras.ops family shares: Keras 3.15's dtype promotion (Python scalars are weak, as in JAX) and
the conversions that apply it, so each family file holds only its functions."""
from __future__ import annotations

import builtins

import numpy as np

FLOATX = "float32"
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def tf():
    """The eagerflow package, imported when first needed (keras.ops is loaded lazily with tf.keras)."""
    import eagerflow
    return eagerflow


def is_python_scalar(v):
    return isinstance(v, (bool, int, float, complex)) and not isinstance(v, np.generic)


def np_name(dtype):
    return dtype.name if hasattr(dtype, "name") and not isinstance(dtype, np.dtype) else np.dtype(dtype).name


def result_type(*values):
    """Keras' promotion of the operands' dtypes (Python scalars are weak)."""
    strong = [np_name(v.dtype) for v in values if not is_python_scalar(v) and hasattr(v, "dtype")]
    strong += [np.asarray(v).dtype.name for v in values
               if not is_python_scalar(v) and not hasattr(v, "dtype")]
    weak = [type(v) for v in values if is_python_scalar(v)]
    if not strong:
        if complex in weak:
            return "complex64"
        if float in weak:
            return FLOATX
        return "int32" if int in weak else "bool"
    kinds = [np.dtype(n).kind for n in strong if n != "bfloat16"] + (["f"] if "bfloat16" in strong else [])
    top = builtins.max(kinds, key=_KIND_RANK.get)
    weak_rank = builtins.max((_KIND_RANK["c"] if t is complex else _KIND_RANK["f"] if t is float else
                              _KIND_RANK["i"] if t is int else 0 for t in weak), default=0)
    if weak_rank > _KIND_RANK[top]:  # a Python float beside integers: floatx; a Python int beside bools: int32
        return {3: "complex64", 2: FLOATX, 1: "int32"}[weak_rank]
    same = [n for n in strong if (np.dtype(n).kind if n != "bfloat16" else "f") in
            (("u", "i") if top in "ui" else (top,))]
    if "bfloat16" in same:
        return "bfloat16" if builtins.all(n == "bfloat16" for n in same) else "float32"
    return np.result_type(*[np.dtype(n) for n in same]).name


def as_dtype(x, dtype):
    t = tf()
    if is_python_scalar(x) or not hasattr(x, "dtype"):
        return t.constant(np.asarray(x, dtype=dtype) if dtype != "bfloat16" else x, dtype=dtype)
    return x if np_name(x.dtype) == dtype else t.cast(x, dtype)


def promoted(*values):
    dtype = result_type(*values)
    return [as_dtype(v, dtype) for v in values]


def float_result(*values):
    """The operands promoted, then integers and bools taken to floatx (Keras' rule for sqrt, mean, divide...)."""
    dtype = result_type(*values)
    if np.dtype(dtype if dtype != "bfloat16" else "float32").kind not in "fc":
        dtype = FLOATX
    return [as_dtype(v, dtype) for v in values]


def tensor(x, dtype=None):
    """x as an eagerflow tensor; lists of Python numbers get Keras' defaults (int32, floatx)."""
    t = tf()
    if dtype is None and not hasattr(x, "dtype") and not is_python_scalar(x):
        a = np.asarray(x)
        if a.dtype.kind == "f":
            return t.constant(a.astype(FLOATX))
        if a.dtype.kind in "iu" and a.dtype.itemsize == 8:
            return t.constant(a.astype("int32"))
    if dtype is None and is_python_scalar(x):
        return t.constant(x, dtype=result_type(x))
    return t.convert_to_tensor(x, dtype=dtype)


def is_float(x):
    return tensor(x).dtype.is_floating


def axes_list(axis, rank):
    """axis (None, an int or a sequence) as a sorted list of non-negative axes."""
    if axis is None:
        return list(range(rank))
    return sorted(a % rank for a in ([axis] if isinstance(axis, int) else axis))


def public(names):
    """The module's `__dir__`: exactly Keras' names for it (helpers and imports stay hidden)."""
    names = sorted(names)
    return lambda: list(names)
