"""`tf.config.threading`."""
from ..core.threads import (get_inter_op_parallelism_threads, get_intra_op_parallelism_threads,  # noqa: F401
                            set_inter_op_parallelism_threads, set_intra_op_parallelism_threads)
