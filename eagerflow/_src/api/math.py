"""`tf.math`: elementwise math, comparisons and logic, special functions, reductions, scans and segments."""
# Elementwise arithmetic, comparisons and logic.
from ..ops.math.elementwise import (abs, add, add_n, ceil, conj, cos, div_no_nan, divide, equal, erf, exp, expm1, floor,  # noqa: F401
                        floordiv, floormod, greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal,
                        log, log1p, logical_and, logical_not, logical_or, logical_xor, maximum, minimum, mod,
                        multiply, negative, not_equal, pow, reciprocal, round, rsqrt, scalar_mul, sigmoid,
                        sign, sin, sqrt, square, squared_difference, subtract, tan, tanh, truediv)
from ..ops.math.elementwise import div_no_nan as divide_no_nan  # noqa: F401 - TensorFlow's tf.math name
from ..ops.math.nan_safe import multiply_no_nan, xdivy, xlog1py
from ..ops.math.truncating import rint  # noqa: F401
from ..ops.math.complex import imag, real  # noqa: F401
from ..ops.math.bessel_zeta import angle, nextafter  # noqa: F401
from ..ops.array.basic import invert_permutation  # noqa: F401

# Special functions and activations.
from ..ops.math.special import (acos, acosh, asin, asinh, atan, atan2, atanh, cosh, digamma, erfc, lgamma,  # noqa: F401
                           log_sigmoid, polygamma, reciprocal_no_nan, sinh, softsign, xlogy)
from ..ops.math.special_inverse import betainc, erfcinv, erfinv, igamma, igammac, ndtri  # noqa: F401
from ..ops.math.bessel_zeta import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, zeta  # noqa: F401
from ..ops.math.cumulative import lbeta, polyval  # noqa: F401
from ..ops.nn.basic import log_softmax, softmax, softplus  # noqa: F401

# Reductions, scans and norms.
from ..ops.math.reduce import (argmax, argmin, count_nonzero, cumsum, reduce_all, reduce_any,  # noqa: F401
                          reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std,
                          reduce_sum, reduce_variance)
from ..ops.math.special import cumprod  # noqa: F401
from ..ops.math.cumulative import accumulate_n, cumulative_logsumexp, is_non_decreasing, is_strictly_increasing  # noqa: F401
from ..ops.linalg.norms import l2_normalize, reduce_euclidean_norm  # noqa: F401
from ..ops.array.ordering import top_k  # noqa: F401
from ..ops.math.counting import confusion_matrix, in_top_k, zero_fraction  # noqa: F401

# Segments.
from ..ops.math.segments import (bincount, segment_mean, segment_sum, unsorted_segment_mean,  # noqa: F401
                            unsorted_segment_sum)
from ..ops.math.segment_products import segment_prod, unsorted_segment_prod, unsorted_segment_sqrt_n  # noqa: F401
from ..ops.math.segment_extremes import segment_max, segment_min, unsorted_segment_max, unsorted_segment_min  # noqa: F401

from . import math_special as special  # noqa: F401
