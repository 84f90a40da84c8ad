"""`keras.activations`: the named activation functions layers accept as `activation='relu'`."""
from __future__ import annotations

from .._src.ops import math as _math
from .._src.ops import nn as _nn


def linear(x):
    return x


def relu(x):
    return _nn.relu(x)


def sigmoid(x):
    return _math.sigmoid(x)


def tanh(x):
    return _math.tanh(x)


def softmax(x, axis=-1):
    return _nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return _nn.log_softmax(x, axis=axis)


def elu(x):
    return _nn.elu(x)


def selu(x):
    return _nn.selu(x)


def softplus(x):
    return _nn.softplus(x)


def gelu(x, approximate=False):
    return _nn.gelu(x, approximate=approximate)


def silu(x):
    return _nn.silu(x)


swish = silu

_BY_NAME = {f.__name__: f for f in (linear, relu, sigmoid, tanh, softmax, log_softmax, elu, selu, softplus,
                                    gelu, silu)}
_BY_NAME["swish"] = silu


def get(identifier):
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")
