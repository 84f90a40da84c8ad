"""`tf.distribute.experimental`: the multi-worker strategy under its older name, the collective
options, and ValueContext. ParameterServerStrategy, CentralStorageStrategy, TPUStrategy, the
preemption handlers, partitioners and rpc are not provided (see `NOT_PROVIDED`)."""
from .._src.distribute.collectives import (CollectiveCommunication, CollectiveHints,  # noqa: F401
                                           CommunicationImplementation, CommunicationOptions)
from .._src.distribute.input import ValueContext  # noqa: F401
from .._src.distribute.multi_worker import ExperimentalMultiWorkerMirroredStrategy

MultiWorkerMirroredStrategy = ExperimentalMultiWorkerMirroredStrategy  # its name in this namespace

NOT_PROVIDED = {
    "ParameterServerStrategy": "parameter servers need TensorFlow's gRPC runtime; use MultiWorkerMirroredStrategy",
    "CentralStorageStrategy": "one CPU holds every variable already: MirroredStrategy does the same here",
    "TPUStrategy": "there are no TPUs: eagerflow runs on the CPU",
    "PreemptionCheckpointHandler": "cloud preemption notices are not watched; use keras.callbacks.BackupAndRestore",
    "PreemptionWatcher": "cloud preemption notices are not watched",
    "TerminationConfig": "cloud preemption notices are not watched",
    "coordinator": "parameter-server scheduling is not provided",
    "partitioners": "variables are not partitioned across parameter servers",
    "rpc": "TensorFlow's gRPC function calls are not provided",
}


def __getattr__(name):
    if name in NOT_PROVIDED:
        raise AttributeError(f"tf.distribute.experimental.{name} is not provided by eagerflow: {NOT_PROVIDED[name]}.")
    raise AttributeError(f"module 'eagerflow.distribute.experimental' has no attribute {name!r}")
