"""`tf.image`: resizing."""
from ..ops.image import ResizeMethod, resize  # noqa: F401
