"""BaseConv: what every convolution layer shares (channels_last only).

A convolution has weight families, each with an initializer, a regularizer and a constraint:
`kernel` and `bias` for Conv1D/2D/3D and the transposed convolutions, `depthwise` (and `pointwise`)
and `bias` for DepthwiseConv2D and SeparableConv2D. The base resolves them from Keras identifiers,
creates the weights, adds the bias and applies the activation, and writes the one config layout
Keras 3 gives all of them:

    name, trainable, dtype, [depth_multiplier], [filters], kernel_size, strides, padding,
    [output_padding], data_format, dilation_rate, [groups], activation, use_bias,
    <family>_initializer..., <family>_regularizer..., activity_regularizer, <family>_constraint...

Subclasses parse their geometry (kernel_size, strides, padding, dilation_rate) and implement
`build` and `call`.
"""
from __future__ import annotations

from ... import activations as _act
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..arguments import as_list, check_channels_last, int_pair, padding_mode
from ..base import Layer


class BaseConv(Layer):
    _families = ("kernel", "bias")  # the weight families, in config order
    _leading_config_keys = ("filters",)  # the attributes written before the geometry
    _config_output_padding = False  # transposed convolutions write output_padding (None unless given)
    _config_groups = True  # Conv1D/2D/3D write groups (1 where a layer has no `groups`)

    def __init__(self, activation, use_bias, family_args, activity_regularizer=None, data_format=None, **kwargs):
        """family_args: {family: (initializer, regularizer, constraint)} for each of `_families`."""
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        check_channels_last(data_format)
        self.activation, self.use_bias = _act.get(activation), use_bias
        for family, (initializer, regularizer, constraint) in family_args.items():
            setattr(self, f"{family}_initializer", _init.get(initializer))
            setattr(self, f"{family}_regularizer", _reg.get(regularizer))
            setattr(self, f"{family}_constraint", _con.get(constraint))

    @staticmethod
    def positive_filters(filters):
        """`filters`, refused with Keras 3's ValueError unless it is a positive count (Conv2D(filters=0))."""
        if filters is not None and filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. Received "
                             f"filters={filters}.")
        return filters

    def set_image_geometry(self, kernel_size, strides, padding, dilation_rate):
        """kernel_size, strides, padding and dilation_rate of a 2-D convolution, with Keras' check that
        strides and dilation are not both above 1."""
        self.kernel_size = int_pair(kernel_size, "kernel_size")
        self.strides = int_pair(strides, "strides")
        self.padding = padding_mode(padding).upper()
        self.dilation_rate = int_pair(dilation_rate, "dilation_rate")
        if self.dilation_rate != (1, 1) and self.strides != (1, 1):
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")

    def add_family_weight(self, family, shape, name):
        """A weight of `shape` with the initializer, regularizer and constraint of `family`."""
        return self.add_weight(shape, getattr(self, f"{family}_initializer"), name=name,
                               regularizer=getattr(self, f"{family}_regularizer"),
                               constraint=getattr(self, f"{family}_constraint"))

    def add_kernel_and_bias(self, kernel_shape, bias_size):
        """`kernel` of `kernel_shape` and, with use_bias, a `bias` of `bias_size` values."""
        self.kernel = self.add_family_weight("kernel", kernel_shape, "kernel")
        self.bias = self.add_family_weight("bias", (bias_size,), "bias") if self.use_bias else None

    def add_bias_and_activate(self, y):
        if self.bias is not None:
            y = y + self.bias
        return y if self.activation is None else self.activation(y)  # None may be set after construction

    def get_config(self):
        config = {**super().get_config(), **{key: getattr(self, key) for key in self._leading_config_keys},
                  "kernel_size": as_list(self.kernel_size), "strides": as_list(self.strides),
                  "padding": self.padding.lower()}
        if self._config_output_padding:
            padding = getattr(self, "output_padding", None)
            config["output_padding"] = None if padding is None else as_list(padding)
        config.update({"data_format": "channels_last", "dilation_rate": as_list(self.dilation_rate)})
        if self._config_groups:
            config["groups"] = getattr(self, "groups", 1)
        config.update({"activation": _act.serialize(self.activation), "use_bias": self.use_bias})
        for family in self._families:
            config[f"{family}_initializer"] = _init.serialize(getattr(self, f"{family}_initializer"))
        for family in self._families:
            config[f"{family}_regularizer"] = _reg.serialize(getattr(self, f"{family}_regularizer"))
        config["activity_regularizer"] = _reg.serialize(self.activity_regularizer)
        for family in self._families:
            config[f"{family}_constraint"] = _con.serialize(getattr(self, f"{family}_constraint"))
        return config
