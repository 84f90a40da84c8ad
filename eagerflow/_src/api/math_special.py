"""`tf.math.special`: the special functions TensorFlow groups there (the modified Bessel functions so far)."""
from ..ops.math.bessel_zeta import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: F401
