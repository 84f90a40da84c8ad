"""Core layers: Dense, EinsumDense, Embedding, Lambda, Masking, Input/InputLayer, Identity. One layer per file;
keras/layers/__init__.py exports them."""
