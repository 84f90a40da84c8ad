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
        super().__init__(activation, use_bias, {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                                                "bias": (bias_initializer, bias_regularizer, bias_constraint)},
                         activity_regularizer, data_format, **kwargs)
        self.filters = self.positive_filters(filters)
        self.kernel_size = int_pair(kernel_size, "kernel_size")
        self.strides = int_pair(strides, "strides")
        self.padding = padding_mode(padding).upper()
        self.dilation_rate = int_pair(dilation_rate, "dilation_rate")
        if not isinstance(groups, int) or groups <= 0:
            raise ValueError(f"The number of groups must be a positive integer. Received: groups={groups}.")
        if self.filters % groups:
            raise ValueError("The number of filters must be evenly divisible by the number of groups. Received: "
                             f"groups={groups}, filters={self.filters}.")
        self.groups = groups

    def build(self, input_shape):
        channels = input_shape[-1]
        if channels % self.groups:
            raise ValueError("The number of input channels must be evenly divisible by the number of groups. "
                             f"Received groups={self.groups}, but the input has {channels} channels (full input "
                             f"shape is {tuple(input_shape)}).")
        # groups > 1: each group of channels / groups inputs feeds filters / groups outputs; the convolution
        # op reads the grouping from the kernel's input depth
        self.add_kernel_and_bias(self.kernel_size + (channels // self.groups, self.filters), self.filters)
        self.built = True

    def call(self, inputs):
        y = _conv.conv2d(inputs, self.kernel, strides=(1,) + self.strides + (1,), padding=self.padding,
                         dilations=(1,) + self.dilation_rate + (1,))
        return self.add_bias_and_activate(y)
