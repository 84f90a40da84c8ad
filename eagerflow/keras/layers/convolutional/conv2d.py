"""Conv2D: a 2-D convolution over (batch, rows, cols, channels) images."""
from __future__ import annotations

from ...._src.ops.nn import conv as _conv
from ..arguments import int_pair, padding_mode
from .base_conv import BaseConv


class Conv2D(BaseConv):
    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs):
        if groups != 1:
            raise NotImplementedError("Conv2D(groups > 1) is not supported yet.")
        super().__init__(activation, use_bias, {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                                                "bias": (bias_initializer, bias_regularizer, bias_constraint)},
                         activity_regularizer, data_format, **kwargs)
        self.filters = self.positive_filters(filters)
        self.kernel_size = int_pair(kernel_size, "kernel_size")
        self.strides = int_pair(strides, "strides")
        self.padding = padding_mode(padding).upper()
        self.dilation_rate = int_pair(dilation_rate, "dilation_rate")

    def build(self, input_shape):
        self.add_kernel_and_bias(self.kernel_size + (input_shape[-1], self.filters), self.filters)
        self.built = True

    def call(self, inputs):
        y = _conv.conv2d(inputs, self.kernel, strides=(1,) + self.strides + (1,), padding=self.padding,
                         dilations=(1,) + self.dilation_rate + (1,))
        return self.add_bias_and_activate(y)
