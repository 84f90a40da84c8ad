"""`keras.preprocessing.sequence`: pad_sequences (the same function as keras.utils.pad_sequences)."""
from ..utils.arrays import pad_sequences  # noqa: F401
