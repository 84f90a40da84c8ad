"""`tf.nn.convolution` and `tf.nn.pool` (the N-d entry points), the transposed convolutions
(`conv_transpose`, `conv1d_transpose`) and 1-D pooling, composed from the 2-D ops (conv.py,
pooling.py) as TensorFlow's Python wrappers are, so each traces and differentiates through them.
"""
from __future__ import annotations

import numpy as np

from ...core.errors import UnimplementedError
from ...core.tensor import Tensor
from ..array import basic as _array
from . import conv as _conv
from ..array import joining as _joining
from . import pooling as _pooling
from ..operands import as_int_tensor, as_tensor, binary_operands
from .windows import check_format, four


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """`tf.nn.max_pool1d`: [N, W, C] pooling (run as 2-D pooling of height 1)."""
    _rank3(input, "max_pool1d")
    return _pooling.max_pool(input, ksize, strides, padding, data_format)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """`tf.nn.avg_pool1d`: [N, W, C] average pooling."""
    _rank3(input, "avg_pool1d")
    return _pooling.avg_pool(input, ksize, strides, padding, data_format)


def _rank3(input, fn_name):
    x = input if isinstance(input, Tensor) else as_tensor(input)
    if x.shape.rank is not None and x.shape.rank != 3:
        raise ValueError(f"`{fn_name}` expects a 3-D input [batch, width, channels]; got rank {x.shape.rank}")


def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None, dilations=None,
         name=None):
    """`tf.nn.pool`: N-D max or average pooling (1-D and 2-D here)."""
    x = input if isinstance(input, Tensor) else as_tensor(input)
    n = len(window_shape)
    if strides is not None and not isinstance(strides, int) and np.ndim(strides) <= 1 and len(strides) != n:
        raise ValueError(f"`len(strides)` should be {n}. Received: strides={strides} of length {len(strides)}")
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    if n not in (1, 2):
        raise UnimplementedError(None, None, f"eagerflow pools over 1 or 2 spatial dimensions; got {n}")
    dil = four(dilations, "dilations", n)[1:-1]
    if any(d != 1 for d in dil):
        if str(padding).upper() == "SAME":
            raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. "
                             f"Received: padding={padding} and dilation_rate={np.array(dil)}")
        raise UnimplementedError(None, None, "eagerflow does not implement dilated pooling")
    strides = [1] * n if strides is None else strides
    fn = _pooling.max_pool if pooling_type == "MAX" else _pooling.avg_pool
    return fn(x, list(window_shape), strides, padding, data_format)


def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None, name=None):
    """`tf.nn.convolution`: 1-D or 2-D convolution picked from the filter's rank."""
    f = as_tensor(filters)
    rank = f.shape.rank
    if rank == 3:
        return _conv.conv1d(input, f, 1 if strides is None else strides, padding, data_format or "NWC", dilations)
    if rank == 4:
        return _conv.conv2d(input, f, 1 if strides is None else strides, padding, data_format or "NHWC", dilations)
    raise UnimplementedError(None, None, f"eagerflow convolves over 1 or 2 spatial dimensions; filters of rank {rank}")


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC", dilations=None,
                     name=None):
    """`tf.nn.conv1d_transpose`: [N, W, C] input, [K, O, C] filters, run as conv2d_transpose of height 1."""
    check_format(data_format)
    x, f = binary_operands(input, filters, "Conv2DBackpropInput")
    shape = as_int_tensor(output_shape)
    s = four(strides, "strides", 1)
    d = four(dilations, "dilations", 1)
    x4 = _array.expand_dims(x, 1)
    f4 = _array.expand_dims(f, 0)
    shape4 = _joining.concat([shape[:1], as_tensor([1], shape.dtype), shape[1:]], 0)
    y = _conv.conv2d_transpose(x4, f4, shape4, [1, 1, s[1], 1], padding, dilations=[1, 1, d[1], 1])
    return _array.squeeze(y, [1])


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None, dilations=None,
                   name=None):
    """`tf.nn.conv_transpose`: conv1d_transpose or conv2d_transpose picked from the output rank."""
    n = len(output_shape) if not isinstance(output_shape, Tensor) else output_shape.shape[0]
    if n == 3:
        return conv1d_transpose(input, filters, output_shape, strides, padding, data_format or "NWC", dilations)
    if n == 4:
        return _conv.conv2d_transpose(input, filters, output_shape, strides, padding, data_format or "NHWC",
                                      dilations)
    raise UnimplementedError(None, None, f"eagerflow transposes 1-D or 2-D convolutions; output rank {n}")
