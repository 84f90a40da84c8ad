"""`tf.bitwise`: and, or, xor, invert and shifts on integer tensors."""
from ..ops.math.bitwise_shift import left_shift, right_shift  # noqa: F401
from ..ops.math.elementwise import bitwise_and, bitwise_or, bitwise_xor  # noqa: F401
from ..ops.math.elementwise import invert  # noqa: F401
