"""PReLU: a leaky ReLU whose negative slope is learned, one per feature (or shared over `shared_axes`)."""
from __future__ import annotations

from ...._src.ops.nn import basic as _nn
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..base import Layer


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
