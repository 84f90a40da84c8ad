"""A tensor's value as TensorFlow prints it in `str(t)` and `repr(t)` (`tf.Tensor(...)`,
`<tf.Tensor: ..., numpy=...>`), shared by eager tensors and variables.

Its own module because matching TensorFlow's text across NumPy and ml_dtypes versions takes care
(NumPy 2 scalars, bfloat16's dtype name, the `shape=` NumPy >= 2.2 adds) that has nothing to do
with what a tensor is.
"""
from __future__ import annotations

import numpy as np


def numpy_text(tensor, is_repr=False) -> str:
    value = tensor.numpy()
    if is_repr:
        text = _bfloat16_array_repr(value) if tensor.dtype.name == "bfloat16" else repr(value)
        if isinstance(value, np.generic):  # NumPy 2 prints np.float32(1.0); TF shows 1.0
            text = repr(value.item()) if value.dtype.kind != "O" else repr(value)
            if value.dtype.kind == "f" and text in ("inf", "-inf", "nan"):
                text = str(value)
    else:
        text = str(value)
    if "\n" in text:
        text = "\n" + text
    return text


def _bfloat16_array_repr(value) -> str:
    """NumPy's `repr` of a bfloat16 array with the dtype written `bfloat16`, as TensorFlow prints it.

    Why: bfloat16 is ml_dtypes' dtype, foreign to NumPy, and NumPy writes foreign dtypes the way the
    installed ml_dtypes lets it (`dtype=bfloat16` up to 0.6, `dtype=dtype(bfloat16)` from 0.7), so
    the text would change with a dependency's version. The layout is NumPy's own (array2string with
    its prefix, separator and line width, the `shape=` NumPy >= 2.2 adds to a summarised array, the
    extras moved to a new line when they would pass the line width); only the dtype's name is ours."""
    if not isinstance(value, np.ndarray) or value.ndim == 0:
        return repr(value)
    options = np.get_printoptions()
    body = np.array2string(value, separator=", ", prefix="array(", suffix=")")
    extras = []
    if (value.size == 0 and value.shape != (0,)) or (
            _NUMPY_REPR_SHOWS_SUMMARISED_SHAPE and not options["legacy"] and value.size > options["threshold"]):
        extras.append(f"shape={value.shape}")
    extras = ", ".join(extras + ["dtype=bfloat16"]) + ")"
    text = "array(" + body + ","
    last_line = len(text) - (text.rfind("\n") + 1)
    return text + ("\n      " if last_line + len(extras) + 1 > options["linewidth"] else " ") + extras


_NUMPY_REPR_SHOWS_SUMMARISED_SHAPE = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 2)
