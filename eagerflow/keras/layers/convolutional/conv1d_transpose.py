"""Conv1DTranspose: Conv2DTranspose's upsampling over the steps axis, run as a transposed 2-D
convolution of a height-1 image."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.nn import conv as _conv
from ...._src.ops.array.joining import concat
from ..arguments import padding_mode, single_int
from ..input_spec import check_ndim
from .base_conv import BaseConv
from .transposed_geometry import check_strides_and_dilation, checked_output_padding, transposed_length


class Conv1DTranspose(BaseConv):
    """Upsamples steps to transposed_geometry.transposed_length's length (steps * stride + max(kernel -
    stride, 0) for 'valid', steps * stride for 'same', without output_padding or dilation); kernel
    (kernel_size, filters, in_channels) as Keras lays it out."""
    _config_output_padding = True
    _config_groups = False

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activation, use_bias, {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                                                "bias": (bias_initializer, bias_regularizer, bias_constraint)},
                         activity_regularizer, data_format, **kwargs)
        self.filters = self.positive_filters(filters)
        self.kernel_size, self.strides = single_int(kernel_size, "kernel_size"), single_int(strides, "strides")
        self.dilation_rate = single_int(dilation_rate, "dilation_rate")
        self.padding = padding_mode(padding).upper()
        self.output_padding = checked_output_padding(output_padding, (self.strides,), single_int)
        check_strides_and_dilation((self.strides,), (self.dilation_rate,))

    def build(self, input_shape):
        if len(input_shape) != 3:
            return
        self.add_kernel_and_bias((self.kernel_size, self.filters, input_shape[-1]), self.filters)
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        steps = inputs.shape.as_list()[1]
        if steps is None:
            raise NotImplementedError("Conv1DTranspose needs the input's steps known.")
        k, s = self.kernel_size, self.strides
        out_steps = transposed_length(steps, k, s, self.padding, (self.output_padding or (None,))[0],
                                      self.dilation_rate)
        image = _array.expand_dims(inputs, 1)
        out_shape = concat([_array.shape(inputs)[:1], _array.constant([1, out_steps, self.filters], dtype="int32")], 0)
        y = _conv.conv2d_transpose(image, _array.expand_dims(self.kernel, 0), out_shape, strides=(1, 1, s, 1),
                                   padding=self.padding, dilations=(1, 1, self.dilation_rate, 1))
        y = _array.reshape(y, [-1, out_steps, self.filters])
        return self.add_bias_and_activate(y)
