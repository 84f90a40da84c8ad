"""`tf.random`: seeded sampling with TensorFlow's global-seed / op-seed rules."""
from ..ops.random import categorical, normal, set_seed, shuffle, truncated_normal, uniform  # noqa: F401
from ..state.random_generator import (Algorithm, Generator, get_global_generator,  # noqa: F401,E402
                                      set_global_generator)
