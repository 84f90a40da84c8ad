"""keras.ops.nn's layer-shaped functions: convolutions, pooling, normalization, attention, depth/space moves,
multi-hot and PSNR, on eagerflow's tf.nn ops. channels_first inputs are moved to channels_last and back."""
from __future__ import annotations

import math

from ._common import FLOATX, float_result, tensor, tf


def _tuple(value, n):
    return (value,) * n if isinstance(value, int) else tuple(value)


def _to_last(x, data_format):
    if data_format in (None, "channels_last"):
        return x
    rank = x.shape.rank
    return tf().transpose(x, [0] + list(range(2, rank)) + [1])


def _to_first(x, data_format):
    if data_format in (None, "channels_last"):
        return x
    rank = x.shape.rank
    return tf().transpose(x, [0, rank - 1] + list(range(1, rank - 1)))


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    t = tf()
    inputs, kernel = float_result(inputs, kernel)
    x = _to_last(inputs, data_format)
    n = x.shape.rank - 2
    out = t.nn.convolution(x, kernel, strides=_tuple(strides, n), padding=padding.upper(),
                           dilations=_tuple(dilation_rate, n))
    return _to_first(out, data_format)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Each input channel convolved with its own kernel[..., c, :] filters (kernel: spatial + (in, multiplier))."""
    t = tf()
    inputs, kernel = float_result(inputs, kernel)
    x = _to_last(inputs, data_format)
    n = x.shape.rank - 2
    if n == 1:
        x2 = t.expand_dims(x, 1)
        k2 = t.expand_dims(kernel, 0)
        out = t.nn.depthwise_conv2d(x2, k2, (1, 1) + _tuple(strides, 1) + (1,), padding.upper(),
                                    dilations=(1,) + _tuple(dilation_rate, 1))
        out = t.squeeze(out, 1)
    else:
        out = t.nn.depthwise_conv2d(x, kernel, (1,) + _tuple(strides, 2) + (1,), padding.upper(),
                                    dilations=_tuple(dilation_rate, 2))
    return _to_first(out, data_format)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    depthwise = depthwise_conv(inputs, depthwise_kernel, strides, padding, data_format, dilation_rate)
    return conv(depthwise, pointwise_kernel, 1, "valid", data_format, 1)


def _transpose_length(size, kernel, padding, output_padding, stride, dilation):
    kernel = kernel + (kernel - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return size * stride + max(kernel - stride, 0)
        return size * stride
    pad = kernel // 2 if padding == "same" else 0
    return (size - 1) * stride + kernel - 2 * pad + output_padding


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None, data_format=None,
                   dilation_rate=1):
    """The gradient of conv; kernel is spatial + (out_channels, in_channels), output size as Keras computes it."""
    t = tf()
    inputs, kernel = float_result(inputs, kernel)
    x = _to_last(inputs, data_format)
    n = x.shape.rank - 2
    strides, dilations = _tuple(strides, n), _tuple(dilation_rate, n)
    pads = _tuple(output_padding, n) if output_padding is not None else (None,) * n
    spatial = x.shape.as_list()[1:-1]
    ksize = kernel.shape.as_list()[:n]
    out_spatial = [_transpose_length(s, k, padding, p, st, d)
                   for s, k, p, st, d in zip(spatial, ksize, pads, strides, dilations)]
    out_shape = [t.shape(x)[0]] + out_spatial + [kernel.shape[-2]]
    out = t.nn.conv_transpose(x, kernel, t.stack(out_shape), strides, padding=padding.upper(), dilations=dilations)
    return _to_first(out, data_format)


def _pool(kind, inputs, pool_size, strides, padding, data_format):
    t = tf()
    x = _to_last(tensor(inputs), data_format)
    n = x.shape.rank - 2
    window = _tuple(pool_size, n)
    strides = window if strides is None else _tuple(strides, n)
    out = t.nn.pool(x, window, kind, strides=strides, padding=padding.upper())
    return _to_first(out, data_format)


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool("MAX", inputs, pool_size, strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool("AVG", inputs, pool_size, strides, padding, data_format)


def _adaptive(reduce_name, inputs, output_size, data_format):
    """Output cell i of each spatial axis reduces input [floor(i*L/n), ceil((i+1)*L/n)); rectangular regions make
    the reduction separable, so it runs one axis at a time."""
    t = tf()
    x = _to_last(tensor(inputs), data_format)
    n = x.shape.rank - 2
    reduce = getattr(t, reduce_name)
    for axis, size in zip(range(1, n + 1), _tuple(output_size, n)):
        length = x.shape[axis]
        pieces = []
        for i in range(size):
            start, stop = (i * length) // size, -(-((i + 1) * length) // size)
            begin = [0] * x.shape.rank
            begin[axis] = start
            extent = [-1] * x.shape.rank
            extent[axis] = stop - start
            pieces.append(reduce(t.slice(x, begin, extent), axis=axis, keepdims=True))
        x = t.concat(pieces, axis=axis)
    return _to_first(x, data_format)


def adaptive_average_pool(inputs, output_size, data_format=None):
    return _adaptive("reduce_mean", inputs, output_size, data_format)


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive("reduce_max", inputs, output_size, data_format)


def moments(x, axes, keepdims=False, synchronized=False):
    """Integer inputs give integer moments, as in Keras on TF."""
    x = tensor(x)
    return tf().nn.moments(x, axes, keepdims=keepdims)


def _along(v, axis, rank):
    """A per-channel vector shaped to broadcast along `axis` of a rank-`rank` tensor."""
    shape = [1] * rank
    shape[axis % rank] = -1
    return tf().reshape(v, shape)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    t = tf()
    (x,) = float_result(x)
    rank = x.shape.rank
    inv = t.math.rsqrt(_along(t.cast(variance, x.dtype), axis, rank) + epsilon)
    if scale is not None:
        inv = inv * _along(t.cast(scale, x.dtype), axis, rank)
    out = (x - _along(t.cast(mean, x.dtype), axis, rank)) * inv
    return out if offset is None else out + _along(t.cast(offset, x.dtype), axis, rank)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    t = tf()
    (x,) = float_result(x)
    epsilon = 1e-7 if epsilon is None else epsilon  # Keras' backend epsilon
    axes = [axis] if isinstance(axis, int) else list(axis)
    mean, variance = t.nn.moments(x, axes, keepdims=True)
    out = (x - mean) * t.math.rsqrt(variance + epsilon)
    if gamma is not None:
        out = out * t.cast(gamma, x.dtype)
    return out if beta is None else out + t.cast(beta, x.dtype)


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """x / sqrt(mean(x^2) + epsilon) * scale; epsilon defaults to Keras' backend epsilon (1e-7)."""
    t = tf()
    (x,) = float_result(x)
    epsilon = 1e-7 if epsilon is None else epsilon
    out = x * t.math.rsqrt(t.reduce_mean(t.square(x), axis=axis, keepdims=True) + epsilon)
    return out if scale is None else out * t.cast(scale, x.dtype)


def depth_to_space(x, block_size, data_format="channels_last"):
    return _to_first(tf().nn.depth_to_space(_to_last(tensor(x), data_format), block_size), data_format)


def space_to_depth(x, block_size, data_format="channels_last"):
    return _to_first(tf().nn.space_to_depth(_to_last(tensor(x), data_format), block_size), data_format)


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False,
                          flash_attention=None, attn_logits_soft_cap=None):
    """softmax(q k^T * scale + bias, masked) v over (batch, length, heads, head_dim) inputs."""
    t = tf()
    query, key, value = float_result(query, key, value)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    logits = t.einsum("btnh,bsnh->bnts", query, key) * t.cast(scale, query.dtype)
    if attn_logits_soft_cap is not None:
        logits = t.math.tanh(logits / attn_logits_soft_cap) * attn_logits_soft_cap
    if bias is not None:
        logits = logits + t.cast(bias, logits.dtype)
    keep = None if mask is None else t.cast(mask, "bool")
    if is_causal:
        q_len, k_len = query.shape[1], key.shape[1]
        causal = t.linalg.band_part(t.ones([q_len, k_len], "int32"), -1, 0) > 0
        keep = causal if keep is None else t.logical_and(keep, causal)
    if keep is not None:
        logits = t.where(keep, logits, t.cast(-1e9 if logits.dtype.name != "float16" else -6e4, logits.dtype))
    weights = t.nn.softmax(logits, axis=-1)
    return t.einsum("bnts,bsnh->btnh", weights, value)


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """1 at each class an entry of inputs names (the last axis of inputs reduced)."""
    t = tf()
    inputs = tensor(inputs)
    if inputs.shape.rank == 1:
        inputs = t.expand_dims(inputs, 0)
        squeeze = True
    else:
        squeeze = False
    out = t.reduce_max(t.one_hot(inputs, num_classes, axis=axis, dtype=dtype or FLOATX), axis=1)
    return t.squeeze(out, 0) if squeeze else out


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio in dB over all elements: 20 log10(max_val) - 10 log10(mse)."""
    t = tf()
    x1, x2 = float_result(x1, x2)
    mse = t.reduce_mean(t.square(x1 - x2))
    ln10 = math.log(10.0)
    return 20.0 * math.log10(max_val) - 10.0 * t.math.log(mse) / ln10
