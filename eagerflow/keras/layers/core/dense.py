"""Dense: a matrix product with a kernel over the last axis, plus a bias and an activation."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.linalg.matmul import matmul
from ... import activations as _act
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..base import Layer
from ..input_spec import InputSpec


def matmul_last_axis(x, kernel):
    """x (..., n) @ kernel (n, m) -> (..., m), for leading dims known only at run time too (one 2-D
    matmul over the flattened leading dims)."""
    flat = _array.reshape(x, [-1, int(kernel.shape[0])])
    out = matmul(flat, kernel)
    static_lead = x.shape.as_list()[:-1] if x.shape.rank is not None else None
    if static_lead is not None and static_lead.count(None) <= 1:  # (None, T, n): the static dims stay known
        return _array.reshape(out, [-1 if d is None else d for d in static_lead] + [int(kernel.shape[1])])
    lead = _array.shape(x)[:-1]
    return _array.reshape(out, concat([lead, _array.constant([int(kernel.shape[1])], dtype=lead.dtype)], 0))


def batch_and(x, dims):
    """[batch size of x (known only at run time), *dims] as a shape tensor."""
    batch = _array.shape(x)[:1]
    return concat([batch, _array.constant(dims, dtype=batch.dtype)], 0)


class Dense(Layer):
    """y = activation(x @ kernel + bias), over the last axis of x."""
    supports_masking = True

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        kwargs.pop("quantization_config", None)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")
        self.units = units
        self.activation = _act.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _init.get(kernel_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = _reg.get(kernel_regularizer), _reg.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = _con.get(kernel_constraint), _con.get(bias_constraint)

    def build(self, input_shape):
        if len(input_shape) < 2:
            raise ValueError(f"Input 0 with name 'None' of layer '{self.name}' is incompatible with the layer: "
                             f"expected min_ndim=2, found ndim={len(input_shape)}. Full shape received: "
                             f"{tuple(input_shape)}")
        in_dim = input_shape[-1]
        if in_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             f"Full input shape received: {input_shape}")
        self.kernel = self.add_weight((in_dim, self.units), self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = self.add_weight((self.units,), self.bias_initializer, name="bias", regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: in_dim})  # later calls are checked against it
        self.built = True

    def call(self, inputs):
        if inputs.shape.rank == 2:
            y = matmul(inputs, self.kernel)
        else:
            y = matmul_last_axis(inputs, self.kernel)
        if self.bias is not None:
            y = y + self.bias
        return y if self.activation is None else self.activation(y)  # None may be set after construction

    def get_config(self):
        return {**super().get_config(), "units": self.units, "activation": _act.serialize(self.activation),
                "use_bias": self.use_bias, "kernel_initializer": _init.serialize(self.kernel_initializer),
                "bias_initializer": _init.serialize(self.bias_initializer),
                "kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                "bias_regularizer": _reg.serialize(self.bias_regularizer),
                "kernel_constraint": _con.serialize(self.kernel_constraint),
                "bias_constraint": _con.serialize(self.bias_constraint), "quantization_config": None}


