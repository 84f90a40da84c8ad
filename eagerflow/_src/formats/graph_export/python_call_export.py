"""tf.py_function / tf.numpy_function (EagerPyFunc, PyFunc, PyFuncStateless) saved as TensorFlow saves
them: the node with its input and output types and a `token` naming the callback, but not the Python
function, which a SavedModel cannot hold. TensorFlow 2.21 saves such a function without an error or a
warning; a process that loads it and has no callback of that token fails when the node runs
(InvalidArgumentError "Could not find callback with key=pyfunc_0 in the registry"). eagerflow's loader
refuses the node when loading (PermissionDeniedError: a loaded model never runs Python)."""
from __future__ import annotations

import itertools

from .generic_op import emit

# TensorFlow numbers its callbacks in the order a process registers them: pyfunc_0, pyfunc_1, ...
_TOKENS = itertools.count()


def export_python_call(builder, op):
    attrs = {"token": f"pyfunc_{next(_TOKENS)}", "Tout": list(op.attrs["Tout"])}
    emit(builder, op, op.type, list(op.inputs), attrs, list(op.outputs))
