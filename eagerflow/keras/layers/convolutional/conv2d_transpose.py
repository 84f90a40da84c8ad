"""More image convolutions (channels_last): Conv2DTranspose (the gradient of a convolution, to upsample),
DepthwiseConv2D (one filter bank per input channel, run as a grouped convolution with one group per
channel) and SeparableConv2D (a depthwise convolution, then a 1x1 pointwise one)."""
from __future__ import annotations

from ..._src.ops import array as _array
from ..._src.ops import conv as _conv
from ..._src.ops.joining import concat
from .. import activations as _act
from .. import constraints as _con
from .. import initializers as _init
from .. import regularizers as _reg
from .base import Layer
from .conv import _channels_last, _pair, _padding
from .input_spec import check_ndim


class _ImageConv(Layer):
    """What the three layers share: geometry, activation, bias and the weight-family arguments."""
    _families = ()

    def __init__(self, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                 family_args, activity_regularizer, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        _channels_last(data_format)
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        self.padding = _padding(padding)
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        if self.dilation_rate != (1, 1) and self.strides != (1, 1):
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")
        self.activation = _act.get(activation)
        self.use_bias = use_bias
        for prefix, (initializer, regularizer, constraint) in family_args.items():
            setattr(self, f"{prefix}_initializer", _init.get(initializer))
            setattr(self, f"{prefix}_regularizer", _reg.get(regularizer))
            setattr(self, f"{prefix}_constraint", _con.get(constraint))

    def _weight(self, prefix, shape, name):
        return self.add_weight(shape, getattr(self, f"{prefix}_initializer"), name=name,
                               regularizer=getattr(self, f"{prefix}_regularizer"),
                               constraint=getattr(self, f"{prefix}_constraint"))

    def _finish(self, y):
        if self.bias is not None:
            y = y + self.bias
        return self.activation(y)

    def _geometry_config(self):
        return {"kernel_size": list(self.kernel_size), "strides": list(self.strides), "padding": self.padding.lower(),
                "data_format": "channels_last", "dilation_rate": list(self.dilation_rate),
                "activation": _act.serialize(self.activation), "use_bias": self.use_bias}


def _depthwise(x, kernel, strides, padding, dilation_rate):
    """kernel (kh, kw, channels, multiplier): a grouped convolution with one group per input channel."""
    kh, kw, channels, multiplier = (int(d) for d in kernel.shape)
    grouped = _array.reshape(kernel, [kh, kw, 1, channels * multiplier])
    return _conv.conv2d(x, grouped, strides=(1,) + strides + (1,), padding=padding,
                        dilations=(1,) + dilation_rate + (1,))


class Conv2DTranspose(_ImageConv):
    """The transpose of a Conv2D's input-to-output map: each input pixel spreads a kernel-sized patch,
    upsampling by `strides` (output rows: (rows - 1) * stride + kernel for 'valid', rows * stride for 'same')."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        if output_padding is not None:
            raise NotImplementedError("Conv2DTranspose(output_padding=...) is not supported yet.")
        if _pair(dilation_rate, "dilation_rate") != (1, 1):
            raise NotImplementedError("Conv2DTranspose(dilation_rate > 1) is not supported yet.")
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         {"kernel": (kernel_initializer, kernel_regularizer, kernel_constraint),
                          "bias": (bias_initializer, bias_regularizer, bias_constraint)}, activity_regularizer, **kwargs)
        self.filters = filters

    def build(self, input_shape):
        if len(input_shape) != 4:
            return  # call() raises Keras' rank message
        self.kernel = self._weight("kernel", self.kernel_size + (self.filters, input_shape[-1]), "kernel")
        self.bias = self._weight("bias", (self.filters,), "bias") if self.use_bias else None
        self.built = True

    def _out_size(self, size, k, s):
        if size is None:
            return None
        return size * s if self.padding == "SAME" else (size - 1) * s + k

    def call(self, inputs):
        check_ndim(self, inputs, ndim=4)
        dims = inputs.shape.as_list()
        rows = self._out_size(dims[1], self.kernel_size[0], self.strides[0])
        cols = self._out_size(dims[2], self.kernel_size[1], self.strides[1])
        if rows is None or cols is None:
            raise NotImplementedError("Conv2DTranspose needs the input's rows and columns known.")
        if dims[0] is not None:
            out_shape = [dims[0], rows, cols, self.filters]
        else:
            batch = _array.shape(inputs)[:1]
            out_shape = concat([batch, _array.constant([rows, cols, self.filters], dtype=batch.dtype)], 0)
        y = _conv.conv2d_transpose(inputs, self.kernel, out_shape, strides=(1,) + self.strides + (1,),
                                   padding=self.padding)
        if dims[0] is None:  # the output shape was a run-time tensor: restate the static rows/cols/filters
            y = _array.reshape(y, [-1, rows, cols, self.filters])
        return self._finish(y)

    def get_config(self):
        config = {**super().get_config(), "filters": self.filters, **self._geometry_config()}
        config = {k: config[k] for k in ("name", "trainable", "dtype", "filters", "kernel_size", "strides", "padding")}
        config["output_padding"] = None
        config.update({k: v for k, v in self._geometry_config().items() if k not in config})
        config.update({"kernel_initializer": _init.serialize(self.kernel_initializer),
                       "bias_initializer": _init.serialize(self.bias_initializer),
                       "kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                       "bias_regularizer": _reg.serialize(self.bias_regularizer),
                       "activity_regularizer": _reg.serialize(self.activity_regularizer),
                       "kernel_constraint": _con.serialize(self.kernel_constraint),
                       "bias_constraint": _con.serialize(self.bias_constraint)})
        return config


class DepthwiseConv2D(_ImageConv):
    """Each input channel convolved with its own depth_multiplier filters: channels * depth_multiplier
    outputs, ordered channel-major (channel c gives outputs c * m ... c * m + m - 1)."""

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         {"depthwise": (depthwise_initializer, depthwise_regularizer, depthwise_constraint),
                          "bias": (bias_initializer, bias_regularizer, bias_constraint)}, activity_regularizer,
                         **kwargs)
        self.depth_multiplier = depth_multiplier

    def build(self, input_shape):
        if len(input_shape) < 4:
            return  # call() raises Keras' rank message
        channels = input_shape[-1]
        self.kernel = self._weight("depthwise", self.kernel_size + (channels, self.depth_multiplier), "kernel")
        self.bias = self._weight("bias", (channels * self.depth_multiplier,), "bias") if self.use_bias else None
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, min_ndim=4)
        return self._finish(_depthwise(inputs, self.kernel, self.strides, self.padding, self.dilation_rate))

    def get_config(self):
        config = {**super().get_config(), "depth_multiplier": self.depth_multiplier, **self._geometry_config()}
        config.update({"depthwise_initializer": _init.serialize(self.depthwise_initializer),
                       "bias_initializer": _init.serialize(self.bias_initializer),
                       "depthwise_regularizer": _reg.serialize(self.depthwise_regularizer),
                       "bias_regularizer": _reg.serialize(self.bias_regularizer),
                       "activity_regularizer": _reg.serialize(self.activity_regularizer),
                       "depthwise_constraint": _con.serialize(self.depthwise_constraint),
                       "bias_constraint": _con.serialize(self.bias_constraint)})
        return config


class SeparableConv2D(_ImageConv):
    """A depthwise convolution (depth_multiplier filters per channel) followed by a 1x1 convolution to
    `filters` outputs: far fewer weights than a full Conv2D of the same reach."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         {"depthwise": (depthwise_initializer, depthwise_regularizer, depthwise_constraint),
                          "pointwise": (pointwise_initializer, pointwise_regularizer, pointwise_constraint),
                          "bias": (bias_initializer, bias_regularizer, bias_constraint)}, activity_regularizer,
                         **kwargs)
        self.filters, self.depth_multiplier = filters, depth_multiplier

    def build(self, input_shape):
        if len(input_shape) < 4:
            return  # call() raises Keras' rank message
        channels = input_shape[-1]
        self.depthwise_kernel = self._weight("depthwise", self.kernel_size + (channels, self.depth_multiplier),
                                             "depthwise_kernel")
        self.pointwise_kernel = self._weight("pointwise", (1, 1, channels * self.depth_multiplier, self.filters),
                                             "pointwise_kernel")
        self.bias = self._weight("bias", (self.filters,), "bias") if self.use_bias else None
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, min_ndim=4)
        y = _depthwise(inputs, self.depthwise_kernel, self.strides, self.padding, self.dilation_rate)
        y = _conv.conv2d(y, self.pointwise_kernel, strides=(1, 1, 1, 1), padding="VALID")
        return self._finish(y)

    def get_config(self):
        config = {**super().get_config(), "depth_multiplier": self.depth_multiplier, "filters": self.filters,
                  **self._geometry_config()}
        for prefix in ("depthwise", "pointwise", "bias"):
            config[f"{prefix}_initializer"] = _init.serialize(getattr(self, f"{prefix}_initializer"))
        for prefix in ("depthwise", "pointwise", "bias"):
            config[f"{prefix}_regularizer"] = _reg.serialize(getattr(self, f"{prefix}_regularizer"))
        config["activity_regularizer"] = _reg.serialize(self.activity_regularizer)
        for prefix in ("depthwise", "pointwise", "bias"):
            config[f"{prefix}_constraint"] = _con.serialize(getattr(self, f"{prefix}_constraint"))
        return config
