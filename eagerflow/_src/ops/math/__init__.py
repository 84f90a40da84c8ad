"""Elementwise math, complex numbers, special functions, reductions, segment and cumulative ops (tf.math)."""
