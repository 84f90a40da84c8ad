"""Normalization layers: BatchNormalization, LayerNormalization, GroupNormalization, UnitNormalization. One layer
per file; keras/layers/__init__.py exports them."""
