"""GroupNormalization: statistics per sample over groups of channels (between LayerNormalization, one
group, and InstanceNormalization, one group per channel), as Keras 3.15 computes them."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.nn import basic as _nn
from ...._src.ops.array.joining import concat
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..base import Layer
from ..input_spec import check_ndim


class GroupNormalization(Layer):
    """Splits the `axis` channels into `groups` groups (groups=-1: one per channel) and normalises each
    group of each sample by its mean and variance, then applies per-channel gamma and beta."""
    supports_masking = True

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.groups, self.axis, self.epsilon, self.center, self.scale = groups, axis, epsilon, center, scale
        self._inits = (_init.get(gamma_initializer), _init.get(beta_initializer))
        self._regs = (_reg.get(gamma_regularizer), _reg.get(beta_regularizer))
        self._cons = (_con.get(gamma_constraint), _con.get(beta_constraint))
        self._rank = None
        self.gamma = self.beta = None

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the layer "
                             f"received an input with shape {tuple(input_shape)}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number of channels ({dim}).")
        if dim % self.groups != 0:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number of channels "
                             f"({dim}).")
        self._rank = len(input_shape)
        if self.scale:
            self.gamma = self.add_weight((dim,), self._inits[0], name="gamma", regularizer=self._regs[0],
                                         constraint=self._cons[0])
        if self.center:
            self.beta = self.add_weight((dim,), self._inits[1], name="beta", regularizer=self._regs[1],
                                        constraint=self._cons[1])
        self.built = True

    def call(self, inputs):
        check_ndim(self, inputs, ndim=self._rank)
        rank = inputs.shape.rank
        axis = self.axis % rank
        dims = inputs.shape.as_list()
        shape = _array.shape(inputs)
        per_group = dims[axis] // self.groups
        # (..., C, ...) -> (..., groups, C // groups, ...); the other dims as the input has them at run time
        grouped = _array.reshape(inputs, concat([shape[:axis], _array.constant([self.groups, per_group],
                                                                                 dtype=shape.dtype),
                                                 shape[axis + 1:]], 0))
        reduce_axes = [a for a in range(1, rank + 1) if a != axis]
        mean, variance = _nn.moments(grouped, reduce_axes, keepdims=True)
        inv = _math.rsqrt(variance + _math.cast(self.epsilon, variance.dtype))
        bshape = [1] * (rank + 1)
        bshape[axis], bshape[axis + 1] = self.groups, per_group
        if self.gamma is not None:
            inv = inv * _array.reshape(self.gamma, bshape)
        offset = -mean * inv
        if self.beta is not None:
            offset = offset + _array.reshape(self.beta, bshape)
        return _array.reshape(grouped * inv + offset, shape)

    def get_config(self):
        return {**super().get_config(), "groups": self.groups, "axis": self.axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale, "beta_initializer": _init.serialize(self._inits[1]),
                "gamma_initializer": _init.serialize(self._inits[0]), "beta_regularizer": _reg.serialize(self._regs[1]),
                "gamma_regularizer": _reg.serialize(self._regs[0]), "beta_constraint": _con.serialize(self._cons[1]),
                "gamma_constraint": _con.serialize(self._cons[0])}


