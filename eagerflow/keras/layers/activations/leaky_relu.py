"""Activation layers with parameters: LeakyReLU, ELU, PReLU (a learned slope per feature) and Identity."""
from __future__ import annotations

from ...._src.ops import math as _math
from ...._src.ops import nn as _nn
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..base import Layer


class LeakyReLU(Layer):
    """x for x >= 0, negative_slope * x below (Keras 3 still takes the old name `alpha`)."""
    supports_masking = True

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"The negative_slope value of a Leaky ReLU layer cannot be None or negative value. "
                             f"Expected a float. Received: negative_slope={negative_slope}")
        self.negative_slope = negative_slope

    def call(self, inputs):
        return _nn.leaky_relu(inputs, alpha=self.negative_slope)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


class ELU(Layer):
    """x for x > 0, alpha * (exp(x) - 1) below."""
    supports_masking = True

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        y = _nn.elu(inputs)
        if self.alpha == 1.0:
            return y
        return _math.maximum(inputs, _math.cast(0, inputs.dtype)) + _math.minimum(y, _math.cast(0, y.dtype)) * \
            _math.cast(self.alpha, y.dtype)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class PReLU(Layer):
    """relu(x) - alpha * relu(-x), with one learned `alpha` per input element (batch axis excluded);
    `shared_axes` share one alpha along those axes (size-1 there), e.g. per channel of an image."""
    supports_masking = True

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = _init.get(alpha_initializer)
        self.alpha_regularizer = _reg.get(alpha_regularizer)
        self.alpha_constraint = _con.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif isinstance(shared_axes, (list, tuple)):
            self.shared_axes = list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            shape[axis - 1] = 1
        if any(d is None for d in shape):
            raise ValueError(f"PReLU needs every non-shared input dimension known. Received input_shape="
                             f"{tuple(input_shape)}")
        self.alpha = self.add_weight(tuple(shape), self.alpha_initializer, name="alpha",
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        self.built = True

    def call(self, inputs):
        return _nn.relu(inputs) - self.alpha * _nn.relu(-inputs)

    def get_config(self):
        return {**super().get_config(), "alpha_initializer": _init.serialize(self.alpha_initializer),
                "alpha_regularizer": _reg.serialize(self.alpha_regularizer),
                "alpha_constraint": _con.serialize(self.alpha_constraint), "shared_axes": self.shared_axes}


class Identity(Layer):
    """Returns its input unchanged (a placeholder in a model graph)."""
    supports_masking = True

    def call(self, inputs):
        return inputs
