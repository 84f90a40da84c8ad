"""Conv2DTranspose: the transpose of a convolution (its gradient with respect to the input), to
upsample images."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.nn import conv as _conv
from ...._src.ops.array.joining import concat
from ..arguments import int_pair
from ..input_spec import check_ndim
from .base_conv import BaseConv
from .transposed_geometry import checked_output_padding, transposed_length


class Conv2DTranspose(BaseConv):
    """The transpose of a Conv2D's input-to-output map: each input pixel spreads a kernel-sized patch,
    upsampling by `strides` (output rows: rows * stride + max(kernel - stride, 0) for 'valid', rows * stride
    for 'same', other lengths with output_padding or dilation_rate: transposed_geometry.py)."""
    _config_output_padding = True
    _config_groups = False

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activation, use_bias, {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                                                "bias": (bias_initializer, bias_regularizer, bias_constraint)},
                         activity_regularizer, data_format, **kwargs)
        self.set_image_geometry(kernel_size, strides, padding, dilation_rate)
        self.output_padding = checked_output_padding(output_padding, self.strides, int_pair)
        self.filters = self.positive_filters(filters)

    def build(self, input_shape):
        if len(input_shape) != 4:
            return  # call() raises Keras' rank message
        self.add_kernel_and_bias(self.kernel_size + (self.filters, input_shape[-1]), self.filters)
        self.built = True

    def _out_size(self, axis, size):
        extra = None if self.output_padding is None else self.output_padding[axis]
        return transposed_length(size, self.kernel_size[axis], self.strides[axis], self.padding, extra,
                                 self.dilation_rate[axis])

    def call(self, inputs):
        check_ndim(self, inputs, ndim=4)
        dims = inputs.shape.as_list()
        rows, cols = self._out_size(0, dims[1]), self._out_size(1, dims[2])
        if rows is None or cols is None:
            raise NotImplementedError("Conv2DTranspose needs the input's rows and columns known.")
        if dims[0] is not None:
            out_shape = [dims[0], rows, cols, self.filters]
        else:
            batch = _array.shape(inputs)[:1]
            out_shape = concat([batch, _array.constant([rows, cols, self.filters], dtype=batch.dtype)], 0)
        y = _conv.conv2d_transpose(inputs, self.kernel, out_shape, strides=(1,) + self.strides + (1,),
                                   padding=self.padding, dilations=(1,) + self.dilation_rate + (1,))
        if dims[0] is None:  # the output shape was a run-time tensor: restate the static rows/cols/filters
            y = _array.reshape(y, [-1, rows, cols, self.filters])
        return self.add_bias_and_activate(y)
