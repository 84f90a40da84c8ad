"""`tf.sets`: set operations along the last dimension (ops/array/sets.py)."""
from ..ops.array.sets import set_difference as difference  # noqa: F401
from ..ops.array.sets import set_intersection as intersection  # noqa: F401
from ..ops.array.sets import set_size as size  # noqa: F401
from ..ops.array.sets import set_union as union  # noqa: F401
