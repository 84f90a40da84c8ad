"""MultiHeadAttention, as Keras 3 builds it: four EinsumDense projections named query, key, value and
attention_output (kernels (d, heads, key_dim), ..., (heads, value_dim, d)), scaled dot-product scores
over `attention_axes` (the steps axis by default), a masked softmax (Softmax layer) and dropout on the
scores while training. The einsum equations are spelled from the ranks as Keras spells them, so the
weights of a Keras model load unchanged."""
from __future__ import annotations

import math
import string

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.linalg.einsum import einsum
from ...._src.ops.array.sequences import range as _range
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ...naming import name_scope, scope_stack
from ..base import Layer
from ..regularization.dropout import Dropout
from ..activations.softmax import Softmax, masked_softmax
from ..core.einsum_dense import EinsumDense
from ..masks import get_keras_mask
from .builds_from_call_shapes import BuildsFromCallShapes

_LETTERS = string.ascii_lowercase


def _projection_equation(free_dims, bound_dims, output_dims):
    """("abc,cde->abde", "de", 4) for free=2, bound=1, output=2: the free dims pass through, the bound ones
    contract with the kernel, the output ones come from it (and carry the bias)."""
    free = _LETTERS[:free_dims]
    bound = _LETTERS[free_dims:free_dims + bound_dims]
    out = _LETTERS[free_dims + bound_dims:free_dims + bound_dims + output_dims]
    return f"{free}{bound},{bound}{out}->{free}{out}", out, free_dims + output_dims


def _attention_equations(rank, attention_axes):
    """The score and combine equations for projected tensors of `rank` (batch, <attention dims>, heads, dim):
    ("aecd,abcd->acbe", "acbe,aecd->abcd", 4) for rank 4 attending over axis 1."""
    target = _LETTERS[:rank]
    batch_dims = [i for i in range(rank) if i not in attention_axes and i != rank - 1]
    source, offset = "", rank
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += _LETTERS[offset]
            offset += 1
    product = "".join([target[i] for i in batch_dims] + [target[i] for i in attention_axes] +
                      [source[i] for i in attention_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


def causal_mask(query_steps, value_steps):
    """(1, T, S) booleans, True where query step t may see value step s (s <= t)."""
    rows = _array.expand_dims(_range(query_steps), 1)
    cols = _array.expand_dims(_range(value_steps), 0)
    return _array.expand_dims(_math.greater_equal(rows, cols), 0)


def _and(a, b):
    return b if a is None else (a if b is None else _math.logical_and(a, b))


def _bool(mask):
    if mask is None:
        return None
    mask = convert_to_tensor(mask)
    return mask if mask.dtype.name == "bool" else _math.cast(mask, "bool")


class MultiHeadAttention(BuildsFromCallShapes, Layer):
    """Attention of `num_heads` heads: each projects query, key and value to key_dim/value_dim, attends
    with softmax(q k^T / sqrt(key_dim)), and the heads' outputs are projected back to the query's size
    (or `output_shape`). `call(query, value, key=None, ...)`; key defaults to value. The output carries
    the query's Keras mask."""
    supports_masking = True

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True, output_shape=None,
                 attention_axes=None, flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, seed=None, use_gate=False, sliding_window=None,
                 **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if use_gate or sliding_window is not None:
            raise NotImplementedError("MultiHeadAttention(use_gate=True / sliding_window=...) is not supported yet.")
        self.num_heads, self.key_dim = num_heads, key_dim
        self.value_dim = value_dim if value_dim else key_dim
        self.dropout, self.use_bias, self.seed = dropout, use_bias, seed
        if output_shape is not None:
            output_shape = (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        self.output_shape_arg = output_shape
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        self.attention_axes = None if attention_axes is None else tuple(attention_axes)
        self.kernel_initializer, self.bias_initializer = _init.get(kernel_initializer), _init.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = _reg.get(kernel_regularizer), _reg.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = _con.get(kernel_constraint), _con.get(bias_constraint)
        self._shapes = None

    def _sublayer_args(self):
        return dict(kernel_initializer=self.kernel_initializer, bias_initializer=self.bias_initializer,
                    kernel_regularizer=self.kernel_regularizer, bias_regularizer=self.bias_regularizer,
                    kernel_constraint=self.kernel_constraint, bias_constraint=self.bias_constraint, dtype=self.dtype_policy)

    def _dense(self, shape, bound_dims, last_dims, name):
        equation, bias_axes, rank = _projection_equation(len(shape) - bound_dims, bound_dims, len(last_dims))
        layer = EinsumDense(equation, output_shape=[None] * (rank - 1 - len(last_dims)) + list(last_dims),
                            bias_axes=bias_axes if self.use_bias else None, name=name, **self._sublayer_args())
        layer.build(shape)
        self._tracked_layers.append(layer)  # a private attribute is not tracked by __setattr__
        return layer

    def build(self, query_shape, value_shape=None, key_shape=None):
        """Builds the four projections (Keras' weight order: query, key, value, attention_output), their
        weights under this layer's name even when built outside a call."""
        if self.name not in scope_stack():
            with name_scope(self.name):
                return self.build(query_shape, value_shape, key_shape)
        query_shape = tuple(query_shape)
        value_shape = query_shape if value_shape is None else tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        self._shapes = {"query_shape": list(query_shape), "value_shape": list(value_shape)}
        if key_shape != value_shape:
            self._shapes["key_shape"] = list(key_shape)
        self._query_dense = self._dense(query_shape, 1, (self.num_heads, self.key_dim), "query")
        self._key_dense = self._dense(key_shape, 1, (self.num_heads, self.key_dim), "key")
        self._value_dense = self._dense(value_shape, 1, (self.num_heads, self.value_dim), "value")
        rank = len(query_shape) + 1  # the projected tensors: (batch, <steps>, heads, dim)
        if self.attention_axes is None:
            self.attention_axes = tuple(range(1, rank - 2))
        self._score_equation, self._combine_equation, score_rank = _attention_equations(rank, self.attention_axes)
        norm_axes = tuple(range(score_rank - len(self.attention_axes), score_rank))
        self._softmax = Softmax(axis=norm_axes, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, seed=self.seed, dtype=self.dtype_policy)
        self._tracked_layers.extend([self._softmax, self._dropout_layer])
        out_dims = self.output_shape_arg or (query_shape[-1],)
        self._output_dense = self._dense(query_shape[:-1] + (self.num_heads, self.value_dim), 2, out_dims,
                                         "attention_output")
        self.built = True

    def _attention_mask(self, query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask):
        """Keras' compute_attention_mask: the query/value/key masks and the causal mask, and-ed together with
        the given (batch, T, S) mask."""
        auto = None
        if query_mask is not None:
            auto = _array.expand_dims(_bool(query_mask), -1)  # (B, T, 1)
        if value_mask is not None:
            auto = _and(auto, _array.expand_dims(_bool(value_mask), -2))  # (B, 1, S)
        if key_mask is not None:
            auto = _and(auto, _array.expand_dims(_bool(key_mask), -2))
        if use_causal_mask:
            auto = _and(auto, causal_mask(_array.shape(query)[1], _array.shape(value)[1]))
        return _and(_bool(attention_mask), auto)

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None, attention_mask=None,
             return_attention_scores=False, training=None, use_causal_mask=False):
        # Keras 3.15 fills value_mask/key_mask from the tensors' Keras masks when not given, and takes the
        # query's mask from the query tensor alone: a query_mask argument is overwritten, so it has no effect.
        # Then Keras removes the masks from the three input tensors (the layer has used them), and so do we.
        query_mask = get_keras_mask(query)
        value_mask, key_mask = self._take_value_and_key_masks(query, value, key, value_mask, key_mask)
        key = value if key is None else key
        self._build_on_first_call(query, value, key)
        mask = self._attention_mask(query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask)
        q = self._query_dense(query)
        k = self._key_dense(key)
        v = self._value_dense(value)
        q = q * _math.cast(1.0 / math.sqrt(float(self.key_dim)), q.dtype)
        scores = einsum(self._score_equation, k, q)
        if mask is not None:  # (B, T, S) -> (B, 1, T, S): the same mask for every head
            for _ in range(scores.shape.rank - mask.shape.rank):
                mask = _array.expand_dims(mask, -len(self.attention_axes) * 2 - 1)
        # Keras routes the common case (no dropout, no scores returned, one attention axis) through its fused
        # dot_product_attention, where a query that may see nothing attends uniformly; the Softmax layer path
        # gives it zero weights instead. Both kept, so outputs match Keras in each case.
        fused = not (self.dropout > 0 or return_attention_scores or q.shape.rank != 4)
        scores = masked_softmax(scores, self._softmax.axis, mask, zero_masked=False) if fused and mask is not None \
            else self._softmax(scores, mask=mask)
        dropped = self._dropout_layer(scores, training=training) if self.dropout else scores
        output = self._output_dense(einsum(self._combine_equation, dropped, v))
        return (output, scores) if return_attention_scores else output

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        query_shape = tuple(query_shape)
        return query_shape[:-1] + self.output_shape_arg if self.output_shape_arg else query_shape

    def get_config(self):
        return {**super().get_config(), "num_heads": self.num_heads, "key_dim": self.key_dim,
                "value_dim": self.value_dim, "dropout": self.dropout, "use_bias": self.use_bias, "use_gate": False,
                "output_shape": None if self.output_shape_arg is None else list(self.output_shape_arg),
                "attention_axes": None if self.attention_axes is None else list(self.attention_axes),
                "sliding_window": None, "kernel_initializer": _init.serialize(self.kernel_initializer),
                "bias_initializer": _init.serialize(self.bias_initializer),
                "kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                "bias_regularizer": _reg.serialize(self.bias_regularizer),
                "activity_regularizer": _reg.serialize(self.activity_regularizer),
                "kernel_constraint": _con.serialize(self.kernel_constraint),
                "bias_constraint": _con.serialize(self.bias_constraint), "seed": self.seed}
