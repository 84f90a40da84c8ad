"""`tf.train`: checkpoints, and the tf.train.Example protos (TensorFlow's own messages, built from
eagerflow/_src/formats/protos/example.proto; `protobuf` loads when a program first names one)."""
from .checkpoint import Checkpoint, CheckpointManager, latest_checkpoint

__all__ = ["BytesList", "Checkpoint", "CheckpointManager", "Example", "Feature", "Features", "FloatList",
           "Int64List", "latest_checkpoint"]

_EXAMPLE_MESSAGES = ("BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList",
                     "Int64List", "SequenceExample")


def __getattr__(name):
    if name in _EXAMPLE_MESSAGES:
        from .._src.formats.protos import example_pb2

        return getattr(example_pb2, name)
    raise AttributeError(f"module 'eagerflow.train' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_EXAMPLE_MESSAGES))
