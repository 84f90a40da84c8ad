"""Conv3D over (batch, d1, d2, d3, channels) volumes, built from the 2-D convolution op (no 3-D op
needed): it sums, over the kernel's depth taps, a 2-D convolution of the matching depth slices (the
depth steps folded into the batch), so its gradient is the 2-D op's gradient."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.nn import conv as _conv
from ...._src.ops.array.joining import concat
from ...._src.ops.array.padding import pad
from ..arguments import padding_mode
from ..input_spec import check_ndim
from ..reshaping.zero_padding3d import triple
from .base_conv import BaseConv


def trailing_dims(tensor, start):
    """shape(tensor)[start:] as a shape tensor (the batch and any unknown dims read at run time)."""
    return _array.shape(tensor)[start:]


def with_leading(lead, dims):
    """The shape tensor `lead` + `dims` (lead a list of ints, dims a shape tensor)."""
    lead_t = _array.constant(lead, dtype="int32")
    return concat([lead_t, dims], 0)


def _depth_geometry(depth, k, s, d, padding):
    """(output depth, pad before, pad after) along d1, as TensorFlow's VALID/SAME define them."""
    span = (k - 1) * d + 1
    if padding == "VALID":
        return (depth - span) // s + 1, 0, 0
    out = -(-depth // s)
    total = max((out - 1) * s + span - depth, 0)
    return out, total // 2, total - total // 2


def conv3d_by_depth_taps(inputs, kernel, strides, padding, dilation_rate):
    """The 3-D convolution of `inputs` (batch, d1, d2, d3, c) by `kernel` (k1, k2, k3, c, filters): the sum
    over depth taps of 2-D convolutions of the depth slices each tap sees. padding: 'VALID' or 'SAME'.
    d1 may be unknown with stride 1 along it (a ConvLSTM's time axis fed to Conv3D): each tap's slices then
    end a fixed count before the padded end."""
    depth = inputs.shape.as_list()[1]
    (kd, kh, kw), (sd, sh, sw), (dd, dh, dw) = tuple(kernel.shape.as_list()[:3]), strides, dilation_rate
    span = (kd - 1) * dd + 1
    if depth is None:
        if sd != 1:
            raise NotImplementedError("Conv3D needs the input's first spatial dimension known when its stride "
                                      "along it is above 1.")
        out_depth, total_pad = None, span - 1 if padding == "SAME" else 0
        before, after = total_pad // 2, total_pad - total_pad // 2
    else:
        out_depth, before, after = _depth_geometry(depth, kd, sd, dd, padding)
    x = pad(inputs, [[0, 0], [before, after], [0, 0], [0, 0], [0, 0]]) if before or after else inputs
    total = None
    for tap in range(kd):  # the depth slices this tap sees, folded into the batch
        start = tap * dd
        if out_depth is None:
            slices = x[:, start:(start - (span - 1)) or None]
        else:
            slices = x[:, start:start + (out_depth - 1) * sd + 1:sd]
        plane = x.shape.as_list()[2:]
        folded = _array.reshape(slices, [-1] + plane if None not in plane else with_leading([-1], trailing_dims(x, 2)))
        y = _conv.conv2d(folded, kernel[tap], strides=(1, sh, sw, 1), padding=padding, dilations=(1, dh, dw, 1))
        total = y if total is None else total + y
    y = _array.reshape(total, concat([_array.shape(inputs)[:1], _array.constant([-1], dtype="int32"),
                                      trailing_dims(total, 1)], 0))
    y.set_shape([inputs.shape.as_list()[0], out_depth] + total.shape.as_list()[1:])  # the reshape hid them
    return y


class Conv3D(BaseConv):
    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1, 1), groups=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        if groups != 1:
            raise NotImplementedError("Conv3D(groups > 1) is not supported yet.")
        super().__init__(activation, use_bias, {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                                                "bias": (bias_initializer, bias_regularizer, bias_constraint)},
                         activity_regularizer, data_format, **kwargs)
        self.filters = self.positive_filters(filters)
        self.kernel_size, self.strides = triple(kernel_size, "kernel_size"), triple(strides, "strides")
        self.dilation_rate = triple(dilation_rate, "dilation_rate")
        self.padding = padding_mode(padding).upper()

    def build(self, input_shape):
        if len(input_shape) != 5:
            return  # call() raises Keras' rank message
        self.add_kernel_and_bias(self.kernel_size + (input_shape[-1], self.filters), self.filters)
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        y = conv3d_by_depth_taps(inputs, self.kernel, self.strides, self.padding, self.dilation_rate)
        return self.add_bias_and_activate(y)
