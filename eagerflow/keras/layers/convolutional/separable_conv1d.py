"""SeparableConv1D: a depthwise 1-D convolution, then a pointwise (kernel size 1) one."""
from __future__ import annotations

from ...._src.ops.nn import conv as _conv
from ..input_spec import check_ndim
from .base_conv import BaseConv
from .depthwise_conv1d import depthwise_conv1d, one_row_geometry


class SeparableConv1D(BaseConv):
    """depth_multiplier filters per channel, then a kernel-size-1 convolution mixing them to `filters`."""
    _families = ("depthwise", "pointwise", "bias")
    _leading_config_keys = ("depth_multiplier", "filters")
    _config_groups = False

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activation, use_bias,
                         {"depthwise": (depthwise_initializer, depthwise_regularizer, depthwise_constraint),
                          "pointwise": (pointwise_initializer, pointwise_regularizer, pointwise_constraint),
                          "bias": (bias_initializer, bias_regularizer, bias_constraint)}, activity_regularizer,
                         data_format, **kwargs)
        one_row_geometry(self, kernel_size, strides, padding, dilation_rate)
        self.filters, self.depth_multiplier = self.positive_filters(filters), depth_multiplier

    def build(self, input_shape):
        if len(input_shape) != 3:
            return  # call() raises Keras' rank message
        channels = input_shape[-1]
        self.depthwise_kernel = self.add_family_weight(
            "depthwise", (self.kernel_size, channels, self.depth_multiplier), "depthwise_kernel")
        self.pointwise_kernel = self.add_family_weight(
            "pointwise", (1, channels * self.depth_multiplier, self.filters), "pointwise_kernel")
        self.bias = self.add_family_weight("bias", (self.filters,), "bias") if self.use_bias else None
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        y = depthwise_conv1d(self, inputs, self.depthwise_kernel)
        y = _conv.conv1d(y, self.pointwise_kernel, stride=1, padding="VALID")
        return self.add_bias_and_activate(y)
