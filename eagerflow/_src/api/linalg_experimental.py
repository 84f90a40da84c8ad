"""`tf.linalg.experimental`."""
from ..control_flow.conjugate_gradient import conjugate_gradient  # noqa: F401
