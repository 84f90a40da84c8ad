"""Attention (Luong-style dot product, or the "concat" score) and AdditiveAttention (Bahdanau-style), called
on [query, value] or [query, value, key]: scores (batch, Tq, Tv) from query and key, a softmax over the
value steps with the value mask (and the causal mask) pushing masked steps to -1e9, then the weighted
sum of the values; masked query steps give zero rows. Keras 3's rules and messages."""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.nn import basic as _nn
from ...._src.ops.linalg.matmul import matmul
from ...._src.ops.math.reduce import reduce_sum
from ..base import Layer
from .multi_head_attention import causal_mask


class Attention(Layer):
    """score_mode="dot": scores = query @ key^T (times the learned `scale` with use_scale);
    "concat": scores = concat_score_weight * sum(tanh(scale * (query + key)))."""

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Invalid value for argument score_mode. Expected one of {{'dot', 'concat'}}. "
                             f"Received: score_mode={score_mode}")
        self.use_scale, self.score_mode, self.dropout, self.seed = use_scale, score_mode, dropout, seed
        self.scale = self.concat_score_weight = None

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        if self.use_scale:
            self.scale = self.add_weight((), "ones", name="scale")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight((), "ones", name="concat_score_weight")
        self.built = True

    def _scores(self, query, key):
        if self.score_mode == "dot":
            scores = matmul(query, key, transpose_b=True)
            return scores * self.scale if self.scale is not None else scores
        q, k = _array.expand_dims(query, -2), _array.expand_dims(key, -3)
        inner = (q + k) * self.scale if self.scale is not None else q + k
        return self.concat_score_weight * reduce_sum(_math.tanh(inner), -1)

    def _validate_inputs(self, inputs, mask=None):
        name = type(self).__name__
        if not isinstance(inputs, list):
            shown = tuple(inputs.shape.as_list()) if hasattr(inputs, "shape") else inputs
            raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or "
                             f"[query, value, key]. Received: inputs={shown}.")
        if not 2 <= len(inputs) <= 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or "
                             f"[query, value, key]. Received length: {len(inputs)}.")
        if mask is not None:
            if not isinstance(mask, list):
                raise ValueError(f"{name} layer mask must be a list, namely [query_mask, value_mask]. Received: "
                                 f"mask={mask}.")
            if not 2 <= len(mask) <= 3:
                raise ValueError(f"{name} layer accepts mask list of length 2 or 3. Received: inputs={inputs}, "
                                 f"mask={mask}.")

    def _maybe_build(self, inputs):
        if isinstance(inputs, (list, tuple)):
            inputs = list(inputs)
        self._validate_inputs(inputs if isinstance(inputs, list) else inputs)
        self.build([tuple(t.shape.as_list()) for t in inputs])

    def call(self, inputs, mask=None, training=False, return_attention_scores=False, use_causal_mask=False):
        inputs = list(inputs) if isinstance(inputs, tuple) else inputs
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask = None if mask is None or mask[0] is None else _math.cast(convert_to_tensor(mask[0]), "bool")
        value_mask = None if mask is None or mask[1] is None else _math.cast(convert_to_tensor(mask[1]), "bool")
        scores = self._scores(query, key)
        scores_mask = None if value_mask is None else _array.expand_dims(value_mask, -2)  # (B, 1, Tv)
        if use_causal_mask:
            causal = causal_mask(_array.shape(scores)[-2], _array.shape(scores)[-1])
            scores_mask = causal if scores_mask is None else _math.logical_and(scores_mask, causal)
        if scores_mask is not None:  # masked steps lose 1e9 (65504 in float16), as Keras subtracts
            big = 65504.0 if scores.dtype.name == "float16" else 1.0e9
            scores = scores - big * _math.cast(_math.logical_not(scores_mask), scores.dtype)
        weights = _nn.softmax(scores, axis=-1)
        dropped = _nn.dropout(weights, self.dropout, seed=self.seed) if training and self.dropout > 0 else weights
        output = matmul(dropped, value)
        if query_mask is not None:
            output = output * _math.cast(_array.expand_dims(query_mask, -1), output.dtype)
        return (output, weights) if return_attention_scores else output

    def compute_mask(self, inputs, mask=None):
        if mask is None or mask[0] is None:
            return None
        return convert_to_tensor(mask[0])

    def get_config(self):
        return {**super().get_config(), "use_scale": self.use_scale, "score_mode": self.score_mode,
                "dropout": self.dropout, "seed": self.seed}


