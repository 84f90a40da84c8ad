"""The rest of everyday `tf.nn`, composed from existing ops (so each traces and differentiates
through what it is made of, as TensorFlow's Python wrappers do): crelu, the weighted and Poisson
losses, the distribution-strategy loss scalers, moment helpers, `pool`, `convolution`, the
transposed convolutions and 1-D pooling.
"""
from __future__ import annotations

import math as _pymath

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.tensor import Tensor
from ..array import basic as _array
from . import conv as _conv
from ..array import joining as _joining
from ..math import elementwise as _math
from . import basic as _nn
from . import pooling as _pooling
from ..math import reduce as _reduce
from ..array import slicing as _slicing
from ..operands import as_int_tensor, as_tensor, binary_operands
from ..registry import static_value
from .windows import check_format, four


def _c(value, like):
    return as_tensor(value, like.dtype)


def crelu(features, axis=-1, name=None):
    """`tf.nn.crelu`: relu of [x, -x] concatenated along `axis` (twice the channels)."""
    x = as_tensor(features)
    return _nn.relu(_joining.concat([x, -x], axis))


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """`tf.nn.weighted_cross_entropy_with_logits`: sigmoid cross entropy whose positive term is
    scaled by `pos_weight`, in TensorFlow's overflow-free form
    (1 - z) x + (1 + (q - 1) z) (log1p(exp(-|x|)) + relu(-x))."""
    x = as_tensor(logits)
    z = as_tensor(labels, x.dtype)
    log_weight = 1 + (pos_weight - 1) * z
    return (1 - z) * x + log_weight * (_math.log1p(_math.exp(-_math.abs(x))) + _nn.relu(-x))


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """`tf.nn.log_poisson_loss`: exp(c) - z c; with `compute_full_loss` the Stirling term
    z log z - z + 0.5 log(2 pi z) is added where z > 1."""
    c = as_tensor(log_input)
    z = as_tensor(targets, c.dtype)
    if c.shape.rank is not None and z.shape.rank is not None and not c.shape.is_compatible_with(z.shape):
        raise ValueError(f"`log_input` and `targets` must have the same shape, received "
                         f"({tuple(c.shape.as_list())} vs {tuple(z.shape.as_list())}).")
    result = _math.exp(c) - c * z
    if compute_full_loss:
        stirling = z * _math.log(z) - z + 0.5 * _math.log(_c(2 * _pymath.pi, z) * z)
        small = _math.logical_and(_math.greater_equal(z, _c(0, z)), _math.less_equal(z, _c(1, z)))
        result = result + _array.where(small, _array.zeros_like(z), stirling)
    return result


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """`tf.nn.compute_average_loss`: sum(loss * weight) / global_batch_size (one replica: by
    default the batch's size, the first dimension). Integer losses are averaged in float64, as
    TensorFlow does."""
    loss = as_tensor(per_example_loss)
    if loss.shape.rank == 0:
        raise ValueError(f"Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         f"Received per_example_loss={loss} with rank 0")
    if not loss.dtype.is_floating:
        loss = _math.cast(loss, _dt.float64)
    if sample_weight is not None:
        loss = loss * as_tensor(sample_weight, loss.dtype)
    if global_batch_size is None:
        batch = _array.shape(loss)[0]
    else:
        batch = as_tensor(global_batch_size)
        value = static_value(batch)
        if value is not None and np.any(np.asarray(value) < 0):
            raise InvalidArgumentError(None, None, f"global_batch_size must be non-negative.  Condition x >= 0 did "
                                                   f"not hold element-wise: x (shape=() dtype={batch.dtype.name}) = "
                                                   f"{value}")
    return _math.div_no_nan(_reduce.reduce_sum(loss), _math.cast(batch, loss.dtype))


def scale_regularization_loss(regularization_loss):
    """`tf.nn.scale_regularization_loss`: the sum of the losses (a list is stacked) divided by the
    number of replicas (one)."""
    loss = as_tensor(regularization_loss)
    return _reduce.reduce_sum(loss) / _c(1, loss)


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """`tf.nn.sufficient_statistics`: (count, sum of (x - shift), sum of (x - shift)**2, shift)."""
    x = as_tensor(x)
    axes = [int(a) for a in (axes if isinstance(axes, (list, tuple)) else [axes])]
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is not None and all(dims[a] is not None for a in axes):
        counts = as_tensor(float(np.prod([dims[a] for a in axes])), x.dtype)
    else:
        counts = _math.cast(_reduce.reduce_prod(_slicing.gather(_array.shape(x), axes)), x.dtype)
    if shift is not None:
        shift = as_tensor(shift, x.dtype)
        m_ss, v_ss = x - shift, _math.squared_difference(x, shift)
    else:
        m_ss, v_ss = x, _math.square(x)
    return (counts, _reduce.reduce_sum(m_ss, axes, keepdims=keepdims),
            _reduce.reduce_sum(v_ss, axes, keepdims=keepdims), shift)


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """`tf.nn.normalize_moments`: (mean, variance) from sufficient statistics."""
    mean_ss = as_tensor(mean_ss)
    divisor = _math.reciprocal(as_tensor(counts, mean_ss.dtype))
    shifted_mean = mean_ss * divisor
    mean = shifted_mean if shift is None else shifted_mean + as_tensor(shift, mean_ss.dtype)
    variance = as_tensor(variance_ss, mean_ss.dtype) * divisor - _math.square(shifted_mean)
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """`tf.nn.weighted_moments`: the frequency-weighted mean and variance over `axes` (half
    precision inputs are computed in float32, as TensorFlow does)."""
    x = as_tensor(x)
    w = as_tensor(frequency_weights, x.dtype)
    half = x.dtype is _dt.float16
    if half:
        x, w = _math.cast(x, _dt.float32), _math.cast(w, _dt.float32)
    axes = list(axes) if isinstance(axes, (list, tuple)) else [axes]
    weighted_sum = _reduce.reduce_sum(w * x, axes, keepdims=True)
    weight_sum = _reduce.reduce_sum(w + _array.zeros_like(x), axes, keepdims=True)
    mean = _math.div_no_nan(weighted_sum, weight_sum)
    variance = _math.div_no_nan(_reduce.reduce_sum(w * _math.squared_difference(x, mean), axes, keepdims=True),
                                weight_sum)
    if not keepdims:
        mean, variance = _array.squeeze(mean, axes), _array.squeeze(variance, axes)
    if half:
        mean, variance = _math.cast(mean, _dt.float16), _math.cast(variance, _dt.float16)
    return mean, variance


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
