"""BatchNormalization (Keras 3 defaults: epsilon 1e-3, momentum 0.99): batch statistics while training,
moving averages otherwise."""
from __future__ import annotations

from ...._src.core import dtypes as _dt
from ...._src.ops.math import elementwise as _math
from ...._src.ops.nn import basic as _nn
from ... import constraints as _con
from ... import initializers as _init
from ... import mixed_precision as _mixed
from ... import regularizers as _reg
from ..base import Layer


def _axes_except(rank, axis):
    axis = axis % rank
    return [a for a in range(rank) if a != axis]


class BatchNormalization(Layer):
    supports_masking = True
    """Training: normalize with the batch's mean and (biased) variance and move the moving
    statistics toward them (moving = moving * momentum + batch * (1 - momentum)).
    Inference: normalize with the moving statistics."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, synchronized=False, renorm=False, **kwargs):
        for k in ("renorm_clipping", "renorm_momentum"):
            kwargs.pop(k, None)
        if renorm:
            raise NotImplementedError("BatchNormalization(renorm=True) is not supported yet.")
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon, self.center, self.scale = axis, momentum, epsilon, center, scale
        self._inits = tuple(_init.get(i) for i in (gamma_initializer, beta_initializer, moving_mean_initializer,
                                                   moving_variance_initializer))
        self._regs = (_reg.get(gamma_regularizer), _reg.get(beta_regularizer))
        self._cons = (_con.get(gamma_constraint), _con.get(beta_constraint))

    def build(self, input_shape):
        dim = (input_shape[self.axis],)
        g, b, mm, mv = self._inits
        self.gamma = self.add_weight(dim, g, name="gamma", regularizer=self._regs[0],
                                     constraint=self._cons[0]) if self.scale else None
        self.beta = self.add_weight(dim, b, name="beta", regularizer=self._regs[1],
                                    constraint=self._cons[1]) if self.center else None
        self.moving_mean = self.add_weight(dim, mm, name="moving_mean", trainable=False)
        self.moving_variance = self.add_weight(dim, mv, name="moving_variance", trainable=False)
        self.built = True

    def call(self, inputs, training=None, mask=None):
        if inputs.dtype in (_dt.float16, _dt.bfloat16):
            # Keras 3: statistics of half-precision inputs are computed in float32 over the float32
            # weights (not autocast), and the output is cast back (they overflow in float16)
            with _mixed.autocast(None):
                out = self.call(_math.cast(inputs, _dt.float32), training=training, mask=mask)
            return _math.cast(out, inputs.dtype)
        if training and self.trainable:
            mean, variance = _nn.moments(inputs, _axes_except(inputs.shape.rank, self.axis))
            m = self.momentum
            self.moving_mean.assign(self.moving_mean * m + mean * (1.0 - m))
            self.moving_variance.assign(self.moving_variance * m + variance * (1.0 - m))
        else:
            mean, variance = self.moving_mean, self.moving_variance
        return _normalize(inputs, mean, variance, self.gamma, self.beta, self.epsilon, self.axis)

    def get_config(self):
        g, b, mm, mv = (_init.serialize(i) for i in self._inits)
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale, "beta_initializer": b, "gamma_initializer": g,
                "moving_mean_initializer": mm, "moving_variance_initializer": mv,
                "beta_regularizer": _reg.serialize(self._regs[1]), "gamma_regularizer": _reg.serialize(self._regs[0]),
                "beta_constraint": _con.serialize(self._cons[1]), "gamma_constraint": _con.serialize(self._cons[0]),
                "synchronized": False, "renorm": False, "renorm_clipping": None, "renorm_momentum": 0.99}


def _normalize(x, mean, variance, gamma, beta, epsilon, axis):
    rank = x.shape.rank
    if axis % rank != rank - 1:  # broadcast per-channel statistics along a non-last axis
        shape = [1] * rank
        shape[axis % rank] = -1
        from ...._src.ops.array.basic import reshape
        mean, variance = reshape(mean, shape), reshape(variance, shape)
        gamma = None if gamma is None else reshape(gamma, shape)
        beta = None if beta is None else reshape(beta, shape)
    return _nn.batch_normalization(x, mean, variance, beta, gamma, epsilon)


