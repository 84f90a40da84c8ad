"""Regularization layers: dropout variants, Gaussian noise, activity regularization. One layer per file;
keras/layers/__init__.py exports them."""
