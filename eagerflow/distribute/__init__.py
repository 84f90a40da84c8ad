"""`tf.distribute`: data-parallel training with TensorFlow's strategies.

    strategy = tf.distribute.MultiWorkerMirroredStrategy()   # launched as `mpiexec -n 2 python train.py`
    with strategy.scope():
        model = build_model(); model.compile(...)
    model.fit(dataset)                                        # each worker trains on its shard

MirroredStrategy runs one replica per local device (threads; `tf.config.set_logical_device_configuration`
splits the CPU into several). MultiWorkerMirroredStrategy runs one replica per process and exchanges
gradients with MPI through mpi4py (`pip install 'eagerflow[distribute]'`); its cluster is MPI's rank
and size, checked against TF_CONFIG when that is set. Variables made in either's scope() are
MirroredVariable or (synchronization=ON_READ) SyncOnReadVariable, TensorFlow's DistributedValues.

Not provided (`NOT_PROVIDED`, each with its reason): ParameterServerStrategy, TPUStrategy, Server,
coordinator.
"""
from .._src.distribute.collectives import (CollectiveHints, CommunicationImplementation,  # noqa: F401
                                           CommunicationOptions)
from .._src.distribute.context import (experimental_set_strategy, get_replica_context, get_strategy,  # noqa: F401
                                       has_strategy, in_cross_replica_context)
from .._src.distribute.cross_device_ops import (CrossDeviceOps, HierarchicalCopyAllReduce,  # noqa: F401
                                                NcclAllReduce, ReductionToOneDevice)
from .._src.distribute.input import (DistributedDataset, DistributedIterator, InputContext,  # noqa: F401
                                     InputOptions, InputReplicationMode)
from .._src.distribute.mirrored import MirroredStrategy, OneDeviceStrategy  # noqa: F401
from .._src.distribute.multi_worker import MultiWorkerMirroredStrategy  # noqa: F401
from .._src.distribute.reduce_op import ReduceOp  # noqa: F401
from .._src.distribute.replica_context import ReplicaContext  # noqa: F401
from .._src.distribute.run_options import RunOptions  # noqa: F401
from .._src.distribute.strategy import Strategy, StrategyExtended  # noqa: F401
from .._src.distribute.values import DistributedValues  # noqa: F401
from . import cluster_resolver, experimental  # noqa: F401

NOT_PROVIDED = {
    "ParameterServerStrategy": "parameter servers are TensorFlow's gRPC runtime (tf.distribute.Server); here "
                               "workers exchange gradients with MPI collectives: use MultiWorkerMirroredStrategy",
    "TPUStrategy": "there are no TPUs: eagerflow runs on the CPU",
    "Server": "TensorFlow's in-process gRPC server; MPI (mpiexec) starts and connects the workers here",
    "coordinator": "ClusterCoordinator schedules functions on parameter-server workers, which are not provided",
}


def __getattr__(name):
    if name in NOT_PROVIDED:
        raise AttributeError(f"tf.distribute.{name} is not provided by eagerflow: {NOT_PROVIDED[name]}.")
    raise AttributeError(f"module 'eagerflow.distribute' has no attribute {name!r}")
