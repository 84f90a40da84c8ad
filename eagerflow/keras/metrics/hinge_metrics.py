"""Hinge metrics: the running mean of Keras' hinge losses."""
from __future__ import annotations

from ..losses import categorical_hinge, hinge, squared_hinge
from .reduction_metrics import mean_metric_class


Hinge = mean_metric_class("Hinge", hinge, "hinge")


SquaredHinge = mean_metric_class("SquaredHinge", squared_hinge, "squared_hinge")


CategoricalHinge = mean_metric_class("CategoricalHinge", categorical_hinge, "categorical_hinge")
