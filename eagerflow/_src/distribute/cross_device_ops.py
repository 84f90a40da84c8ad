"""`tf.distribute.CrossDeviceOps` and its kinds: how MirroredStrategy adds the replicas' values.
On one CPU every kind adds the same tensors with the same ops; they exist so programs that choose
one (`MirroredStrategy(cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())`) run unchanged."""
from __future__ import annotations

from .reduce_op import as_reduce_op
from .values import local_values


class CrossDeviceOps:
    """Reduces PerReplica values to one value (`reduce`, `batch_reduce`)."""

    def reduce(self, reduce_op, per_replica_value, destinations=None, options=None):
        from ..ops.math import elementwise as _math
        reduce_op = as_reduce_op(reduce_op)
        values = list(local_values(per_replica_value))
        total = values[0] if len(values) == 1 else _math.add_n(values)
        return total / _math.cast(len(values), total.dtype) if reduce_op.value == "MEAN" else total

    def batch_reduce(self, reduce_op, value_destination_pairs, options=None):
        return [self.reduce(reduce_op, v, d, options) for v, d in value_destination_pairs]


class ReductionToOneDevice(CrossDeviceOps):
    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        self.reduce_to_device = reduce_to_device


class HierarchicalCopyAllReduce(CrossDeviceOps):
    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(f"HierarchicalCopy requires num_packs >= 0, but {num_packs} is specified")
        self.num_packs = num_packs


class NcclAllReduce(CrossDeviceOps):
    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(f"NCCL all-reduce requires num_packs >= 0, but {num_packs} is specified")
        self.num_packs = num_packs
