"""Feeding the replicas: `InputContext`, `InputOptions`, `DistributedDataset` and the auto-shard policies.

A dataset given to `experimental_distribute_dataset` yields global batches. Each one is cut into
`num_replicas_in_sync` pieces along its first dimension (sizes as even as the batch allows, larger
pieces first), and the pieces go to the replicas in order: this worker's local replicas take theirs.
The dataset's `options().experimental_distribute.auto_shard_policy` decides what each worker reads:
DATA (and AUTO) gives every worker its pieces of every batch, so the workers together see each
element once per epoch; OFF gives every worker every piece, one after another, so each sees all the
data; FILE gives each worker the files of the dataset's file source whose index is its own modulo
the number of workers (`sharding.py`).

`distribute_datasets_from_function` calls the function once per worker with an InputContext; the
dataset it returns yields per-replica batches, taken by the local replicas in turn.
"""
from __future__ import annotations

import collections
import enum

import numpy as np

from ..core import nest
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError, OutOfRangeError
from ..data.options import AutoShardPolicy
from .values import PerReplica


class InputReplicationMode(enum.Enum):
    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputOptions(collections.namedtuple("InputOptions", ["experimental_fetch_to_device",
                                                           "experimental_replication_mode",
                                                           "experimental_place_dataset_on_device",
                                                           "experimental_per_replica_buffer_size"])):
    """`tf.distribute.InputOptions`: accepted and kept (every device here is the one CPU)."""

    def __new__(cls, experimental_fetch_to_device=None, experimental_replication_mode=InputReplicationMode.PER_WORKER,
                experimental_place_dataset_on_device=False, experimental_per_replica_buffer_size=1):
        if experimental_fetch_to_device is None:
            experimental_fetch_to_device = True
        return super().__new__(cls, experimental_fetch_to_device, experimental_replication_mode,
                               experimental_place_dataset_on_device, experimental_per_replica_buffer_size)


class InputContext:
    """`tf.distribute.InputContext`: which input pipeline this is, of how many, for how many replicas."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_replicas_in_sync(self):
        return self._num_replicas_in_sync

    @property
    def input_pipeline_id(self):
        return self._input_pipeline_id

    @property
    def num_input_pipelines(self):
        return self._num_input_pipelines

    def get_per_replica_batch_size(self, global_batch_size):
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self._num_replicas_in_sync} ")
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, total: " \
               f"{self._num_input_pipelines})"


class ValueContext:
    """`tf.distribute.experimental.ValueContext`: what `experimental_distribute_values_from_function`
    tells each replica's call."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self._replica_id_in_sync_group = replica_id_in_sync_group
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        return self._replica_id_in_sync_group

    @property
    def num_replicas_in_sync(self):
        return self._num_replicas_in_sync

    def __str__(self):
        return f"tf.distribute.ValueContext(replica id {self._replica_id_in_sync_group},  total replicas in sync: " \
               f"{self._num_replicas_in_sync})"


def piece_bounds(size: int, pieces: int) -> list:
    """(start, stop) of each of `pieces` pieces of a batch of `size`: as even as possible, larger first."""
    base, extra = divmod(size, pieces)
    bounds, start = [], 0
    for i in range(pieces):
        stop = start + base + (1 if i < extra else 0)
        bounds.append((start, stop))
        start = stop
    return bounds


def _batch_size(element) -> int:
    return int(np.shape(nest.flatten(element, expand_composites=True)[0])[0])


def split_batch(element, pieces: int) -> list:
    """A batch (a structure of tensors) cut into `pieces` along the first dimension."""
    bounds = piece_bounds(_batch_size(element), pieces)

    def cut(start, stop):
        return nest.map_structure(lambda t: convert_to_tensor(np.asarray(t)[start:stop]), element)

    return [cut(a, b) for a, b in bounds]


def auto_shard_policy(dataset):
    options = dataset.options()
    policy = options.experimental_distribute.auto_shard_policy
    return AutoShardPolicy.AUTO if policy is None else policy


def local_pieces(element, num_replicas: int, first: int, count: int) -> list:
    """This worker's pieces (replicas first .. first+count-1) of one global batch."""
    return split_batch(element, num_replicas)[first:first + count]


def _as_replica_values(pieces):
    if len(pieces) == 1:
        return pieces[0]
    first = pieces[0]
    if not nest.is_nested(first):
        return PerReplica(pieces)
    return nest.map_structure(lambda *vs: PerReplica(vs), *pieces)


class DistributedDataset:
    """`tf.distribute.DistributedDataset`: iterating yields one step's input for the local replicas
    (PerReplica values when there are several, plain tensors with one)."""

    def __init__(self, strategy, steps, element_spec=None):
        self._strategy = strategy
        self._steps = steps  # a function returning an iterator of lists of local replica pieces
        self._element_spec = element_spec

    @classmethod
    def from_dataset(cls, strategy, dataset, options=None):
        from .sharding import worker_dataset
        ext = strategy.extended
        policy = auto_shard_policy(dataset)
        num_replicas, local = strategy.num_replicas_in_sync, ext._num_local_replicas
        first = ext._worker_index * local

        def steps():
            source = dataset if policy is AutoShardPolicy.OFF else \
                worker_dataset(dataset, policy, ext._num_workers, ext._worker_index)
            if policy is AutoShardPolicy.OFF or source is not dataset:
                # every piece of what this worker reads (all the data, or its own files), `local` per step
                for element in source:
                    pieces = split_batch(element, num_replicas)
                    for start in range(0, num_replicas, local):
                        yield pieces[start:start + local]
                return
            for element in dataset:
                yield local_pieces(element, num_replicas, first, local)

        return cls(strategy, steps, dataset.element_spec)

    @classmethod
    def from_function(cls, strategy, dataset_fn, options=None):
        ext = strategy.extended
        local = ext._num_local_replicas
        mode = getattr(options, "experimental_replication_mode", InputReplicationMode.PER_WORKER)
        if mode is InputReplicationMode.PER_REPLICA:  # one pipeline per replica, stepped together
            first = ext._worker_index * local
            total = strategy.num_replicas_in_sync
            datasets = [dataset_fn(InputContext(total, first + i, total)) for i in range(local)]
            return cls(strategy, lambda: (list(group) for group in zip(*datasets)),
                       getattr(datasets[0], "element_spec", None))
        context = InputContext(ext._num_workers, ext._worker_index, strategy.num_replicas_in_sync)
        dataset = dataset_fn(context)

        def steps():
            group = []
            for element in dataset:
                group.append(element)
                if len(group) == local:
                    yield group
                    group = []

        return cls(strategy, steps, getattr(dataset, "element_spec", None))

    @property
    def element_spec(self):
        return self._element_spec

    def __iter__(self):
        return DistributedIterator(self._steps())

    def reduce(self, initial_state, reduce_func):
        state = initial_state
        for value in self:
            state = reduce_func(state, value)
        return state


class DistributedIterator:
    """`tf.distribute.DistributedIterator`: `next(it)` / `it.get_next()` give one step's input."""

    def __init__(self, steps):
        self._steps = steps

    def __iter__(self):
        return self

    def __next__(self):
        return _as_replica_values(next(self._steps))

    def get_next(self):
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self):
        try:
            return DistributedOptional(next(self))
        except StopIteration:
            return DistributedOptional(None, has_value=False)


class DistributedOptional:
    """The next step's input, or nothing at the end (`get_next_as_optional`; it may hold PerReplica values)."""

    def __init__(self, value, has_value=True):
        self._value, self._has_value = value, has_value

    def has_value(self):
        return convert_to_tensor(self._has_value)

    def get_value(self):
        if not self._has_value:
            raise InvalidArgumentError(None, None, "The optional does not have a value.")
        return self._value
