"""Volume (batch, d1, d2, d3, channels) convolution and pooling, and Conv1DTranspose, built from the 2-D
convolution and pooling ops (no 3-D op needed):
- Conv3D sums, over the kernel's depth taps, a 2-D convolution of the matching depth slices (the depth
  steps folded into the batch), so its gradient is the 2-D ops' gradients;
- 3-D max and average pooling are separable: pool each depth slice over (d2, d3), then pool over d1
  (a box window's valid count is the product of its per-axis counts, so 'same' averages stay exact);
- Conv1DTranspose is Conv2DTranspose over a height-1 image."""
from __future__ import annotations

from ..._src.ops import array as _array
from ..._src.ops import conv as _conv
from ..._src.ops import pooling as _pool
from ..._src.ops import reduce as _reduce
from ..._src.ops.joining import concat
from ..._src.ops.padding import pad
from .base import Layer
from .conv import _channels_last, _padding, add_kernel_and_bias, conv_weight_config, read_weight_args
from .input_spec import check_ndim
from .reshaping3d import _triple


def _dims(tensor, start):
    """shape(tensor)[start:] as a shape tensor (the batch and any unknown dims read at run time)."""
    return _array.shape(tensor)[start:]


def _with(lead, dims):
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


class Conv3D(Layer):
    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1, 1), groups=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        if groups != 1:
            raise NotImplementedError("Conv3D(groups > 1) is not supported yet.")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        _channels_last(data_format)
        self.filters = filters
        self.kernel_size, self.strides = _triple(kernel_size, "kernel_size"), _triple(strides, "strides")
        self.dilation_rate = _triple(dilation_rate, "dilation_rate")
        self.padding = _padding(padding)
        read_weight_args(self, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                         bias_regularizer, kernel_constraint, bias_constraint)

    def build(self, input_shape):
        if len(input_shape) != 5:
            return  # call() raises Keras' rank message
        add_kernel_and_bias(self, self.kernel_size + (input_shape[-1], self.filters))
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        depth = inputs.shape.as_list()[1]
        if depth is None:
            raise NotImplementedError("Conv3D needs the input's first spatial dimension known.")
        (kd, kh, kw), (sd, sh, sw), (dd, dh, dw) = self.kernel_size, self.strides, self.dilation_rate
        out_depth, before, after = _depth_geometry(depth, kd, sd, dd, self.padding)
        x = pad(inputs, [[0, 0], [before, after], [0, 0], [0, 0], [0, 0]]) if before or after else inputs
        total = None
        for tap in range(kd):  # the depth slices this tap sees, folded into the batch
            start = tap * dd
            slices = x[:, start:start + (out_depth - 1) * sd + 1:sd]
            folded = _array.reshape(slices, _with([-1], _dims(x, 2)))
            y = _conv.conv2d(folded, self.kernel[tap], strides=(1, sh, sw, 1), padding=self.padding,
                             dilations=(1, dh, dw, 1))
            total = y if total is None else total + y
        y = _array.reshape(total, concat([_array.shape(inputs)[:1], _array.constant([out_depth], dtype="int32"),
                                          _dims(total, 1)], 0))
        y.set_shape([inputs.shape.as_list()[0], out_depth] + total.shape.as_list()[1:])  # the reshape hid them
        if self.bias is not None:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "filters": self.filters, "kernel_size": list(self.kernel_size),
                "strides": list(self.strides), "padding": self.padding.lower(), "data_format": "channels_last",
                "dilation_rate": list(self.dilation_rate), "groups": 1, **conv_weight_config(self)}


class Conv1DTranspose(Layer):
    """Upsamples steps: (steps) -> steps * stride + max(kernel - stride, 0) ('valid') or steps * stride
    ('same'); kernel (kernel_size, filters, in_channels) as Keras lays it out."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        from .pooling1d import _one
        if output_padding is not None:
            raise NotImplementedError("Conv1DTranspose(output_padding=...) is not supported yet.")
        if _one(dilation_rate, "dilation_rate") != 1:
            raise NotImplementedError("Conv1DTranspose(dilation_rate > 1) is not supported yet.")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        _channels_last(data_format)
        self.filters = filters
        self.kernel_size, self.strides = _one(kernel_size, "kernel_size"), _one(strides, "strides")
        self.padding = _padding(padding)
        read_weight_args(self, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                         bias_regularizer, kernel_constraint, bias_constraint)

    def build(self, input_shape):
        if len(input_shape) != 3:
            return
        add_kernel_and_bias(self, (self.kernel_size, self.filters, input_shape[-1]))
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        steps = inputs.shape.as_list()[1]
        if steps is None:
            raise NotImplementedError("Conv1DTranspose needs the input's steps known.")
        k, s = self.kernel_size, self.strides
        out_steps = steps * s + (max(k - s, 0) if self.padding == "VALID" else 0)
        image = _array.expand_dims(inputs, 1)
        out_shape = concat([_array.shape(inputs)[:1], _array.constant([1, out_steps, self.filters], dtype="int32")], 0)
        y = _conv.conv2d_transpose(image, _array.expand_dims(self.kernel, 0), out_shape, strides=(1, 1, s, 1),
                                   padding=self.padding)
        y = _array.reshape(y, [-1, out_steps, self.filters])
        if self.bias is not None:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        config = {**super().get_config(), "filters": self.filters, "kernel_size": [self.kernel_size],
                  "strides": [self.strides], "padding": self.padding.lower(), "output_padding": None,
                  "data_format": "channels_last", "dilation_rate": [1]}
        return {**config, **conv_weight_config(self)}


class _Pooling3D(Layer):
    _fn = None

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        _channels_last(data_format)
        self.pool_size = _triple(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _triple(strides, "strides")
        self.padding = _padding(padding)

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        fn = type(self)._fn
        (pd, ph, pw), (sd, sh, sw) = self.pool_size, self.strides
        shape = _array.shape(inputs)
        planes = fn(_array.reshape(inputs, _with([-1], shape[2:])), (1, ph, pw, 1), (1, sh, sw, 1),
                    self.padding)  # (batch * depth, rows', cols', channels)
        plane_shape = _array.shape(planes)
        line = _array.reshape(planes, concat([shape[:2], plane_shape[1:2] * plane_shape[2:3], shape[4:]], 0))
        pooled = fn(line, (1, pd, 1, 1), (1, sd, 1, 1), self.padding)  # (batch, depth', rows' * cols', channels)
        out = _array.reshape(pooled, concat([shape[:1], _array.shape(pooled)[1:2], plane_shape[1:3], shape[4:]], 0))
        static = inputs.shape.as_list()
        out.set_shape([static[0], pooled.shape.as_list()[1]] + planes.shape.as_list()[1:3] + [static[-1]])
        return out

    def get_config(self):
        return {**super().get_config(), "pool_size": list(self.pool_size), "padding": self.padding.lower(),
                "strides": list(self.strides), "data_format": "channels_last"}


class MaxPooling3D(_Pooling3D):
    _fn = staticmethod(_pool.max_pool2d)

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class AveragePooling3D(_Pooling3D):
    _fn = staticmethod(_pool.avg_pool2d)


class _GlobalPooling3D(Layer):
    _fn = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        _channels_last(data_format)
        self.keepdims = keepdims

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        return type(self)._fn(inputs, axis=[1, 2, 3], keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "keepdims": self.keepdims}


class GlobalAveragePooling3D(_GlobalPooling3D):
    _fn = staticmethod(_reduce.reduce_mean)


class GlobalMaxPooling3D(_GlobalPooling3D):
    _fn = staticmethod(_reduce.reduce_max)


MaxPool3D, AvgPool3D = MaxPooling3D, AveragePooling3D
GlobalAvgPool3D, GlobalMaxPool3D = GlobalAveragePooling3D, GlobalMaxPooling3D
