"""`tf.train`: checkpoints, and the tf.train.Example protos (eagerflow/_src/io/example_proto.py)."""
from .._src.io.example_proto import BytesList, Example, Feature, Features, FloatList, Int64List
from .checkpoint import Checkpoint, CheckpointManager, latest_checkpoint

__all__ = ["BytesList", "Checkpoint", "CheckpointManager", "Example", "Feature", "Features", "FloatList",
           "Int64List", "latest_checkpoint"]
