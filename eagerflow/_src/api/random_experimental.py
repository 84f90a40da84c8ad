"""`tf.random.experimental`: seed derivation for the stateless ops."""
from ..ops.random.stateless import stateless_fold_in, stateless_split  # noqa: F401
