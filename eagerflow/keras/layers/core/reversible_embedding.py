"""ReversibleEmbedding: an Embedding that also runs backwards, from hidden vectors to logits over the
vocabulary (a language model's output layer sharing the input table: `tie_weights=True`)."""
from __future__ import annotations

from ...._src.ops.linalg.matmul import matmul
from ...._src.ops.math import elementwise as _math
from .embedding import Embedding


class ReversibleEmbedding(Embedding):
    """call(ids) looks rows up; call(hidden, reverse=True) gives hidden @ embeddings^T (or @ the separate
    (output_dim, input_dim) `reverse_embeddings` when untied), optionally squashed to
    logit_soft_cap * tanh(logits / logit_soft_cap)."""

    def __init__(self, input_dim, output_dim, tie_weights=True, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False, reverse_dtype=None,
                 logit_soft_cap=None, **kwargs):
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer, embeddings_constraint=embeddings_constraint,
                         mask_zero=mask_zero, **kwargs)
        self.tie_weights, self.reverse_dtype, self.logit_soft_cap = tie_weights, reverse_dtype, logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight((self.output_dim, self.input_dim), self.embeddings_initializer,
                                                      name="reverse_embeddings",
                                                      regularizer=self.embeddings_regularizer,
                                                      constraint=self.embeddings_constraint)
        self.built = True

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        kernel, transpose = (self.embeddings, True) if self.tie_weights else (self.reverse_embeddings, False)
        hidden = inputs
        if self.reverse_dtype is not None:
            hidden, kernel = _math.cast(hidden, self.reverse_dtype), _math.cast(kernel, self.reverse_dtype)
        logits = (matmul(hidden, kernel, transpose_b=transpose) if hidden.shape.rank == 2
                  else _batched(hidden, kernel, transpose))
        if self.logit_soft_cap is not None:
            cap = _math.cast(self.logit_soft_cap, logits.dtype)
            logits = _math.tanh(logits / cap) * cap
        return logits

    def compute_output_shape(self, input_shape, reverse=False):
        if reverse:
            return tuple(input_shape[:-1]) + (self.input_dim,)
        return tuple(input_shape) + (self.output_dim,)

    def get_config(self):
        return {**super().get_config(), "tie_weights": self.tie_weights, "reverse_dtype": self.reverse_dtype,
                "logit_soft_cap": self.logit_soft_cap}


def _batched(hidden, kernel, transpose):
    """hidden (..., d) times kernel (vocab, d) transposed, or (d, vocab): the leading axes folded."""
    from ...._src.ops.array import basic as _array
    from ...._src.ops.array.joining import concat
    d = hidden.shape.as_list()[-1]
    flat = matmul(_array.reshape(hidden, [-1, d]), kernel, transpose_b=transpose)
    out = _array.reshape(flat, concat([_array.shape(hidden)[:-1], _array.shape(flat)[-1:]], 0))
    out.set_shape(hidden.shape.as_list()[:-1] + flat.shape.as_list()[-1:])  # the reshape hid them
    return out
