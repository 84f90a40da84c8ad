"""TensorFlow's file formats: protocol buffer messages (protos/), the tensor bundle of checkpoints and
SavedModel variables (tensor_bundle.py over sorted_table.py), and the dtype numbers they store (dtypes.py).

Used by saved_model/, train/, summary/ and serving/. Nothing here is imported by `import eagerflow`.
"""


def _function_def_of(cf):
    from .graph_export.function_message import function_def_message
    return function_def_message(cf)


# trace/ (a floor below) cannot reach the FunctionDef writer: it calls the one installed here.
from ..trace.concrete import FUNCTION_DEF_WRITER as _WRITER  # noqa: E402 - after the writer it installs

_WRITER["write"] = _function_def_of
