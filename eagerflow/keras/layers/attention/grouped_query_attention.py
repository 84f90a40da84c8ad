"""GroupQueryAttention: attention where groups of query heads share one key/value head (fewer key and
value weights and a smaller cache than MultiHeadAttention, as in Llama 2/3 and Mistral).

Four EinsumDense projections named query (d, query_heads, head_dim), key and value (d, kv_heads,
head_dim) and attention_output (query_heads, head_dim, d), as Keras names them; each key/value head
serves num_query_heads // num_key_value_heads consecutive query heads."""
from __future__ import annotations

import math

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.linalg.einsum import einsum
from ...._src.ops.math import elementwise as _math
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ...naming import name_scope, scope_stack, unique_name
from ..activations.softmax import masked_softmax
from ..base import Layer
from ..core.einsum_dense import EinsumDense
from ..masks import get_keras_mask
from .builds_from_call_shapes import BuildsFromCallShapes
from ..regularization.dropout import Dropout
from .multi_head_attention import causal_mask


def _as_bool(mask):
    mask = convert_to_tensor(mask)
    return mask if mask.dtype.name == "bool" else _math.cast(mask, "bool")


def _both(a, b):
    return b if a is None else (a if b is None else _math.logical_and(a, b))


def _repeat_heads(x, times):
    """(batch, steps, heads, dim) -> (batch, steps, heads * times, dim), each head repeated in place."""
    if times == 1:
        return x
    expanded = _array.expand_dims(x, 3)  # (b, s, h, 1, d)
    tiled = concat([expanded] * times, 3)
    shape = x.shape.as_list()
    return _array.reshape(tiled, concat([_array.shape(x)[:2], _array.constant([shape[2] * times, shape[3]],
                                                                              dtype="int32")], 0))


class GroupQueryAttention(BuildsFromCallShapes, Layer):
    """call(query, value, key=None, ..., attention_mask=None, return_attention_scores=False,
    use_causal_mask=False): softmax(q k^T / sqrt(head_dim)) over the value steps, scores shaped
    (batch, query_heads, query_steps, value_steps)."""
    supports_masking = True

    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0, use_bias=True,
                 sliding_window=None, flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None, **kwargs):
        if kwargs.get("name") is None:  # Keras names it after its class GroupedQueryAttention
            kwargs["name"] = unique_name("grouped_query_attention")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if use_gate or sliding_window is not None:
            raise NotImplementedError("GroupQueryAttention(use_gate=True / sliding_window=...) is not supported yet.")
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`.")
        self.head_dim, self.num_query_heads, self.num_key_value_heads = head_dim, num_query_heads, num_key_value_heads
        self.dropout, self.use_bias, self.seed = dropout, use_bias, seed
        self.kernel_initializer, self.bias_initializer = _init.get(kernel_initializer), _init.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = _reg.get(kernel_regularizer), _reg.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = _con.get(kernel_constraint), _con.get(bias_constraint)
        self._shapes = None

    def _dense(self, equation, output_shape, bias_axes, input_shape, name):
        layer = EinsumDense(equation, output_shape=output_shape, bias_axes=bias_axes if self.use_bias else None,
                            name=name, kernel_initializer=self.kernel_initializer,
                            bias_initializer=self.bias_initializer, kernel_regularizer=self.kernel_regularizer,
                            bias_regularizer=self.bias_regularizer, kernel_constraint=self.kernel_constraint,
                            bias_constraint=self.bias_constraint, dtype=self.dtype_policy)
        layer.build(input_shape)
        self._tracked_layers.append(layer)  # a private attribute is not tracked by __setattr__
        return layer

    def build(self, query_shape, value_shape=None, key_shape=None):
        if self.name not in scope_stack():
            with name_scope(self.name):
                return self.build(query_shape, value_shape, key_shape)
        query_shape = tuple(query_shape)
        value_shape = query_shape if value_shape is None else tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        self._shapes = {"query_shape": list(query_shape), "value_shape": list(value_shape)}
        if key_shape != value_shape:
            self._shapes["key_shape"] = list(key_shape)
        heads, kv_heads, dim = self.num_query_heads, self.num_key_value_heads, self.head_dim
        self._query_dense = self._dense("bqm,muh->bquh", (None, heads, dim), "uh", query_shape, "query")
        self._key_dense = self._dense("bkm,mvh->bkvh", (None, kv_heads, dim), "vh", key_shape, "key")
        self._value_dense = self._dense("bkm,mvh->bkvh", (None, kv_heads, dim), "vh", value_shape, "value")
        self._dropout_layer = Dropout(rate=self.dropout, seed=self.seed, dtype=self.dtype_policy)
        self._tracked_layers.append(self._dropout_layer)
        self._output_dense = self._dense("bquh,uhm->bqm", (None, query_shape[-1]), "m",
                                         query_shape[:-1] + (heads, dim), "attention_output")
        self.built = True

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None, attention_mask=None,
             return_attention_scores=False, training=None, use_causal_mask=False):
        query_mask = get_keras_mask(query) if query_mask is None else query_mask
        value_mask, key_mask = self._take_value_and_key_masks(query, value, key, value_mask, key_mask)
        key = value if key is None else key
        self._build_on_first_call(query, value, key)
        mask = None if attention_mask is None else _as_bool(attention_mask)
        if query_mask is not None:
            mask = _both(mask, _array.expand_dims(_as_bool(query_mask), -1))
        for m in (value_mask, key_mask):
            if m is not None:
                mask = _both(mask, _array.expand_dims(_as_bool(m), -2))
        if use_causal_mask:
            mask = _both(mask, causal_mask(_array.shape(query)[1], _array.shape(value)[1]))
        groups = self.num_query_heads // self.num_key_value_heads
        q = self._query_dense(query)
        k = _repeat_heads(self._key_dense(key), groups)
        v = _repeat_heads(self._value_dense(value), groups)
        q = q * _math.cast(1.0 / math.sqrt(float(self.head_dim)), q.dtype)
        scores = einsum("bquh,bkuh->buqk", q, k)
        if mask is not None:
            mask = _array.expand_dims(mask, 1)  # the same mask for every head
        scores = masked_softmax(scores, -1, mask)
        dropped = self._dropout_layer(scores, training=training) if self.dropout else scores
        output = self._output_dense(einsum("buqk,bkuh->bquh", dropped, v))
        return (output, scores) if return_attention_scores else output

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        return tuple(query_shape)

    def get_config(self):
        return {**super().get_config(), "head_dim": self.head_dim, "num_query_heads": self.num_query_heads,
                "num_key_value_heads": self.num_key_value_heads, "use_bias": self.use_bias, "use_gate": False,
                "sliding_window": None, "dropout": self.dropout,
                "kernel_initializer": _init.serialize(self.kernel_initializer),
                "bias_initializer": _init.serialize(self.bias_initializer),
                "kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                "bias_regularizer": _reg.serialize(self.bias_regularizer),
                "activity_regularizer": _reg.serialize(self.activity_regularizer),
                "kernel_constraint": _con.serialize(self.kernel_constraint),
                "bias_constraint": _con.serialize(self.bias_constraint), "seed": self.seed}
