"""MultiWorkerMirroredStrategy: one replica per process, the processes joined by MPI.

Launched by `mpiexec -n N python train.py`, each process is the worker of its MPI rank; rank 0 (or
TF_CONFIG's chief) is the chief. With TF_CONFIG set, its cluster must be the one MPI launched
(cluster.py). Started without mpiexec and without TF_CONFIG (or without mpi4py installed) it is a
one-worker strategy, as TensorFlow's is without a cluster.

Variables made in scope() take the chief's initial value (a broadcast as each is made), so every
worker starts from the same weights; gradients are summed across the workers before each update
(StrategyExtended.batch_all_reduce, packed as CommunicationOptions say).
"""
from __future__ import annotations

from .cluster import (MPIClusterResolver, TFConfigClusterResolver, check_against_mpi, is_chief, rank_in,
                      tf_config)
from .collectives import CommunicationImplementation, CommunicationOptions, LocalCommunicator
from .strategy import Strategy, StrategyExtended


def _communicator(resolver, options):
    """MPI's communicator, or the one-process one when there is no cluster and no mpi4py."""
    try:
        from .mpi_communicator import MPICommunicator
        return MPICommunicator(options.timeout_seconds)
    except ImportError:
        if resolver is not None and rank_in(resolver)[1] > 1:
            raise
        return LocalCommunicator()


class MultiWorkerExtended(StrategyExtended):
    def __init__(self, strategy, resolver, communicator, options):
        rank = communicator.rank
        job = resolver.task_type if resolver.cluster_spec() else "localhost"
        task = int(resolver.task_id or 0) if resolver.cluster_spec() else 0
        super().__init__(strategy, [f"/job:{job}/replica:0/task:{task}/device:CPU:0"], communicator, options)
        self._cluster_resolver = resolver
        self._is_chief = rank == 0 if not resolver.cluster_spec() else is_chief(resolver)
        self._variable_created = self._distribute_new_variable

    @property
    def should_checkpoint(self):
        return self._is_chief

    @property
    def should_save_summary(self):
        return self._is_chief

    @property
    def _in_multi_worker_mode(self):
        return self._num_workers > 1


class MultiWorkerMirroredStrategy(Strategy):
    """`tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=None, communication_options=None)`."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        options = communication_options if communication_options is not None else CommunicationOptions()
        if not isinstance(options, CommunicationOptions):
            raise ValueError("communication_options must be a tf.distribute.experimental.CommunicationOptions, got "
                             f"{options!r}")
        if cluster_resolver is None and tf_config().get("cluster"):
            cluster_resolver = TFConfigClusterResolver()
        communicator = _communicator(cluster_resolver, options)
        if cluster_resolver is None:
            cluster_resolver = MPIClusterResolver(communicator.rank, communicator.num_workers)
        else:
            check_against_mpi(cluster_resolver, communicator.rank, communicator.num_workers)
        super().__init__(MultiWorkerExtended(self, cluster_resolver, communicator, options))


class ExperimentalMultiWorkerMirroredStrategy(MultiWorkerMirroredStrategy):
    """`tf.distribute.experimental.MultiWorkerMirroredStrategy(communication, cluster_resolver)`: the
    older signature, naming the collective implementation instead of passing CommunicationOptions."""

    def __init__(self, communication=CommunicationImplementation.AUTO, cluster_resolver=None):
        super().__init__(cluster_resolver, CommunicationOptions(implementation=communication))
