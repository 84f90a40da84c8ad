"""`tf.nest`."""
from ..core.nest import assert_same_structure, flatten, is_nested, map_structure, pack_sequence_as  # noqa: F401
