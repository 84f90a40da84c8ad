"""Fills core/tensor.py's operator table: which op function each Python operator of a tensor calls.

This is the one place where the two meet. core/ defines Tensor but may not import ops/ (ops/ builds
on core/, and the reverse import made core/ and ops/ one import cycle), so ops/ registers its
functions into `core.tensor.op_table` when this module is imported. eagerflow/__init__.py imports
it right after core/, before any user code can apply an operator to a tensor.
"""
from __future__ import annotations

from ..core.tensor import op_table
from .array import basic as array, joining
from .math import elementwise as math
from .linalg import matmul

op_table.register(
    add=math.add,                          # a + b
    subtract=math.subtract,                # a - b
    multiply=math.multiply,                # a * b
    truediv=math.truediv,                  # a / b
    floordiv=math.floordiv,                # a // b
    floormod=math.floormod,                # a % b
    pow=math.pow,                          # a ** b
    matmul=matmul.matmul,                  # a @ b
    negative=math.negative,                # -a
    abs=math.abs,                          # abs(a)
    invert=math.invert_,                   # ~a: logical not for bool, bitwise for integers
    and_=math.and_,                        # a & b: logical for bool, bitwise for integers
    or_=math.or_,                          # a | b
    xor=math.xor_,                         # a ^ b
    less=math.less,                        # a < b
    less_equal=math.less_equal,            # a <= b
    greater=math.greater,                  # a > b
    greater_equal=math.greater_equal,      # a >= b
    equals=math.tensor_equals,             # a == b: elementwise, or identity where shapes differ
    not_equals=math.tensor_not_equals,     # a != b
    getitem=array.getitem,                 # a[key]: strided slice
    unstack=joining.unstack,               # iter(a)
    stack=joining.stack,                   # convert_to_tensor([tensor, ...]) packs the list
)
