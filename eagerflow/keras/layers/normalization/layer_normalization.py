"""LayerNormalization: each sample normalised over `axis` (Keras 3 default epsilon 1e-3)."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.nn import basic as _nn
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..base import Layer


class LayerNormalization(Layer):
    supports_masking = True
    """Normalizes each sample over `axis` (the last by default), then scales by gamma and shifts by beta."""

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, rms_scaling=False, **kwargs):
        if rms_scaling:
            raise NotImplementedError("LayerNormalization(rms_scaling=True) is not supported yet.")
        super().__init__(**kwargs)
        self.axis, self.epsilon, self.center, self.scale = axis, epsilon, center, scale
        self._inits = (_init.get(gamma_initializer), _init.get(beta_initializer))
        self._regs = (_reg.get(gamma_regularizer), _reg.get(beta_regularizer))
        self._cons = (_con.get(gamma_constraint), _con.get(beta_constraint))

    def build(self, input_shape):
        dim = (input_shape[self.axis],)
        self.gamma = self.add_weight(dim, self._inits[0], name="gamma", regularizer=self._regs[0],
                                     constraint=self._cons[0]) if self.scale else None
        self.beta = self.add_weight(dim, self._inits[1], name="beta", regularizer=self._regs[1],
                                    constraint=self._cons[1]) if self.center else None
        self.built = True

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon, "center": self.center,
                "scale": self.scale, "rms_scaling": False, "beta_initializer": _init.serialize(self._inits[1]),
                "gamma_initializer": _init.serialize(self._inits[0]), "beta_regularizer": _reg.serialize(self._regs[1]),
                "gamma_regularizer": _reg.serialize(self._regs[0]), "beta_constraint": _con.serialize(self._cons[1]),
                "gamma_constraint": _con.serialize(self._cons[0])}

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
    from ...._src.ops.array.basic import reshape
    shape = [1] * x.shape.rank
    shape[axis] = -1
    return reshape(v, shape)
