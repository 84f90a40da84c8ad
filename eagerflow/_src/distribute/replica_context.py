"""`tf.distribute.ReplicaContext` and `Strategy.run`'s replicas.

One local replica runs in the calling thread (so a tf.function being traced records its collectives
in its graph). Several run in one thread each, as TensorFlow's MirroredStrategy does (inside a
tf.function being traced they take turns recording into its graph), and meet at
`merge_call`: every replica hands over its arguments, the last to arrive runs the merge function once
in the cross-replica context with the arguments as PerReplica values, and each replica gets its part
of the result. A replica that fails breaks the meeting, so the others raise instead of waiting.
"""
from __future__ import annotations

import threading

from ..core.context import state as _core_state
from . import context as _context
from .reduce_op import as_reduce_op
from ..ops.array.basic import identity
from .values import Mirrored, regroup, select_replica


class ReplicaContext:
    """`tf.distribute.ReplicaContext`: where a replica function runs (`get_replica_context()`)."""

    def __init__(self, strategy, replica_id_in_sync_group, meeting=None, local_index=0):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group
        self._meeting = meeting
        self._local_index = local_index

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        return self._replica_id

    @property
    def devices(self):
        return (self._strategy.extended.worker_devices[self._local_index],)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """`merge_fn(strategy, *args, **kwargs)` once for all local replicas, in the cross-replica context."""
        kwargs = kwargs or {}
        if self._meeting is None:
            with _context.cross_replica_state():
                return merge_fn(self._strategy, *args, **kwargs)
        return self._meeting.merge(self._local_index, merge_fn, args, kwargs, self._strategy)

    def all_reduce(self, reduce_op, value, options=None):
        """`value` (a structure of tensors) SUM- or MEAN-reduced over all replicas; every replica gets it."""
        reduce_op = as_reduce_op(reduce_op)
        from ..core import nest
        flat = nest.flatten(value)

        def reduce_all(strategy, *per_replica):
            return _one_per_replica(strategy, strategy.extended.batch_all_reduce(reduce_op, list(per_replica)))

        reduced = self.merge_call(reduce_all, args=tuple(flat))
        return nest.pack_sequence_as(value, list(reduced))

    def all_gather(self, value, axis, options=None):
        from ..core import nest
        flat = nest.flatten(value)

        def gather_all(strategy, *per_replica):
            return _one_per_replica(strategy, [strategy.extended._gather(v, axis) for v in per_replica])

        return nest.pack_sequence_as(value, list(self.merge_call(gather_all, args=tuple(flat))))

    def __repr__(self):
        return f"<{type(self).__name__} replica {self._replica_id} of {self.num_replicas_in_sync}>"


def _one_per_replica(strategy, tensors):
    """A cross-replica result as TensorFlow hands it back: each local replica its own tensor."""
    count = strategy.extended._num_local_replicas
    return tensors if count == 1 else [Mirrored([identity(t) for _ in range(count)]) for t in tensors]


class DefaultReplicaContext(ReplicaContext):
    """The replica context outside every strategy's scope: replica 0 of 1."""

    def __init__(self, strategy):
        super().__init__(strategy, 0)


class _Meeting:
    """Where the local replica threads meet for merge_call (see the module docstring)."""

    def __init__(self, count):
        self._count = count
        self._condition = threading.Condition()
        self._arrived = {}
        self._generation = 0
        self._finished = 0
        self._result = None
        self._broken = None
        # While a tf.function is traced the replicas take turns (one records into the graph at a time):
        # a replica holds the baton while it runs and hands it on when it waits to merge or returns.
        self.baton = None

    def merge(self, index, merge_fn, args, kwargs, strategy):
        with self._condition:
            self._raise_if_broken()
            generation = self._generation
            self._arrived[index] = (merge_fn, args, kwargs)
            if len(self._arrived) == self._count:
                self._run_merge(strategy)
                return select_replica(index, self._result)
            self._check_stragglers()
            if self.baton is not None:
                self.baton.release()  # let the next replica trace up to its merge_call
            while self._generation == generation and self._broken is None:
                self._condition.wait()
            broken, result = self._broken, select_replica(index, self._result)
        if self.baton is not None:
            self.baton.acquire()
        if broken is not None:
            raise RuntimeError(f"Another replica failed: {broken!r}") from broken
        return result

    def _run_merge(self, strategy):
        ordered = [self._arrived[i] for i in range(self._count)]
        merge_fn = ordered[0][0]
        args = [regroup([a[1][k] for a in ordered]) for k in range(len(ordered[0][1]))]
        kwargs = {k: regroup([a[2][k] for a in ordered]) for k in ordered[0][2]}
        try:
            with _context.cross_replica_state():
                self._result = merge_fn(strategy, *args, **kwargs)
        except BaseException as error:
            self.break_with(error)
            raise
        self._arrived = {}
        self._generation += 1
        self._condition.notify_all()

    def finished(self):
        with self._condition:
            self._finished += 1
            self._check_stragglers()

    def _check_stragglers(self):
        if self._arrived and len(self._arrived) + self._finished == self._count:
            self._broken = RuntimeError("Replicas made different numbers of merge_call/all_reduce calls: some "
                                        "returned while others wait to merge.")
            self._condition.notify_all()

    def break_with(self, error):
        with self._condition:
            if self._broken is None:
                self._broken = error
            self._condition.notify_all()

    def _raise_if_broken(self):
        if self._broken is not None:
            raise RuntimeError(f"Another replica failed: {self._broken!r}") from self._broken


def call_for_each_replica(strategy, fn, args, kwargs):
    """`Strategy.run`'s work: fn on each local replica (see the module docstring)."""
    ext = strategy.extended
    first_id = ext._worker_index * ext._num_local_replicas
    count = ext._num_local_replicas
    if count == 1:
        with _context.replica_state(ReplicaContext(strategy, first_id)):
            return fn(*select_replica(0, tuple(args)), **select_replica(0, dict(kwargs)))
    meeting = _Meeting(count)
    results, errors = [None] * count, []
    graph, created = _core_state.graph, _core_state.created_variables
    if graph is not None:
        meeting.baton = threading.Lock()

    def replica(index):
        context = ReplicaContext(strategy, first_id + index, meeting, index)
        if meeting.baton is not None:
            meeting.baton.acquire()
            _core_state.graph, _core_state.created_variables = graph, created  # record into the caller's trace
        try:
            with _context.replica_state(context):
                results[index] = fn(*select_replica(index, tuple(args)), **select_replica(index, dict(kwargs)))
        except BaseException as error:  # noqa: BLE001 - handed to the caller below
            errors.append(error)
            meeting.break_with(error)
        finally:
            meeting.finished()
            if meeting.baton is not None:
                meeting.baton.release()

    threads = [threading.Thread(target=replica, args=(i,), name=f"replica_{i}", daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return regroup(results)

