"""Convolution and pooling layers (channels_last): Conv2D, MaxPooling2D, AveragePooling2D,
GlobalAveragePooling2D."""
from __future__ import annotations

from ..._src.ops.nn import conv as _conv
from ..._src.ops.nn import pooling as _pool
from ..._src.ops.math import reduce as _reduce
from .. import activations as _act
from .. import constraints as _con
from .. import initializers as _init
from .. import regularizers as _reg
from .base import Layer


def _pair(value, name):
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) != 2:
        raise ValueError(f"The `{name}` argument must be a tuple of 2 integers. Received {name}={value}")
    return value


def _padding(padding):
    padding = padding.lower()
    if padding not in ("valid", "same"):
        raise ValueError(f"The `padding` argument must be a one of 'valid', 'same'. Received: padding={padding}")
    return padding.upper()


def _channels_last(data_format):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError("Only data_format='channels_last' is supported.")


class Conv2D(Layer):
    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs):
        if filters is not None and filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. Received "
                             f"filters={filters}.")
        if groups != 1:
            raise NotImplementedError("Conv2D(groups > 1) is not supported yet.")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        read_weight_args(self, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                         bias_regularizer, kernel_constraint, bias_constraint)
        _channels_last(data_format)
        self.filters = filters
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        self.padding = _padding(padding)
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")

    def build(self, input_shape):
        add_kernel_and_bias(self, self.kernel_size + (input_shape[-1], self.filters))
        self.built = True

    def call(self, inputs):
        y = _conv.conv2d(inputs, self.kernel, strides=(1,) + self.strides + (1,), padding=self.padding,
                         dilations=(1,) + self.dilation_rate + (1,))
        if self.bias is not None:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "filters": self.filters, "kernel_size": list(self.kernel_size),
                "strides": list(self.strides), "padding": self.padding.lower(), "data_format": "channels_last",
                "dilation_rate": list(self.dilation_rate), "groups": 1, **conv_weight_config(self)}


def read_weight_args(layer, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                     bias_regularizer, kernel_constraint, bias_constraint):
    """What conv_weight_config writes back: a convolution's activation, bias flag, and its kernel's and
    bias's initializers, regularizers and constraints, resolved from Keras identifiers."""
    layer.activation, layer.use_bias = _act.get(activation), use_bias
    layer.kernel_initializer, layer.bias_initializer = _init.get(kernel_initializer), _init.get(bias_initializer)
    layer.kernel_regularizer, layer.bias_regularizer = _reg.get(kernel_regularizer), _reg.get(bias_regularizer)
    layer.kernel_constraint, layer.bias_constraint = _con.get(kernel_constraint), _con.get(bias_constraint)


def add_kernel_and_bias(layer, kernel_shape):
    """The `kernel` of `kernel_shape` and, with use_bias, a `bias` of `filters` values, with the
    settings read_weight_args stored."""
    layer.kernel = layer.add_weight(kernel_shape, layer.kernel_initializer, name="kernel",
                                    regularizer=layer.kernel_regularizer, constraint=layer.kernel_constraint)
    layer.bias = layer.add_weight((layer.filters,), layer.bias_initializer, name="bias",
                                  regularizer=layer.bias_regularizer,
                                  constraint=layer.bias_constraint) if layer.use_bias else None


def conv_weight_config(layer):
    """The config keys a convolution shares with Dense: activation, bias, and the kernel's and
    bias's initializers, regularizers and constraints (Keras 3's order)."""
    return {"activation": _act.serialize(layer.activation), "use_bias": layer.use_bias,
            "kernel_initializer": _init.serialize(layer.kernel_initializer),
            "bias_initializer": _init.serialize(layer.bias_initializer),
            "kernel_regularizer": _reg.serialize(layer.kernel_regularizer),
            "bias_regularizer": _reg.serialize(layer.bias_regularizer),
            "activity_regularizer": _reg.serialize(layer.activity_regularizer),
            "kernel_constraint": _con.serialize(layer.kernel_constraint),
            "bias_constraint": _con.serialize(layer.bias_constraint)}


class _Pooling2D(Layer):
    _fn = None

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        _channels_last(data_format)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _pair(strides, "strides")
        self.padding = _padding(padding)

    def call(self, inputs):
        return type(self)._fn(inputs, (1,) + self.pool_size + (1,), (1,) + self.strides + (1,), self.padding)

    def get_config(self):
        return {**super().get_config(), "pool_size": list(self.pool_size), "padding": self.padding.lower(),
                "strides": list(self.strides), "data_format": "channels_last"}


class MaxPooling2D(_Pooling2D):
    _fn = staticmethod(_pool.max_pool2d)


class AveragePooling2D(_Pooling2D):
    _fn = staticmethod(_pool.avg_pool2d)

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):  # no default in Keras 3
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class GlobalAveragePooling2D(Layer):
    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        _channels_last(data_format)
        self.keepdims = keepdims

    def call(self, inputs):
        return _reduce.reduce_mean(inputs, axis=[1, 2], keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "keepdims": self.keepdims}


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
GlobalAvgPool2D = GlobalAveragePooling2D
