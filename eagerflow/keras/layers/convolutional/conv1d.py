"""Conv1D: a 1-D convolution over the steps axis of (batch, steps, channels) sequences."""
from __future__ import annotations

from ...._src.ops.nn import conv as _conv
from ...._src.ops.array.padding import pad
from ..arguments import padding_mode, single_int
from ..input_spec import check_ndim
from .base_conv import BaseConv


class Conv1D(BaseConv):
    """padding='causal' pads only the start, so output step t sees inputs up to t (for WaveNet-style
    models)."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1, groups=1,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        if groups != 1:
            raise NotImplementedError("Conv1D(groups > 1) is not supported yet.")
        super().__init__(activation, use_bias, {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                                                "bias": (bias_initializer, bias_regularizer, bias_constraint)},
                         activity_regularizer, data_format, **kwargs)
        self.filters = self.positive_filters(filters)
        self.kernel_size = single_int(kernel_size, "kernel_size")
        self.strides = single_int(strides, "strides")
        self.dilation_rate = single_int(dilation_rate, "dilation_rate")
        if self.strides > 1 and self.dilation_rate > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides=({self.strides},) and dilation_rate=({self.dilation_rate},)")
        self.padding = padding_mode(padding, ("valid", "same", "causal"))

    def build(self, input_shape):
        if len(input_shape) < 3:
            return  # call() raises Keras' rank message
        self.add_kernel_and_bias((self.kernel_size, input_shape[-1], self.filters), self.filters)
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, min_ndim=3)
        padding = self.padding
        if padding == "causal":
            inputs = pad(inputs, [[0, 0], [self.dilation_rate * (self.kernel_size - 1), 0], [0, 0]])
            padding = "valid"
        y = _conv.conv1d(inputs, self.kernel, stride=self.strides, padding=padding.upper(),
                         dilations=self.dilation_rate)
        return self.add_bias_and_activate(y)
