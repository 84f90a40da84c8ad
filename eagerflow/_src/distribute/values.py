"""DistributedValues: one value per local replica (`PerReplica` from `Strategy.run`, `Mirrored` when
every replica holds the same), and the two moves between them and plain structures: `regroup` the
replicas' results into one structure, `select_replica` one replica's part out of it."""
from __future__ import annotations

from ..core import nest
from ..core.tensor import TensorSpec
from .values_spec import PerReplicaSpec


class DistributedValues:
    """`tf.distribute.DistributedValues`: a value per local replica, in replica order."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def __repr__(self):
        values = self.values
        body = "".join(f"  {i}: {v!r}{',' if i + 1 < len(values) else ''}\n" for i, v in enumerate(values))
        return f"{type(self).__name__}:{{\n{body}}}"

    __str__ = __repr__


class PerReplica(DistributedValues):
    """Values that may differ between replicas (what `Strategy.run` returns with several). A
    composite of its tensors: tf.function takes and returns it (values_spec.py)."""

    def __tf_flatten__(self):
        return list(self._values)

    def __tf_unflatten__(self, components):
        return PerReplica(components)

    @property
    def _type_spec(self):
        return PerReplicaSpec([TensorSpec(v.shape, v.dtype) for v in self._tensor_values()])

    def _composite_key(self, tensors):
        tensors.extend(self._tensor_values())
        return self._type_spec._composite_key(None)

    def _tensor_values(self):
        if not all(hasattr(v, "dtype") and hasattr(v, "shape") for v in self._values):
            raise TypeError(f"A PerReplica passed to or returned from a tf.function must hold tensors; got {self!r}")
        return self._values


class Mirrored(DistributedValues):
    """Values that are the same on every replica (a cross-replica reduction's result)."""


def _leaves_are_distributed(structure) -> bool:
    return any(isinstance(v, DistributedValues) for v in nest.flatten(structure))


def select_replica(replica: int, structure):
    """The part of `structure` that replica `replica` sees: each DistributedValues replaced by its value."""
    if not _leaves_are_distributed(structure):
        return structure
    return nest.map_structure(lambda v: v.values[replica] if _per_replica(v) else v, structure)


def _per_replica(value) -> bool:
    """A DistributedValues whose replicas each take their own part (a distributed variable goes whole)."""
    return isinstance(value, DistributedValues) and not getattr(value, "_is_distributed_variable", False)


def regroup(per_replica_results: list):
    """The local replicas' results (each a structure of the same shape) as one structure whose leaves
    are PerReplica; a leaf that is the same object on every replica stays itself, and with one
    replica the result is returned as it is (TensorFlow's answers)."""
    if len(per_replica_results) == 1:
        return per_replica_results[0]
    first = per_replica_results[0]

    def join(*values):
        if all(v is values[0] for v in values):
            return values[0]
        return PerReplica(values)

    if not nest.is_nested(first):
        return join(*per_replica_results)
    return nest.map_structure(join, *per_replica_results)


def local_values(value) -> tuple:
    """The values `value` holds on this process's replicas: a DistributedValues' own, else `value`
    alone (`Strategy.experimental_local_results`; TensorFlow returns a plain value once, however
    many replicas share it)."""
    if isinstance(value, DistributedValues):
        return value.values
    return (value,)
