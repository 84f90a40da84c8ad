"""SeparableConv2D: a depthwise convolution, then a 1x1 pointwise one."""
from __future__ import annotations

from ...._src.ops.nn import conv as _conv
from ..input_spec import check_ndim
from .base_conv import BaseConv
from .depthwise_conv2d import depthwise_conv2d


class SeparableConv2D(BaseConv):
    """A depthwise convolution (depth_multiplier filters per channel) followed by a 1x1 convolution to
    `filters` outputs: far fewer weights than a full Conv2D of the same reach."""
    _families = ("depthwise", "pointwise", "bias")
    _leading_config_keys = ("depth_multiplier", "filters")
    _config_groups = False

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activation, use_bias,
                         {"depthwise": (depthwise_initializer, depthwise_regularizer, depthwise_constraint),
                          "pointwise": (pointwise_initializer, pointwise_regularizer, pointwise_constraint),
                          "bias": (bias_initializer, bias_regularizer, bias_constraint)}, activity_regularizer,
                         data_format, **kwargs)
        self.set_image_geometry(kernel_size, strides, padding, dilation_rate)
        self.filters, self.depth_multiplier = filters, depth_multiplier

    def build(self, input_shape):
        if len(input_shape) < 4:
            return  # call() raises Keras' rank message
        channels = input_shape[-1]
        self.depthwise_kernel = self.add_family_weight(
            "depthwise", self.kernel_size + (channels, self.depth_multiplier), "depthwise_kernel")
        self.pointwise_kernel = self.add_family_weight(
            "pointwise", (1, 1, channels * self.depth_multiplier, self.filters), "pointwise_kernel")
        self.bias = self.add_family_weight("bias", (self.filters,), "bias") if self.use_bias else None
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, min_ndim=4)
        y = depthwise_conv2d(inputs, self.depthwise_kernel, self.strides, self.padding, self.dilation_rate)
        y = _conv.conv2d(y, self.pointwise_kernel, strides=(1, 1, 1, 1), padding="VALID")
        return self.add_bias_and_activate(y)
