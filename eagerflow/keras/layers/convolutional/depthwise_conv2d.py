"""DepthwiseConv2D: each input channel convolved with its own filter bank, run as a grouped
convolution with one group per channel."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.nn import conv as _conv
from ..input_spec import check_ndim
from .base_conv import BaseConv


def depthwise_conv2d(x, kernel, strides, padding, dilation_rate):
    """kernel (kh, kw, channels, multiplier): a grouped convolution with one group per input channel."""
    kh, kw, channels, multiplier = (int(d) for d in kernel.shape)
    grouped = _array.reshape(kernel, [kh, kw, 1, channels * multiplier])
    return _conv.conv2d(x, grouped, strides=(1,) + strides + (1,), padding=padding,
                        dilations=(1,) + dilation_rate + (1,))


class DepthwiseConv2D(BaseConv):
    """Each input channel convolved with its own depth_multiplier filters: channels * depth_multiplier
    outputs, ordered channel-major (channel c gives outputs c * m ... c * m + m - 1)."""
    _families = ("depthwise", "bias")
    _leading_config_keys = ("depth_multiplier",)
    _config_groups = False

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activation, use_bias,
                         {"depthwise": (depthwise_initializer, depthwise_regularizer, depthwise_constraint),
                          "bias": (bias_initializer, bias_regularizer, bias_constraint)}, activity_regularizer,
                         data_format, **kwargs)
        self.set_image_geometry(kernel_size, strides, padding, dilation_rate)
        self.depth_multiplier = depth_multiplier

    def build(self, input_shape):
        if len(input_shape) < 4:
            return  # call() raises Keras' rank message
        channels = input_shape[-1]
        self.kernel = self.add_family_weight("depthwise", self.kernel_size + (channels, self.depth_multiplier),
                                             "kernel")
        self.bias = (self.add_family_weight("bias", (channels * self.depth_multiplier,), "bias") if self.use_bias
                     else None)
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, min_ndim=4)
        y = depthwise_conv2d(inputs, self.kernel, self.strides, self.padding, self.dilation_rate)
        return self.add_bias_and_activate(y)
