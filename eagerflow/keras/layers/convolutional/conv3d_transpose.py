"""Conv3DTranspose over (batch, d1, d2, d3, channels) volumes, built from the 2-D transposed
convolution (no 3-D op needed): each depth tap of the kernel spreads every input depth slice by a 2-D
transposed convolution, and the tap's results land `strides[0]` depths apart, shifted by the tap times
the depth dilation; the output window is then cut as transposed_geometry.py describes."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.array.padding import pad
from ...._src.ops.nn import conv as _conv
from ..input_spec import check_ndim
from ..reshaping.zero_padding3d import triple
from .base_conv import BaseConv
from .transposed_geometry import check_strides_and_dilation, checked_output_padding, transposed_length, window_start
from ..arguments import padding_mode


class Conv3DTranspose(BaseConv):
    """Output lengths per axis as transposed_geometry.transposed_length gives them (with `output_padding`
    and `dilation_rate` as Keras 3 takes them)."""
    _config_output_padding = True
    _config_groups = False

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None, output_padding=None,
                 dilation_rate=(1, 1, 1), activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activation, use_bias, {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                                                "bias": (bias_initializer, bias_regularizer, bias_constraint)},
                         activity_regularizer, data_format, **kwargs)
        self.filters = self.positive_filters(filters)
        self.kernel_size, self.strides = triple(kernel_size, "kernel_size"), triple(strides, "strides")
        self.dilation_rate = triple(dilation_rate, "dilation_rate")
        self.padding = padding_mode(padding).upper()
        self.output_padding = checked_output_padding(output_padding, self.strides, triple)
        check_strides_and_dilation(self.strides, self.dilation_rate)

    def build(self, input_shape):
        if len(input_shape) != 5:
            return  # call() raises Keras' rank message
        self.add_kernel_and_bias(self.kernel_size + (self.filters, input_shape[-1]), self.filters)
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        static = inputs.shape.as_list()
        if None in static[1:4]:
            raise NotImplementedError("Conv3DTranspose needs the input's spatial dimensions known.")
        (kd, kh, kw), (sd, sh, sw), (dd, dh, dw) = self.kernel_size, self.strides, self.dilation_rate
        extra = self.output_padding or (None, None, None)
        depth = static[1]
        out_depth = transposed_length(depth, kd, sd, self.padding, extra[0], dd)
        rows = transposed_length(static[2], kh, sh, self.padding, extra[1], dh)
        cols = transposed_length(static[3], kw, sw, self.padding, extra[2], dw)
        folded = _array.reshape(inputs, [-1] + static[2:])  # (batch * depth, h, w, c)
        plane_shape = concat([_array.shape(folded)[:1], _array.constant([rows, cols, self.filters], dtype="int32")], 0)
        reach = (kd - 1) * dd
        total = None
        for tap in range(kd):
            planes = _conv.conv2d_transpose(folded, self.kernel[tap], plane_shape, strides=(1, sh, sw, 1),
                                            padding=self.padding, dilations=(1, dh, dw, 1))
            planes = _array.reshape(planes, [-1, depth, 1, rows, cols, self.filters])
            # depth i of this tap lands at i * sd + tap * dd: interleave sd - 1 zero slices, then shift
            spread = _array.reshape(pad(planes, [[0, 0], [0, 0], [0, sd - 1], [0, 0], [0, 0], [0, 0]]),
                                    [-1, depth * sd, rows, cols, self.filters])
            shifted = pad(spread, [[0, 0], [tap * dd, reach - tap * dd], [0, 0], [0, 0], [0, 0]])
            total = shifted if total is None else total + shifted
        start = window_start(depth, kd, sd, self.padding, out_depth, dd)
        placed = depth * sd + reach
        if start + out_depth > placed:  # output_padding past the last tap: zeros
            total = pad(total, [[0, 0], [0, start + out_depth - placed], [0, 0], [0, 0], [0, 0]])
        y = total[:, start:start + out_depth]
        y.set_shape([static[0], out_depth, rows, cols, self.filters])
        return self.add_bias_and_activate(y)
