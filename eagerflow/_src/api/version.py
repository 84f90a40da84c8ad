"""`tf.version`: the TensorFlow API version eagerflow implements (see eagerflow/__init__.py)."""
VERSION = "2.21.0"
GIT_VERSION = "v2.21.0-eagerflow"
COMPILER_VERSION = ""
GRAPH_DEF_VERSION = 0
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
