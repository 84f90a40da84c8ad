"""`tf.distribute.RunOptions`: options for `Strategy.run`, accepted and kept (they tune TPU and XLA
compilation of the replica function, which runs as written here)."""
from __future__ import annotations

import collections


class RunOptions(collections.namedtuple("RunOptions", ["experimental_enable_dynamic_batch_size",
                                                       "experimental_bucketizing_dynamic_shape",
                                                       "experimental_xla_options"])):
    def __new__(cls, experimental_enable_dynamic_batch_size=True, experimental_bucketizing_dynamic_shape=False,
                experimental_xla_options=None):
        return super().__new__(cls, experimental_enable_dynamic_batch_size, experimental_bucketizing_dynamic_shape,
                               experimental_xla_options)
