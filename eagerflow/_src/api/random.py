"""`tf.random`: seeded sampling with TensorFlow's global-seed / op-seed rules."""
from ..ops.random import categorical, normal, set_seed, shuffle, truncated_normal, uniform  # noqa: F401
