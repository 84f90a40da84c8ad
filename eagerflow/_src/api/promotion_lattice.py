"""The dtype of `a op b` under `experimental_enable_numpy_behavior(dtype_conversion_mode="all" | "safe")`:
TensorFlow's newer promotion, a lattice rather than NumPy's table (api/numpy_promotion.py applies it).

Operands are (dtype, weak): a tensor's dtype is strong; a Python int, float or complex is weak
(`int`, `float`, `complex` kinds with no width), a Python bool is a strong bool.
* Two strong dtypes: the one of the higher kind (bool < unsigned < signed < float < complex), or of
  the same kind the wider (NumPy's rule within integers); a float beside a narrower complex gives the
  complex wide enough for it (`float64` and `complex64`: complex128).
  So `int32 + float16` is float16 and `int64 + float32` float32, where NumPy (legacy) gives float64.
* A weak int takes the other's dtype (int32 beside a bool). A weak float takes a float or complex
  dtype, is float32 beside a bool and float64 beside an integer. A weak complex takes a complex dtype,
  is complex64 beside float16/float32 and complex128 beside bool, integers and float64.
"safe" refuses, with TensorFlow's TypeError, a promotion that may lose values: a strong dtype whose
values the result cannot all hold (int32 into float32, int64 into any float, float64 into complex64,
so `float64 + complex64` too), and an integer beside a weak float.
"""
from __future__ import annotations

import numpy as np

_KIND_ORDER = {"b": 0, "u": 1, "i": 2, "f": 3, "c": 4}
WEAK_INT, WEAK_FLOAT, WEAK_COMPLEX = "int", "float", "complex"
# The widest integer each floating type holds exactly (its significand bits, sign aside).
_EXACT_INT_BITS = {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}


def operand(x, dtype):
    """(NumPy dtype, weak) of an operand: `dtype` for a tensor, else the Python scalar's kind."""
    if dtype is not None:
        return np.dtype(dtype), False
    if isinstance(x, bool):
        return np.dtype(np.bool_), False
    if isinstance(x, int):
        return WEAK_INT, True
    if isinstance(x, float):
        return WEAK_FLOAT, True
    return WEAK_COMPLEX, True


def _strong_result(a, b):
    ka, kb = _KIND_ORDER[a.kind], _KIND_ORDER[b.kind]
    if ka != kb:
        low, high = (a, b) if ka < kb else (b, a)
        if high.kind == "c" and low.kind == "f" and low.itemsize * 2 > high.itemsize:
            return np.dtype(np.complex128)
        return high
    return np.result_type(a, b)


def _weak_result(weak, strong):
    kind = strong.kind
    if weak == WEAK_INT:
        return np.dtype(np.int32) if kind == "b" else strong
    if weak == WEAK_FLOAT:
        if kind in "fc":
            return strong
        return np.dtype(np.float32) if kind == "b" else np.dtype(np.float64)
    if kind == "c":
        return strong
    return np.dtype(np.complex64) if kind == "f" and strong.itemsize <= 4 else np.dtype(np.complex128)


def _holds(result, dtype):
    """Whether every value of `dtype` is exactly a value of `result`."""
    if dtype.kind == "b" or dtype == result:
        return True
    if result.kind in "ui" and dtype.kind in "ui":
        return np.can_cast(dtype, result, "safe")
    if result.kind in "fc":
        real = np.dtype(np.float64) if result == np.complex128 else (
            np.dtype(np.float32) if result == np.complex64 else result)
        if dtype.kind in "ui":
            return dtype.itemsize * 8 - (dtype.kind == "i") <= _EXACT_INT_BITS.get(real, 0)
        return np.can_cast(dtype, result, "safe") and dtype.kind != "c" or dtype == result
    return False


def result_dtype(a, b, safe):
    """The result's NumPy dtype for operands `a`, `b` ((dtype, weak) pairs); in safe mode a lossy
    promotion is TensorFlow's TypeError."""
    (ta, wa), (tb, wb) = a, b
    if wa and wb:
        raise TypeError("two Python scalars are not promoted here")
    if not wa and not wb:
        result = _strong_result(ta, tb)
        lossy = not (_holds(result, ta) and _holds(result, tb)) or result not in (ta, tb)
    else:
        weak, strong = (ta, tb) if wa else (tb, ta)
        result = _weak_result(weak, strong)
        lossy = strong.kind in "ui" and weak == WEAK_FLOAT
    if safe and lossy:
        raise TypeError(
            f"In promotion mode PromoMode.SAFE, implicit dtype promotion between {_shown(a)} and {_shown(b)} is "
            f"disallowed. You need to explicitly specify the dtype in your op, or relax your dtype promotion "
            f"rules (such as from SAFE mode to ALL mode).")
    return result


def _shown(pair):
    dtype, weak = pair
    if weak:
        dtype = {WEAK_INT: np.dtype(np.int32), WEAK_FLOAT: np.dtype(np.float32),
                 WEAK_COMPLEX: np.dtype(np.complex128)}[dtype]
    return f"(<dtype: '{dtype.name}'>, weak={weak})"
