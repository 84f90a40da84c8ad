"""Embedding: integer ids to rows of a trainable table, with the id-0 mask of mask_zero=True."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.array.slicing import gather
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..base import Layer
from ..masks import embedding_mask


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
