"""`tf.train`: checkpoints, and the tf.train.Example protos (TensorFlow's own messages, built from
eagerflow/_src/formats/protos/example.proto; `protobuf` loads when a program first names one)."""
from .checkpoint import Checkpoint
from .checkpoint_manager import CheckpointManager
from .checkpoint_options import CheckpointOptions
from .checkpoint_state import CheckpointState, checkpoints_iterator, get_checkpoint_state, latest_checkpoint
from .reader import CheckpointReader, list_variables, load_checkpoint, load_variable
from . import experimental

__all__ = ["BytesList", "Checkpoint", "CheckpointManager", "CheckpointOptions", "CheckpointReader", "CheckpointState",
           "Example", "Feature", "Features", "FloatList", "Int64List", "checkpoints_iterator", "experimental", "get_checkpoint_state",
           "latest_checkpoint", "list_variables", "load_checkpoint", "load_variable"]

_EXAMPLE_MESSAGES = ("BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList",
                     "Int64List", "SequenceExample")


def __getattr__(name):
    if name in _EXAMPLE_MESSAGES:
        from .._src.formats.protos import example_pb2

        return getattr(example_pb2, name)
    raise AttributeError(f"module 'eagerflow.train' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_EXAMPLE_MESSAGES))
