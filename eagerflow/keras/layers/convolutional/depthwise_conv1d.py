"""DepthwiseConv1D: each channel of a (batch, steps, channels) sequence convolved with its own
filters, run as DepthwiseConv2D's grouped convolution on a one-row image."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ..arguments import padding_mode, single_int
from ..input_spec import check_ndim
from .base_conv import BaseConv
from .depthwise_conv2d import depthwise_conv2d


def one_row_geometry(layer, kernel_size, strides, padding, dilation_rate):
    """The 1-D geometry (ints, upper-case padding) of a depthwise or separable 1-D layer, with Keras'
    check that strides and dilation are not both above 1."""
    layer.kernel_size = single_int(kernel_size, "kernel_size")
    layer.strides = single_int(strides, "strides")
    layer.dilation_rate = single_int(dilation_rate, "dilation_rate")
    layer.padding = padding_mode(padding).upper()
    if layer.strides > 1 and layer.dilation_rate > 1:
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                         f"strides=({layer.strides},) and dilation_rate=({layer.dilation_rate},)")


def depthwise_conv1d(layer, inputs, kernel):
    """kernel (k, channels, multiplier) over the steps of `inputs`, through the 2-D depthwise convolution."""
    image = _array.expand_dims(inputs, 1)  # (batch, 1, steps, channels)
    y = depthwise_conv2d(image, _array.expand_dims(kernel, 0), (1, layer.strides), layer.padding,
                         (1, layer.dilation_rate))
    return _array.squeeze(y, [1])


class DepthwiseConv1D(BaseConv):
    """channels * depth_multiplier outputs per step, ordered channel-major as DepthwiseConv2D's."""
    _families = ("depthwise", "bias")
    _leading_config_keys = ("depth_multiplier",)
    _config_groups = False

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activation, use_bias,
                         {"depthwise": (depthwise_initializer, depthwise_regularizer, depthwise_constraint),
                          "bias": (bias_initializer, bias_regularizer, bias_constraint)}, activity_regularizer,
                         data_format, **kwargs)
        one_row_geometry(self, kernel_size, strides, padding, dilation_rate)
        self.depth_multiplier = depth_multiplier

    def build(self, input_shape):
        if len(input_shape) != 3:
            return  # call() raises Keras' rank message
        channels = input_shape[-1]
        self.kernel = self.add_family_weight("depthwise", (self.kernel_size, channels, self.depth_multiplier),
                                             "kernel")
        self.bias = (self.add_family_weight("bias", (channels * self.depth_multiplier,), "bias") if self.use_bias
                     else None)
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        return self.add_bias_and_activate(depthwise_conv1d(self, inputs, self.kernel))
