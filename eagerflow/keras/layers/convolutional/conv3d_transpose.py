"""Conv3DTranspose over (batch, d1, d2, d3, channels) volumes, built from the 2-D transposed
convolution (no 3-D op needed): each depth tap of the kernel spreads every input depth slice by a 2-D
transposed convolution, and the tap's results land `strides[0]` depths apart, shifted by the tap."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.array.padding import pad
from ...._src.ops.nn import conv as _conv
from ..input_spec import check_ndim
from ..reshaping.zero_padding3d import triple
from .base_conv import BaseConv
from ..arguments import padding_mode


def _transposed_size(size, k, s, padding):
    """Keras' transposed length: size * s, plus k - s more for 'valid' when the kernel outreaches the stride."""
    return size * s if padding == "SAME" else size * s + max(k - s, 0)


class Conv3DTranspose(BaseConv):
    """Output depth d * s + max(k - s, 0) for 'valid' (zeros after the last tap when k < s) and d * s for
    'same' (the 'valid' result with max(k - s, 0) depths cropped, the smaller half before), and likewise
    for rows and columns."""
    _config_output_padding = True
    _config_groups = False

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None, output_padding=None,
                 dilation_rate=(1, 1, 1), activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        if output_padding is not None:
            raise NotImplementedError("Conv3DTranspose(output_padding=...) is not supported yet.")
        if triple(dilation_rate, "dilation_rate") != (1, 1, 1):
            raise NotImplementedError("Conv3DTranspose(dilation_rate > 1) is not supported yet.")
        super().__init__(activation, use_bias, {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                                                "bias": (bias_initializer, bias_regularizer, bias_constraint)},
                         activity_regularizer, data_format, **kwargs)
        self.filters = self.positive_filters(filters)
        self.kernel_size, self.strides = triple(kernel_size, "kernel_size"), triple(strides, "strides")
        self.dilation_rate = (1, 1, 1)
        self.padding = padding_mode(padding).upper()

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
        (kd, kh, kw), (sd, sh, sw) = self.kernel_size, self.strides
        depth = static[1]
        rows = _transposed_size(static[2], kh, sh, self.padding)
        cols = _transposed_size(static[3], kw, sw, self.padding)
        folded = _array.reshape(inputs, [-1] + static[2:])  # (batch * depth, h, w, c)
        plane_shape = concat([_array.shape(folded)[:1], _array.constant([rows, cols, self.filters], dtype="int32")], 0)
        total = None
        for tap in range(kd):
            planes = _conv.conv2d_transpose(folded, self.kernel[tap], plane_shape, strides=(1, sh, sw, 1),
                                            padding=self.padding)
            planes = _array.reshape(planes, [-1, depth, 1, rows, cols, self.filters])
            # depth i of this tap lands at i * sd + tap: interleave sd - 1 zero slices, then shift by tap
            spread = _array.reshape(pad(planes, [[0, 0], [0, 0], [0, sd - 1], [0, 0], [0, 0], [0, 0]]),
                                    [-1, depth * sd, rows, cols, self.filters])
            shifted = pad(spread, [[0, 0], [tap, kd - tap], [0, 0], [0, 0], [0, 0]])
            total = shifted if total is None else total + shifted
        if self.padding == "SAME":
            before = max(kd - sd, 0) // 2
            y = total[:, before:before + depth * sd]
        else:
            y = total[:, :_transposed_size(depth, kd, sd, self.padding)]
        y.set_shape([static[0], _transposed_size(depth, kd, sd, self.padding), rows, cols, self.filters])
        return self.add_bias_and_activate(y)
