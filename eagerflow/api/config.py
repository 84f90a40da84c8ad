"""`tf.config`: the switch that makes every `tf.function` run its Python eagerly."""
from ..core.context import functions_run_eagerly, run_functions_eagerly  # noqa: F401
