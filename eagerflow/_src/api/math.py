"""`tf.math`: elementwise math, comparisons, logic and reductions."""
from ..ops.math.elementwise import (abs, add, add_n, ceil, conj, cos, div_no_nan, divide, equal, erf, exp, expm1, floor,  # noqa: F401
                        floordiv, floormod, greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal,
                        log, log1p, logical_and, logical_not, logical_or, logical_xor, maximum, minimum, mod,
                        multiply, negative, not_equal, pow, reciprocal, round, rsqrt, scalar_mul, sigmoid,
                        sign, sin, sqrt, square, squared_difference, subtract, tan, tanh, truediv)
from ..ops.array.ordering import top_k  # noqa: F401
from ..ops.math.complex import imag, real  # noqa: F401
from ..ops.math.elementwise import div_no_nan as divide_no_nan  # noqa: F401  (TensorFlow's tf.math name)
from ..ops.math.reduce import (argmax, argmin, count_nonzero, cumsum, reduce_all, reduce_any,  # noqa: F401
                          reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std,
                          reduce_sum, reduce_variance)

# --- issue 9 point 5: everyday tf.math additions (ops/math/special.py, ops/math/segments.py, ops/linalg/norms.py) ---
from ..ops.nn.basic import softplus  # noqa: F401,E402
from ..ops.linalg.norms import l2_normalize, reduce_euclidean_norm  # noqa: F401,E402
from ..ops.math.segments import (bincount, segment_mean, segment_sum, unsorted_segment_mean,  # noqa: F401,E402
                            unsorted_segment_sum)
from ..ops.math.special import (acos, acosh, asin, asinh, atan, atan2, atanh, cosh, cumprod, digamma, erfc,  # noqa: F401,E402
                           lgamma, log_sigmoid, polygamma, reciprocal_no_nan, sinh, softsign, xlogy)
from ..ops.array.basic import invert_permutation  # noqa: F401,E402
from ..ops.math.cumulative import (accumulate_n, cumulative_logsumexp, is_non_decreasing,  # noqa: F401,E402
                              is_strictly_increasing, lbeta, polyval)
from ..ops.math.counting import confusion_matrix, in_top_k, zero_fraction  # noqa: F401,E402
from ..ops.math.nan_safe import multiply_no_nan, xdivy, xlog1py  # noqa: F401,E402
from ..ops.math.truncating import rint  # noqa: F401,E402
from ..ops.math.segment_products import segment_prod, unsorted_segment_prod, unsorted_segment_sqrt_n  # noqa: F401,E402
from ..ops.nn.basic import log_softmax, softmax  # noqa: F401,E402
from ..ops.math.segment_extremes import (segment_max, segment_min, unsorted_segment_max,  # noqa: F401,E402
                                    unsorted_segment_min)
# --- end everyday tf.math ---

# --- tf.math breadth: inverse error functions, incomplete gamma/beta, Bessel, zeta, nextafter, angle
# (ops/math/special_inverse.py, ops/math/bessel_zeta.py) ---
from . import math_special as special  # noqa: F401,E402
from ..ops.math.bessel_zeta import (angle, bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, nextafter,  # noqa: F401,E402
                               zeta)
from ..ops.math.special_inverse import betainc, erfcinv, erfinv, igamma, igammac, ndtri  # noqa: F401,E402
