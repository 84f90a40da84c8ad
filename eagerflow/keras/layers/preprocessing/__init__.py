"""Preprocessing layers: lookups, hashing, text vectorization, normalization, discretization, category encoding,
image preprocessing. One layer per file; keras/layers/__init__.py exports them."""
