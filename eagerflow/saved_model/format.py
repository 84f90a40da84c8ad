"""The SavedModel format's name, version and file layout (docs/savedmodel-format.md).

Versioning: a loader reads every format version with its own major number (minor versions only add
optional things) and refuses a newer major version with a message saying so.
"""
FORMAT_NAME = "eagerflow.saved_model"
FORMAT_VERSION = (1, 2)
DOCUMENT_NAME = "saved_model.json"
TENSOR_DIR = "tensors"
