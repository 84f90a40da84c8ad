"""ReadFile and WriteFile: `tf.io.read_file` / `tf.io.write_file`, a whole file as one string scalar.

As in TensorFlow, ReadFile is not stateful (passes may share it like any op on its input) while
WriteFile is, so no pass drops it though nothing reads its (empty) output. Both declare the "files"
effect: no pass runs them before the program runs, and a loaded model holds them only when the
caller allowed file access (saved_model/load_safety.py). Neither has a
gradient nor compiles under jit_compile: TensorFlow's XLA has no string type. WriteFile creates the
missing parent directories of its path, as TensorFlow's does.
"""
from __future__ import annotations

import os

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...io.gfile import os_error
from ...io.atomic import write_file_atomically
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import FILES, NO_GRADIENT, Spec, bind, defop


def _path(value) -> str:
    value = value[()] if isinstance(value, np.ndarray) else value
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _scalar_input(op_name, inputs, index, what):
    R.check_input_dtype(op_name, inputs, index, _dt.string)
    shape = inputs[index].shape
    if shape.rank is not None and shape.rank != 0:
        raise InvalidArgumentError(None, None, f"{what} tensor must be scalar, but had shape: {shape.as_list()}")


def _read_kernel(filename):
    path = _path(filename)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise os_error(path, e) from None
    return np.array(data, dtype=object)


def _read_infer(inputs, attrs):
    _scalar_input("ReadFile", inputs, 0, "Input filename")
    return [Spec(TensorShape([]), _dt.string)]


ReadFile = defop("ReadFile", inputs=("filename",), kernel=_read_kernel, infer=_read_infer, grad=NO_GRADIENT,
                 doc="The bytes of a file, as a string scalar.")
ReadFile.effects = FILES


def _write_kernel(filename, contents):
    path = _path(filename)
    data = contents[()] if isinstance(contents, np.ndarray) else contents
    data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    try:
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        write_file_atomically(path, data)  # a failed write leaves the file as it was (io/atomic.py)
    except OSError as e:
        raise os_error(path, e) from None
    return ()


def _write_infer(inputs, attrs):
    _scalar_input("WriteFile", inputs, 0, "Input filename")
    _scalar_input("WriteFile", inputs, 1, "Contents")
    return []


WriteFile = defop("WriteFile", inputs=("filename", "contents"), kernel=_write_kernel, infer=_write_infer,
                  grad=NO_GRADIENT, multi_output=True, stateful=True,
                  doc="Writes a string scalar to a file (replacing it), creating missing directories.")
WriteFile.effects = FILES


def read_file(filename, name=None):
    """`tf.io.read_file`: the file's bytes as a tf.string scalar."""
    return bind(ReadFile, (as_tensor(filename),), name=name)


def write_file(filename, contents, name=None):
    """`tf.io.write_file`: writes `contents` to `filename`, replacing it. Returns None."""
    bind(WriteFile, (as_tensor(filename), as_tensor(contents)), name=name)
