"""keras.ops.numpy (Keras' keras/src/ops/numpy.py): NumPy's functions with Keras' dtype rules. The functions
live in five family files; this module is the list Keras exports, each name taken from the file defining it."""
from __future__ import annotations

from . import _np_arrays, _np_elementwise, _np_numeric, _np_products, _np_reductions
from ._common import public

# Keras 3.15's keras.ops.numpy, less NOT_YET (tests/keras/test_ops_surface.py lists those, with reasons)
__all__ = [
    "abs", "absolute", "add", "all", "allclose", "amax", "amin", "angle", "any", "append", "arange", "arccos",
    "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "argmin", "argpartition", "argsort",
    "array", "array_split", "average", "bartlett", "bincount", "bitwise_and", "bitwise_invert", "bitwise_left_shift",
    "bitwise_not", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "blackman", "broadcast_to", "cbrt", "ceil", "clip",
    "concatenate", "conj", "conjugate", "copy", "corrcoef", "correlate", "cos", "cosh", "count_nonzero", "cross",
    "cumprod", "cumsum", "deg2rad", "diag", "diagflat", "diagonal", "diff", "digitize", "divide", "divide_no_nan",
    "dot", "dsplit", "dstack", "einsum", "empty", "empty_like", "equal", "exp", "exp2", "expand_dims", "expm1",
    "eye", "fabs", "flip", "fliplr", "flipud", "floor", "floor_divide", "fmax", "fmin", "fmod", "full",
    "full_like", "gcd", "geomspace", "get_item", "greater", "greater_equal", "hamming", "hanning", "heaviside",
    "histogram", "hsplit", "hstack", "hypot", "i0", "identity", "imag", "inner", "isclose", "isfinite", "isin",
    "isinf", "isnan", "isneginf", "isposinf", "isreal", "kaiser", "kron", "lcm", "ldexp", "left_shift", "less", "less_equal",
    "linspace", "log", "log10", "log1p", "log2", "logaddexp", "logaddexp2", "logical_and", "logical_not",
    "logical_or", "logical_xor", "logspace", "matmul", "max", "maximum", "mean", "median", "meshgrid", "min",
    "minimum", "mod", "moveaxis", "multiply", "nan_to_num", "nanargmax", "nanargmin", "nancumprod", "nancumsum",
    "nanmax", "nanmean", "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum",
    "nanvar", "ndim", "negative", "nextafter", "nonzero", "not_equal", "ones", "ones_like", "outer", "pad",
    "percentile", "power", "prod", "ptp", "quantile", "rad2deg", "ravel", "real", "reciprocal", "repeat",
    "reshape", "roll", "right_shift", "rot90", "round", "searchsorted", "select", "sign", "signbit", "sin", "sinc", "sinh",
    "size", "slogdet", "sort", "split", "sqrt", "square", "squeeze", "stack", "std", "subtract", "sum",
    "swapaxes", "take", "take_along_axis", "tan", "tanh", "tensordot", "tile", "trace", "transpose", "trapezoid",
    "tri", "tril", "triu", "true_divide", "trunc", "unique", "unravel_index", "vander", "var", "vdot",
    "vectorize", "view", "vsplit", "vstack", "where", "zeros", "zeros_like"
]
__dir__ = public(__all__)
_FAMILIES = (_np_elementwise, _np_numeric, _np_reductions, _np_arrays, _np_products)
globals().update({name: next(getattr(f, name) for f in _FAMILIES if hasattr(f, name)) for name in __all__})
