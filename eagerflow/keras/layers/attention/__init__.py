"""Attention layers: Attention, AdditiveAttention, MultiHeadAttention. One layer per file;
keras/layers/__init__.py exports them."""
