"""DType objects with TensorFlow's names, and the rules for inferring a dtype from a Python value.

Why a class of our own instead of bare NumPy dtypes: users compare against `tf.float32`, print
`tf.float32`, and ask `dtype.is_floating`; and TensorFlow's inference rules (a Python int is int32,
a Python float is float32) differ from NumPy's (int64/float64). Every DType is a singleton, so
dtype checks on the hot path are `is` comparisons.
"""
from __future__ import annotations

import numpy as np


class DType:
    """A tensor element type: `tf.float32`, `tf.int32`, `tf.string`, ..."""

    __slots__ = ("name", "as_numpy_dtype", "_np", "is_floating", "is_integer", "is_complex",
                 "is_bool", "is_unsigned", "size", "__weakref__")

    def __init__(self, name: str, np_type, kind: str):
        self.name = name
        self._np = np.dtype(np_type)
        self.as_numpy_dtype = self._np.type
        self.is_floating = kind == "f"
        self.is_integer = kind in ("i", "u")
        self.is_unsigned = kind == "u"
        self.is_complex = kind == "c"
        self.is_bool = kind == "b"
        self.size = self._np.itemsize if kind != "s" else 0

    @property
    def np_dtype(self) -> np.dtype:
        return self._np

    @property
    def base_dtype(self) -> "DType":
        return self

    @property
    def real_dtype(self) -> "DType":
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    @property
    def is_numpy_compatible(self) -> bool:
        return True

    @property
    def is_quantized(self) -> bool:
        return False

    @property
    def is_differentiable(self) -> bool:
        """Whether a GradientTape tracks tensors of this dtype: floats, complex, and variant (a
        TensorList's gradient is a list of its items' gradients), as in TensorFlow."""
        return self.is_floating or self.is_complex or self.name == "variant"

    @property
    def min(self):
        if self.is_floating:
            return float(np.finfo(self._np).min)
        if self.is_integer:
            return int(np.iinfo(self._np).min)
        if self.is_bool:
            return False
        raise TypeError(f"Cannot find minimum value of {self}.")

    @property
    def max(self):
        if self.is_floating:
            return float(np.finfo(self._np).max)
        if self.is_integer:
            return int(np.iinfo(self._np).max)
        if self.is_bool:
            return True
        raise TypeError(f"Cannot find maximum value of {self}.")

    def is_compatible_with(self, other) -> bool:
        return self is as_dtype(other)

    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other):
        if self is other:
            return True
        if other is None:
            return False
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    # Identity hashing in C: DTypes are singletons, and trace keys hash them on every call.
    # (`tf.float32 == np.float32` still holds; the two just never share a dict slot.)
    __hash__ = object.__hash__

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16, "f")
float32 = DType("float32", np.float32, "f")
float64 = DType("float64", np.float64, "f")
int8 = DType("int8", np.int8, "i")
int16 = DType("int16", np.int16, "i")
int32 = DType("int32", np.int32, "i")
int64 = DType("int64", np.int64, "i")
uint8 = DType("uint8", np.uint8, "u")
uint16 = DType("uint16", np.uint16, "u")
uint32 = DType("uint32", np.uint32, "u")
uint64 = DType("uint64", np.uint64, "u")
bool_ = DType("bool", np.bool_, "b")
complex64 = DType("complex64", np.complex64, "c")
complex128 = DType("complex128", np.complex128, "c")
# Strings are stored as NumPy object arrays of `bytes`, as TensorFlow's `.numpy()` returns them.
string = DType("string", np.object_, "s")
# A resource is a handle to state (a Variable); its "value" is the Variable object itself.
resource = DType("resource", np.object_, "r")
variant = DType("variant", np.object_, "v")


class _BFloat16DType(DType):
    """`tf.bfloat16`. NumPy has no bfloat16: its arrays come from the optional `ml_dtypes` package
    (`pip install 'eagerflow[bfloat16]'`, also part of the `xla` extra). The DType itself exists
    without it (name, size, limits), and ml_dtypes is imported only when a bfloat16 value is first
    made, so `import eagerflow` stays NumPy-only and fast."""

    __slots__ = ()

    def __init__(self):
        self.name = "bfloat16"
        self.is_floating = True
        self.is_integer = self.is_unsigned = self.is_complex = self.is_bool = False
        self.size = 2

    @property
    def _np(self) -> np.dtype:
        return bfloat16_numpy_dtype()

    @property
    def as_numpy_dtype(self):
        return bfloat16_numpy_dtype().type

    # 8 exponent bits as float32, 7 mantissa bits: largest finite (2 - 2**-7) * 2**127
    @property
    def min(self):
        return -3.3895313892515355e+38

    @property
    def max(self):
        return 3.3895313892515355e+38


bfloat16 = _BFloat16DType()
_BFLOAT16_NP: list = []  # the NumPy dtype of ml_dtypes.bfloat16, once loaded

BFLOAT16_MISSING = ("tf.bfloat16 values need the `ml_dtypes` package, which NumPy's bfloat16 arrays come from: "
                    "pip install 'eagerflow[bfloat16]' (or pip install ml_dtypes)")


def bfloat16_numpy_dtype() -> np.dtype:
    """NumPy's dtype for bfloat16 (ml_dtypes'), imported on first use; ImportError naming the extra
    when ml_dtypes is not installed."""
    if _BFLOAT16_NP:
        return _BFLOAT16_NP[0]
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError(BFLOAT16_MISSING) from None
    npd = np.dtype(ml_dtypes.bfloat16)
    _BY_NP[npd] = bfloat16
    _BFLOAT16_NP.append(npd)
    return npd


def round_to_bfloat16(value) -> np.ndarray:
    """`value` (any numeric array) as a bfloat16 array, rounded as TensorFlow's Cast kernel rounds.

    Why our own rounding: TensorFlow converts every source type to float32 first and then rounds
    float32 to bfloat16, both round-to-nearest-even; ml_dtypes' `astype` has changed over versions
    (0.7 rounds a float64 in one step, so `1 + 2**-8 + 2**-30` becomes 1.0078125, where TensorFlow
    gives 1.0). Doing the float32 -> bfloat16 step on the bits here makes the values the same with
    every ml_dtypes version; ml_dtypes only supplies the dtype the bits are viewed as. A complex
    value keeps its real part, as the Cast kernel does. NaN becomes bfloat16's quiet NaN with the
    sign kept (0x7FC0 / 0xFFC0), as TensorFlow's rounding does."""
    bf16 = bfloat16_numpy_dtype()
    arr = np.asarray(value)
    if arr.dtype == bf16:
        return arr
    if arr.dtype.kind == "c":
        arr = arr.real
    with np.errstate(over="ignore"):  # past float32's range is inf, silently, as in TensorFlow
        f32 = np.ascontiguousarray(arr, dtype=np.float32)
    bits = f32.view(np.uint32)
    # round to nearest, ties to even: add 0x7FFF plus the lowest kept bit, then drop the low 16 bits
    rounded = ((bits + (np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))) >> np.uint32(16))
    out = np.asarray(rounded, dtype=np.uint16)
    nan = np.isnan(f32)
    if nan.any():
        out = np.where(nan, np.where(np.signbit(f32), np.uint16(0xFFC0), np.uint16(0x7FC0)), out).astype(np.uint16)
    return out.reshape(arr.shape).view(bf16)


def cast_array(array, dtype: DType) -> np.ndarray:
    """`array.astype(dtype.np_dtype)` with TensorFlow's bfloat16 rules both ways: into bfloat16 through
    `round_to_bfloat16`, out of bfloat16 widened exactly to float32 first (as TensorFlow's kernels do;
    ml_dtypes' own casts, e.g. of an out-of-range value to int32, change between its versions)."""
    if dtype is bfloat16:
        return round_to_bfloat16(array)
    array = np.asarray(array)
    if array.dtype.name == "bfloat16":
        array = array.astype(np.float32)
    return array.astype(dtype.np_dtype)


ALL_DTYPES = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
              bool_, complex64, complex128, string)
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NAME.update({"half": float16, "float": float32, "double": float64})
_BY_NP = {d.np_dtype: d for d in ALL_DTYPES}
_BY_NAME.update({"resource": resource, "variant": variant, "bfloat16": bfloat16})
# The `dtype` of a core.variant.VariantValue: lets kernels return variants like arrays.
VARIANT_KEY = "<variant>"
_BY_NP[VARIANT_KEY] = variant
# NumPy unicode/bytes arrays become tf.string.
_PY_TYPES = {float: float32, int: int32, bool: bool_, complex: complex128, str: string, bytes: string}


def as_dtype(value) -> DType:
    """Converts a DType, NumPy dtype, dtype name or Python type to a DType (TF's `tf.as_dtype`)."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        found = _BY_NAME.get(value)
        if found is not None:
            return found
    if value in _PY_TYPES:
        return _PY_TYPES[value]
    try:
        npd = np.dtype(value)
    except TypeError:
        npd = None
    if npd is not None:
        found = _BY_NP.get(npd)
        if found is not None:
            return found
        if npd.kind in ("U", "S"):
            return string
        if npd.name == "bfloat16":  # ml_dtypes' array before any bfloat16 tensor was made
            bfloat16_numpy_dtype()  # registers it in _BY_NP
            if _BY_NP.get(npd) is bfloat16:
                return bfloat16
    raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType.")


def from_numpy(npd: np.dtype) -> DType:
    """The DType of a NumPy dtype; the hot-path version of `as_dtype` for arrays."""
    found = _BY_NP.get(npd)
    if found is None:
        return as_dtype(npd)
    return found
