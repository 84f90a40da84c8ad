"""`tf.distribute.Strategy` and `StrategyExtended`: the API every strategy shares.

A strategy has local replicas (one per device it was given, run in threads when there are several)
and possibly other worker processes (a communicator). Every reduction is two steps: the local
replicas' values are added with ordinary ops, then the workers' sums are added by the communicator.
MEAN divides by the number of values that went in.
"""
from __future__ import annotations

from ..core.context import graph_scope
from ..ops.array import basic as _array
from ..ops.array.joining import concat
from ..ops.math import elementwise as _math
from ..ops.math.reduce import reduce_sum
from . import context as _context
from .collectives import LocalCommunicator, on_arrays
from .distributed_variables import make_distributed
from .reduce_op import ReduceOp, as_reduce_op
from .values import DistributedValues, local_values, regroup


def _add(values):
    return values[0] if len(values) == 1 else _math.add_n(list(values))


class StrategyExtended:
    """`tf.distribute.StrategyExtended`: the devices, the replica counts and the collectives."""

    def __init__(self, strategy, devices, communicator=None, options=None):
        self._container_strategy = strategy
        self._local_devices = tuple(devices)
        self._communicator = communicator or LocalCommunicator()
        self._communication_options = options
        self._variable_created = None  # a hook run on each Variable made in scope() (Mirrored strategies)

    # --- counts and places ---
    @property
    def _num_local_replicas(self):
        return len(self._local_devices)

    @property
    def _num_workers(self):
        return self._communicator.num_workers

    @property
    def _worker_index(self):
        return self._communicator.rank

    @property
    def _num_replicas_in_sync(self):
        return self._num_local_replicas * self._num_workers

    @property
    def worker_devices(self):
        return self._local_devices

    @property
    def parameter_devices(self):
        return self._local_devices

    @property
    def experimental_between_graph(self):
        return self._num_workers > 1

    @property
    def should_checkpoint(self):
        return True

    @property
    def should_save_summary(self):
        return True

    # --- running replicas ---
    def call_for_each_replica(self, fn, args=(), kwargs=None):
        from .replica_context import call_for_each_replica
        return call_for_each_replica(self._container_strategy, fn, args, kwargs or {})

    # --- reductions (cross-replica context) ---
    def batch_all_reduce(self, reduce_op, per_replica_values):
        """Each entry's local replica values summed (MEAN: divided by num_replicas_in_sync) across all
        replicas of all workers; the workers' part is one packed collective for the whole list."""
        reduce_op = as_reduce_op(reduce_op)
        sums = [_add(local_values(v)) for v in per_replica_values]
        sums = self._sum_across_workers(sums)
        if reduce_op is ReduceOp.MEAN:
            sums = [s / _math.cast(self._num_replicas_in_sync, s.dtype) for s in sums]
        return sums

    def _sum_across_workers(self, tensors):
        if self._num_workers == 1:
            return list(tensors)
        options = self._communication_options
        return on_arrays(lambda arrays: self._communicator.sum_arrays(arrays, options), list(tensors))

    def reduce_to(self, reduce_op, value, destinations=None, options=None):
        return self._reduce(as_reduce_op(reduce_op), value, axis=None)

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        return self.batch_all_reduce(reduce_op, [v for v, _ in value_destination_pairs])

    def _reduce(self, reduce_op, value, axis):
        distributed = isinstance(value, DistributedValues)
        if not distributed and self._num_local_replicas > 1:
            if reduce_op is ReduceOp.MEAN and axis is None:
                return value
            if axis is None:
                raise ValueError(f"A non-DistributedValues value {value} cannot be reduced with the given reduce "
                                 f"op {reduce_op}.")
        values = local_values(value)
        if axis is None:
            return self.batch_all_reduce(reduce_op, [DistributedValues(values)])[0]
        total = self._sum_across_workers([_add([reduce_sum(v, axis=axis) for v in values])])[0]
        if reduce_op is ReduceOp.SUM:
            return total
        counts = [_math.cast(_array.shape(v)[axis], total.dtype) for v in values]
        count = self._sum_across_workers([_add(counts)])[0]
        return total / count

    def _gather(self, value, axis):
        local = list(local_values(value))
        joined = local[0] if len(local) == 1 else concat(local, axis)
        if self._num_workers == 1:
            return joined
        return on_arrays(lambda arrays: [self._communicator.gather_arrays(arrays[0], axis)], [joined])[0]

    def _broadcast_variable(self, variable):
        """`variable`'s value made the chief's on every worker (scope()'s hook for new variables)."""
        if variable._array is None:
            return  # initialised by a traced function's first call; that call runs alike on every worker
        with graph_scope(None):  # now, even when a Keras model is being built symbolically
            variable.assign(self._communicator.broadcast_array(variable.numpy()))

    def _distribute_new_variable(self, variable):
        """scope()'s hook for Mirrored strategies: the chief's initial value on every worker, then the
        variable made a MirroredVariable or SyncOnReadVariable (distributed_variables.py)."""
        if self._num_workers > 1:
            self._broadcast_variable(variable)
        make_distributed(variable, self._container_strategy)

    def colocate_vars_with(self, colocate_with_variable):
        return _NullScope()

    def variable_created_in_scope(self, v):
        return True

    def value_container(self, value):
        return value

    def experimental_make_numpy_dataset(self, numpy_input):
        from ..data.dataset import Dataset
        return Dataset.from_tensor_slices(numpy_input)


class _NullScope:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


class Strategy:
    """`tf.distribute.Strategy`: build under `scope()`, run a step per replica with `run`, combine the
    results with `reduce` / `gather`, feed the replicas with `experimental_distribute_dataset`."""

    def __init__(self, extended):
        self._extended = extended

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return self._extended._num_replicas_in_sync

    @property
    def cluster_resolver(self):
        return getattr(self._extended, "_cluster_resolver", None)

    def scope(self):
        """Variables (and Keras models) made inside belong to this strategy."""
        return _context.enter_scope(self)

    def run(self, fn, args=(), kwargs=None, options=None):
        """`fn(*args, **kwargs)` on every replica; DistributedValues arguments give each replica its
        own value. Returns PerReplica values where the replicas' results differ."""
        with _context.enter_scope(self) if _context.current_scope_strategy() is not self else _NullScope():
            return self._extended.call_for_each_replica(fn, args, kwargs)

    def reduce(self, reduce_op, value, axis):
        """One value from every replica's: SUM or MEAN over the replicas (and over `axis` of each
        replica's value when it is given; MEAN then divides by the total count along `axis`)."""
        reduce_op = as_reduce_op(reduce_op)
        return self._extended._reduce(reduce_op, value, axis)

    def gather(self, value, axis):
        """The replicas' values concatenated along `axis`, in replica order."""
        return self._extended._gather(value, axis)

    def experimental_local_results(self, value):
        """This process's replicas' values, as a tuple."""
        return local_values(value)

    def experimental_distribute_dataset(self, dataset, options=None):
        from .input import DistributedDataset
        return DistributedDataset.from_dataset(self, dataset, options)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        from .input import DistributedDataset
        return DistributedDataset.from_function(self, dataset_fn, options)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        """A PerReplica of `value_fn(ValueContext)` for each local replica."""
        from .input import ValueContext
        ext = self._extended
        first = ext._worker_index * ext._num_local_replicas
        values = [value_fn(ValueContext(first + i, self.num_replicas_in_sync)) for i in range(ext._num_local_replicas)]
        return regroup(values) if len(values) > 1 else values[0]

    def __deepcopy__(self, memo):
        return self  # a strategy is shared, not copied (Keras deep-copies configs that may hold it)
