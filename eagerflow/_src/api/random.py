"""`tf.random`: seeded sampling with TensorFlow's global-seed / op-seed rules, Generators, and the
stateless ops with TensorFlow's Philox numbers."""
from ..ops.random.draws import categorical, normal, set_seed, shuffle, truncated_normal, uniform  # noqa: F401
from ..ops.random.gamma_poisson import gamma, poisson  # noqa: F401
from ..state.random_generator import Algorithm, Generator, get_global_generator, set_global_generator  # noqa: F401
from ..ops.random.stateless import (create_rng_state, stateless_categorical, stateless_normal,  # noqa: F401
                                    stateless_truncated_normal, stateless_uniform)
from ..ops.random.stateless import stateless_fold_in as fold_in, stateless_split as split  # noqa: F401

from . import random_experimental as experimental  # noqa: F401
