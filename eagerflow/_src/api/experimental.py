"""`tf.experimental`: the NumPy API over tensors (`tf.experimental.numpy`, experimental_numpy.py)."""
from . import experimental_numpy as numpy  # noqa: F401
