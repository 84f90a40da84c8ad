"""`tf.train`: checkpoints in TensorFlow's format, and the tf.train.Example protos (eagerflow/_src/io/example_proto.py)."""
from .._src.io.example_proto import BytesList, Example, Feature, Features, FloatList, Int64List
from .checkpoint import Checkpoint
from .checkpoint_manager import CheckpointManager
from .checkpoint_options import CheckpointOptions
from .checkpoint_state import CheckpointState, checkpoints_iterator, get_checkpoint_state, latest_checkpoint
from .reader import CheckpointReader, list_variables, load_checkpoint, load_variable

__all__ = ["BytesList", "Checkpoint", "CheckpointManager", "CheckpointOptions", "CheckpointReader", "CheckpointState", "Example",
           "Feature", "Features", "FloatList", "Int64List", "checkpoints_iterator", "get_checkpoint_state",
           "latest_checkpoint", "list_variables", "load_checkpoint", "load_variable"]
