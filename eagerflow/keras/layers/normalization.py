"""BatchNormalization and LayerNormalization (Keras 3 defaults: epsilon 1e-3, momentum 0.99)."""
from __future__ import annotations

from ..._src.ops import math as _math
from ..._src.ops import nn as _nn
from .base import Layer


def _axes_except(rank, axis):
    axis = axis % rank
    return [a for a in range(rank) if a != axis]


class BatchNormalization(Layer):
    """Training: normalize with the batch's mean and (biased) variance and move the moving
    statistics toward them (moving = moving * momentum + batch * (1 - momentum)).
    Inference: normalize with the moving statistics."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon, self.center, self.scale = axis, momentum, epsilon, center, scale
        self._inits = (gamma_initializer, beta_initializer, moving_mean_initializer, moving_variance_initializer)

    def build(self, input_shape):
        dim = (input_shape[self.axis],)
        g, b, mm, mv = self._inits
        self.gamma = self.add_weight(dim, g, name="gamma") if self.scale else None
        self.beta = self.add_weight(dim, b, name="beta") if self.center else None
        self.moving_mean = self.add_weight(dim, mm, name="moving_mean", trainable=False)
        self.moving_variance = self.add_weight(dim, mv, name="moving_variance", trainable=False)
        self.built = True

    def call(self, inputs, training=None, mask=None):
        if training and self.trainable:
            mean, variance = _nn.moments(inputs, _axes_except(inputs.shape.rank, self.axis))
            m = self.momentum
            self.moving_mean.assign(self.moving_mean * m + mean * (1.0 - m))
            self.moving_variance.assign(self.moving_variance * m + variance * (1.0 - m))
        else:
            mean, variance = self.moving_mean, self.moving_variance
        return _normalize(inputs, mean, variance, self.gamma, self.beta, self.epsilon, self.axis)


def _normalize(x, mean, variance, gamma, beta, epsilon, axis):
    rank = x.shape.rank
    if axis % rank != rank - 1:  # broadcast per-channel statistics along a non-last axis
        shape = [1] * rank
        shape[axis % rank] = -1
        from ..._src.ops.array import reshape
        mean, variance = reshape(mean, shape), reshape(variance, shape)
        gamma = None if gamma is None else reshape(gamma, shape)
        beta = None if beta is None else reshape(beta, shape)
    return _nn.batch_normalization(x, mean, variance, beta, gamma, epsilon)


class LayerNormalization(Layer):
    """Normalizes each sample over `axis` (the last by default), then scales by gamma and shifts by beta."""

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon, self.center, self.scale = axis, epsilon, center, scale
        self._inits = (gamma_initializer, beta_initializer)

    def build(self, input_shape):
        dim = (input_shape[self.axis],)
        self.gamma = self.add_weight(dim, self._inits[0], name="gamma") if self.scale else None
        self.beta = self.add_weight(dim, self._inits[1], name="beta") if self.center else None
        self.built = True

    def call(self, inputs):
        axis = self.axis % inputs.shape.rank
        mean, variance = _nn.moments(inputs, [axis], keepdims=True)
        inv = _math.rsqrt(variance + self.epsilon)
        y = (inputs - mean) * inv
        if self.gamma is not None:
            y = y * self.gamma if axis == inputs.shape.rank - 1 else y * _bcast(self.gamma, inputs, axis)
        if self.beta is not None:
            y = y + self.beta if axis == inputs.shape.rank - 1 else y + _bcast(self.beta, inputs, axis)
        return y


def _bcast(v, x, axis):
    from ..._src.ops.array import reshape
    shape = [1] * x.shape.rank
    shape[axis] = -1
    return reshape(v, shape)
