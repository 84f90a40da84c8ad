"""Core layers: Dense, Flatten, Dropout, Activation, ReLU, Softmax, Reshape, Embedding."""
from __future__ import annotations

import math

from ...._src.ops import array as _array
from ...._src.ops import math as _math
from ...._src.ops import nn as _nn
from ...._src.ops.matmul import matmul
from ...._src.ops.reduce import reduce_logsumexp
from ...._src.ops.joining import concat
from ...._src.ops.slicing import gather
from ... import activations as _act
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..base import Layer
from ..masks import embedding_mask


def matmul_last_axis(x, kernel):
    """x (..., n) @ kernel (n, m) -> (..., m), for leading dims known only at run time too (one 2-D
    matmul over the flattened leading dims)."""
    lead = _array.shape(x)[:-1]
    flat = _array.reshape(x, [-1, int(kernel.shape[0])])
    out = matmul(flat, kernel)
    return _array.reshape(out, concat([lead, _array.constant([int(kernel.shape[1])], dtype=lead.dtype)], 0))


def _batch_and(x, dims):
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
        self.built = True

    def call(self, inputs):
        if inputs.shape.rank == 2:
            y = matmul(inputs, self.kernel)
        else:
            y = matmul_last_axis(inputs, self.kernel)
        if self.bias is not None:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "units": self.units, "activation": _act.serialize(self.activation),
                "use_bias": self.use_bias, "kernel_initializer": _init.serialize(self.kernel_initializer),
                "bias_initializer": _init.serialize(self.bias_initializer),
                "kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                "bias_regularizer": _reg.serialize(self.bias_regularizer),
                "kernel_constraint": _con.serialize(self.kernel_constraint),
                "bias_constraint": _con.serialize(self.bias_constraint), "quantization_config": None}


class Flatten(Layer):
    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError("Only data_format='channels_last' is supported.")

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last"}

    def call(self, inputs):
        dims = inputs.shape.as_list()[1:]
        if all(d is not None for d in dims):
            return _array.reshape(inputs, [-1, math.prod(dims)])
        return _array.reshape(inputs, _batch_and(inputs, [-1]))


class Dropout(Layer):
    """Zeroes a `rate` fraction of the inputs (scaling the rest by 1/(1-rate)) when training."""
    supports_masking = True

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                             f"Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return _nn.dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=self.seed)
        return inputs

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape}


class Activation(Layer):
    supports_masking = True

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = _act.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return {**super().get_config(), "activation": _act.serialize(self.activation)}


class ReLU(Layer):
    supports_masking = True

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        if self.negative_slope == 0 and self.threshold == 0:
            y = _nn.relu(inputs)
        else:
            below = (inputs - self.threshold) * self.negative_slope
            y = _array.where(_math.greater_equal(inputs, self.threshold), inputs, below)
        if self.max_value is not None:
            y = _math.minimum(y, _math.cast(self.max_value, y.dtype))
        return y

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value, "negative_slope": self.negative_slope,
                "threshold": self.threshold}


class Softmax(Layer):
    supports_masking = True

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        return masked_softmax(inputs, self.axis, mask)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


def masked_softmax(x, axis, mask=None, zero_masked=True):
    """Keras 3's Softmax: positions where `mask` is False (or <= 0.5) get -1e9 before the softmax and 0
    after it (so a fully masked row is all zeros, not uniform); a tuple `axis` normalises over several
    axes at once. Attention layers reuse it; zero_masked=False keeps the uniform row of a fully masked
    query, as Keras' fused dot_product_attention path computes it."""
    if mask is not None:
        mask = _math.cast(mask, "bool") if mask.dtype.name == "bool" else _math.greater(
            mask, _math.cast(0.5, mask.dtype))
        x = _array.where(mask, x, _array.fill(_array.shape(x), _math.cast(-1e9, x.dtype)))
    if isinstance(axis, (tuple, list)) and len(axis) > 1:
        out = _math.exp(x - reduce_logsumexp(x, axis=list(axis), keepdims=True))
    else:
        out = _nn.softmax(x, axis=axis[0] if isinstance(axis, (tuple, list)) else axis)
    if mask is not None and zero_masked:
        out = _array.where(mask, out, _array.zeros_like(out))
    return out


class Reshape(Layer):
    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        if -1 not in self.target_shape:
            return _array.reshape(inputs, [-1] + list(self.target_shape))
        return _array.reshape(inputs, _batch_and(inputs, list(self.target_shape)))

    def get_config(self):
        return {**super().get_config(), "target_shape": list(self.target_shape)}


class Embedding(Layer):
    """Looks up row `i` of an (input_dim, output_dim) table for each integer index."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, **kwargs):
        kwargs.pop("input_length", None)
        kwargs.pop("quantization_config", None)
        super().__init__(**kwargs)
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_regularizer = _reg.get(embeddings_regularizer)
        self.embeddings_constraint = _con.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.supports_masking = bool(mask_zero)
        self.embeddings_initializer = (_init.RandomUniform() if embeddings_initializer == "uniform"
                                       else _init.get(embeddings_initializer))

    def build(self, input_shape=None):
        self.embeddings = self.add_weight((self.input_dim, self.output_dim), self.embeddings_initializer,
                                          name="embeddings", regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        self.built = True

    def call(self, inputs):
        if not inputs.dtype.is_integer:
            inputs = _math.cast(inputs, "int32")
        return gather(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        """`inputs != 0` with mask_zero=True (index 0 is padding), else no mask."""
        return embedding_mask(inputs, self.mask_zero)

    def get_config(self):
        return {**super().get_config(), "input_dim": self.input_dim, "output_dim": self.output_dim,
                "embeddings_initializer": _init.serialize(self.embeddings_initializer),
                "embeddings_regularizer": _reg.serialize(self.embeddings_regularizer),
                "activity_regularizer": _reg.serialize(self.activity_regularizer),
                "embeddings_constraint": _con.serialize(self.embeddings_constraint), "mask_zero": self.mask_zero,
                "quantization_config": None}
