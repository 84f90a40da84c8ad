"""`tf.lookup.experimental`: MutableHashTable (state/mutable_hash_table.py)."""
from ..state.mutable_hash_table import MutableHashTable  # noqa: F401
