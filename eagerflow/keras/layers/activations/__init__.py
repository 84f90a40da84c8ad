"""Activation layers: Activation, ReLU, Softmax, LeakyReLU, ELU, PReLU. One layer per file;
keras/layers/__init__.py exports them."""
