"""Probabilistic metrics: the running mean of Keras' crossentropy, KL divergence and Poisson losses."""
from __future__ import annotations

from ..losses import (binary_crossentropy, categorical_crossentropy, kl_divergence, poisson,
                      sparse_categorical_crossentropy)
from .reduction_metrics import ConfiguredMeanMetric, mean_metric_class


KLDivergence = mean_metric_class("KLDivergence", kl_divergence, "kl_divergence")


Poisson = mean_metric_class("Poisson", poisson, "poisson")


class BinaryCrossentropy(ConfiguredMeanMetric):
    _config_keys = ("from_logits", "label_smoothing")

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0):
        super().__init__(binary_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class CategoricalCrossentropy(ConfiguredMeanMetric):
    _config_keys = ("from_logits", "label_smoothing", "axis")

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False, label_smoothing=0, axis=-1):
        super().__init__(categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(ConfiguredMeanMetric):
    _config_keys = ("from_logits", "ignore_class", "axis")

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False, ignore_class=None,
                 axis=-1):
        if ignore_class is not None:
            raise NotImplementedError("SparseCategoricalCrossentropy(ignore_class=...) is not supported yet.")
        super().__init__(sparse_categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits, axis=axis)

    def get_config(self):
        return {"name": self.name, "dtype": "float32", "from_logits": self._fn_kwargs["from_logits"],
                "ignore_class": None, "axis": self._fn_kwargs["axis"]}
