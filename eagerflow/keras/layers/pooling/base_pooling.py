"""Sequence (channels_last, (batch, steps, channels)) convolution and pooling: Conv1D (valid, same or
causal padding), MaxPooling1D, AveragePooling1D, GlobalAveragePooling1D, GlobalMaxPooling1D, and
GlobalMaxPooling2D beside conv.py's average one. 1-D pooling runs the 2-D pooling op over a size-1 axis."""
from __future__ import annotations

from ..._src.ops import array as _array
from ..._src.ops import conv as _conv
from ..._src.ops import math as _math
from ..._src.ops import pooling as _pool
from ..._src.ops import reduce as _reduce
from ..._src.ops.padding import pad
from .base import Layer
from .conv import _channels_last, add_kernel_and_bias, conv_weight_config, read_weight_args
from .input_spec import check_ndim


def _one(value, name):
    """An int or a 1-tuple, as Keras takes kernel_size/strides/dilation_rate of a 1-D layer."""
    if isinstance(value, int):
        return value
    value = tuple(value)
    if len(value) != 1:
        raise ValueError(f"The `{name}` argument must be a tuple of 1 integers. Received {name}={value}")
    return int(value[0])


def _padding(padding, allowed):
    padding = padding.lower()
    if padding not in allowed:
        raise ValueError(f"The `padding` argument must be a one of {', '.join(repr(p) for p in allowed)}. "
                         f"Received: padding={padding}")
    return padding


class Conv1D(Layer):
    """A 1-D convolution over the steps axis; padding='causal' pads only the start, so output step t sees
    inputs up to t (for WaveNet-style models)."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1, groups=1,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        if groups != 1:
            raise NotImplementedError("Conv1D(groups > 1) is not supported yet.")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        _channels_last(data_format)
        self.filters = filters
        self.kernel_size = _one(kernel_size, "kernel_size")
        self.strides = _one(strides, "strides")
        self.dilation_rate = _one(dilation_rate, "dilation_rate")
        if self.strides > 1 and self.dilation_rate > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides=({self.strides},) and dilation_rate=({self.dilation_rate},)")
        self.padding = _padding(padding, ("valid", "same", "causal"))
        read_weight_args(self, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                         bias_regularizer, kernel_constraint, bias_constraint)

    def build(self, input_shape):
        if len(input_shape) < 3:
            return  # call() raises Keras' rank message
        add_kernel_and_bias(self, (self.kernel_size, input_shape[-1], self.filters))
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, min_ndim=3)
        padding = self.padding
        if padding == "causal":
            inputs = pad(inputs, [[0, 0], [self.dilation_rate * (self.kernel_size - 1), 0], [0, 0]])
            padding = "valid"
        y = _conv.conv1d(inputs, self.kernel, stride=self.strides, padding=padding.upper(),
                         dilations=self.dilation_rate)
        if self.bias is not None:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "filters": self.filters, "kernel_size": [self.kernel_size],
                "strides": [self.strides], "padding": self.padding, "data_format": "channels_last",
                "dilation_rate": [self.dilation_rate], "groups": 1, **conv_weight_config(self)}


class _Pooling1D(Layer):
    _fn = None

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        _channels_last(data_format)
        self.pool_size = _one(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _one(strides, "strides")
        self.padding = _padding(padding, ("valid", "same"))

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        x = _array.expand_dims(inputs, 2)  # (batch, steps, 1, channels)
        y = type(self)._fn(x, (1, self.pool_size, 1, 1), (1, self.strides, 1, 1), self.padding.upper())
        return _array.squeeze(y, [2])

    def get_config(self):
        return {**super().get_config(), "pool_size": [self.pool_size], "padding": self.padding,
                "strides": [self.strides], "data_format": "channels_last"}


class MaxPooling1D(_Pooling1D):
    _fn = staticmethod(_pool.max_pool2d)

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class AveragePooling1D(_Pooling1D):
    _fn = staticmethod(_pool.avg_pool2d)


class _GlobalPooling(Layer):
    _ndim = 3
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        _channels_last(data_format)
        self.keepdims = keepdims

    def call(self, inputs):
        check_ndim(self, inputs, ndim=self._ndim)
        return type(self)._reduce(inputs, axis=list(range(1, self._ndim - 1)), keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "keepdims": self.keepdims}


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps axis; with a mask (from Embedding(mask_zero=True), Masking) the mean of
    the unmasked steps only, as Keras 3 computes it. The output carries no mask."""
    _reduce = staticmethod(_reduce.reduce_mean)
    supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        check_ndim(self, inputs, ndim=3)
        weights = _array.expand_dims(_math.cast(mask, inputs.dtype), 2)
        total = _reduce.reduce_sum(inputs * weights, axis=1, keepdims=self.keepdims)
        return total / _reduce.reduce_sum(weights, axis=1, keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        return None


class GlobalMaxPooling1D(_GlobalPooling):
    _reduce = staticmethod(_reduce.reduce_max)


class GlobalMaxPooling2D(_GlobalPooling):
    _ndim = 4
    _reduce = staticmethod(_reduce.reduce_max)


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
