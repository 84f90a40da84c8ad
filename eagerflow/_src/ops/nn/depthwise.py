"""Depthwise convolution (NHWC): DepthwiseConv2dNative and its two backprop ops, and the public
depthwise_conv2d / separable_conv2d.

Filters are [KH, KW, C, M]: input channel c is convolved with its own M filters and gives output
channels c * M .. c * M + M - 1. Like Conv2D (ops/nn/conv.py) the kernels work on window views of the
padded input (ops/nn/windows.py): the forward pass is one einsum over [N, OH, OW, KH, KW, C] windows.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..array import basic as _array
from .. import shape_rules as R
from ..operands import binary_operands
from ..registry import Spec, bind, defop
from ..shape_rules import rank_message
from .windows import (check_format, check_positive_strides, check_strides, four, geometry, pad_spatial, padding_attrs, scatter_windows,
                      spatial_infer, static_sizes, window_view)
from ..lazy_jax import jax_module, jnp, lax  # callables that import JAX on first use only

_TYPES = (_dt.float16, _dt.float32, _dt.float64)


def _check_depth(c, fc):
    if c is not None and fc is not None and c != fc:
        raise InvalidArgumentError(None, None, f"input and filter must have the same depth: {c} vs {fc}")


def _windows(x, k_hw, attrs):
    geo = geometry(x.shape[1:3], k_hw, attrs)
    return window_view(pad_spatial(x, geo), geo, k_hw, attrs), geo


def _depthwise_kernel(x, f, **attrs):
    kh, kw, c, m = f.shape
    _check_depth(x.shape[3], c)
    win, _ = _windows(x, (kh, kw), attrs)
    out = np.einsum("nhwijc,ijcm->nhwcm", win, f, optimize=True)
    return out.reshape(out.shape[:3] + (c * m,)).astype(x.dtype, copy=False)


def _backprop_input_kernel(input_sizes, f, dy, **attrs):
    in_shape = tuple(int(d) for d in input_sizes)
    kh, kw, c, m = f.shape
    geo = geometry(in_shape[1:3], (kh, kw), attrs)
    cols = np.einsum("nhwcm,ijcm->nhwijc", dy.reshape(dy.shape[:3] + (c, m)), f, optimize=True)
    return scatter_windows(cols, in_shape, geo, (kh, kw), attrs).astype(dy.dtype, copy=False)


def _backprop_filter_kernel(x, filter_sizes, dy, **attrs):
    kh, kw, c, m = (int(d) for d in filter_sizes)
    win, _ = _windows(x, (kh, kw), attrs)
    out = np.einsum("nhwijc,nhwcm->ijcm", win, dy.reshape(dy.shape[:3] + (c, m)), optimize=True)
    return out.astype(x.dtype, copy=False)


def _check_inputs(x_shape, f_shape):
    if x_shape.rank is not None and x_shape.rank != 4:
        raise InvalidArgumentError(None, None, rank_message(x_shape.rank,
                                                            f"input must be 4-dimensional{R.fmt_dims(x_shape)}"))
    if f_shape.rank is not None and f_shape.rank != 4:
        raise InvalidArgumentError(None, None, rank_message(f_shape.rank,
                                                            f"filter must be 4-dimensional: {R.fmt_dims(f_shape)}"))


def _depthwise_infer(inputs, attrs):
    x, f = inputs
    R.check_same_dtype("DepthwiseConv2dNative", inputs)
    R.check_dtype_in("DepthwiseConv2dNative", x.dtype, _TYPES, "input")
    _check_inputs(x.shape, f.shape)
    check_strides(attrs)
    check_positive_strides(attrs)
    fdims = [None] * 4 if f.shape.rank is None else list(f.shape)
    if x.shape.rank is None:
        return [Spec(TensorShape([None] * 4), x.dtype)]
    _check_depth(x.shape[3], fdims[2])
    depth = None if fdims[2] is None or fdims[3] is None else fdims[2] * fdims[3]
    return [Spec(TensorShape(spatial_infer(list(x.shape), fdims[:2], attrs) + [depth]), x.dtype)]


def _depthwise_grad(op, g):
    x, f = op.inputs
    return (bind(DepthwiseConv2dNativeBackpropInput, (_array.shape(x), f, g), op.attrs),
            bind(DepthwiseConv2dNativeBackpropFilter, (x, _array.shape(f), g), op.attrs))


def _backprop_input_grad(op, g):
    """Linear in filter and out_backprop: differentiate each as the forward op (as Conv2D's do)."""
    _, f, dy = op.inputs
    return (None, bind(DepthwiseConv2dNativeBackpropFilter, (g, _array.shape(f), dy), op.attrs),
            bind(DepthwiseConv2dNative, (g, f), op.attrs))


def _backprop_filter_grad(op, g):
    x, _, dy = op.inputs
    return (bind(DepthwiseConv2dNativeBackpropInput, (_array.shape(x), g, dy), op.attrs), None,
            bind(DepthwiseConv2dNative, (x, g), op.attrs))


DepthwiseConv2dNative = defop("DepthwiseConv2dNative", inputs=("input", "filter"), kernel=_depthwise_kernel,
                              infer=_depthwise_infer, grad=_depthwise_grad)
DepthwiseConv2dNativeBackpropInput = defop(
    "DepthwiseConv2dNativeBackpropInput", inputs=("input_sizes", "filter", "out_backprop"),
    kernel=_backprop_input_kernel, grad=_backprop_input_grad,
    infer=lambda inputs, attrs: [Spec(TensorShape(static_sizes(inputs[0])), inputs[2].dtype)])
DepthwiseConv2dNativeBackpropFilter = defop(
    "DepthwiseConv2dNativeBackpropFilter", inputs=("input", "filter_sizes", "out_backprop"),
    kernel=_backprop_filter_kernel, grad=_backprop_filter_grad,
    infer=lambda inputs, attrs: [Spec(TensorShape(static_sizes(inputs[1])), inputs[0].dtype)])


def _attrs(strides, padding, dilations):
    attrs = {"strides": four(strides, "strides"), "dilations": four(dilations, "dilations")}
    attrs.update(padding_attrs(padding, "DepthwiseConv2dNative"))
    check_strides(attrs)
    return attrs


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):
    """`tf.nn.depthwise_conv2d`: NHWC input, [KH, KW, C, M] filters -> C * M output channels."""
    check_format(data_format)
    x, f = binary_operands(input, filter, "DepthwiseConv2dNative")
    return bind(DepthwiseConv2dNative, (x, f), _attrs(strides, padding, dilations))


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None, dilations=None,
                     name=None):
    """`tf.nn.separable_conv2d`: a depthwise convolution, then a 1x1 convolution mixing its channels
    (pointwise_filter is [1, 1, C * M, O])."""
    from . import conv as _conv
    check_format(data_format)
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, dilations=dilations)
    return _conv.conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], "VALID")

# --- JAX lowerings (jit_compile=True, codegen/xla.py): a grouped lax.conv_general_dilated (one
# group per input channel); the backprop ops are its vector-Jacobian products. ---


def _jax_depthwise(x, f, **attrs):
    kh, kw, c, m = f.shape
    geo = geometry(x.shape[1:3], (kh, kw), attrs)
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    return lax.conv_general_dilated(x, jnp.reshape(f, (kh, kw, 1, c * m)), (strides[1], strides[2]),
                                    [(g[1], g[2]) for g in geo], rhs_dilation=(dil[1], dil[2]),
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=c)


def _jax_backprop_input(input_sizes, f, dy, **attrs):
    shape = tuple(int(d) for d in input_sizes)
    return jax_module().vjp(lambda x: _jax_depthwise(x, f, **attrs), jnp.zeros(shape, dy.dtype))[1](dy)[0]


def _jax_backprop_filter(x, filter_sizes, dy, **attrs):
    shape = tuple(int(d) for d in filter_sizes)
    return jax_module().vjp(lambda f: _jax_depthwise(x, f, **attrs), jnp.zeros(shape, dy.dtype))[1](dy)[0]


DepthwiseConv2dNative.jax = _jax_depthwise
DepthwiseConv2dNativeBackpropInput.jax = _jax_backprop_input
DepthwiseConv2dNativeBackpropFilter.jax = _jax_backprop_filter
