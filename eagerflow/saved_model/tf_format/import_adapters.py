"""TensorFlow op types whose eagerflow op of the same name takes some of TensorFlow's inputs as
attributes (a diagonal's offsets, a padding value): the importer reads those inputs' constant values
into the attributes. An input that is not a constant is refused at load time, naming the node. Every
other eagerflow op with TensorFlow's name takes TensorFlow's inputs as they are (op_support.py checks
that the counts agree; an op type whose counts differ and has no adapter here is unsupported)."""
from __future__ import annotations

import numpy as np

from ..._src.ops.registry import static_value
from .tf_values import BadValue


def _constant(tensor, what, op_type):
    value = static_value(tensor)
    if value is None:
        raise BadValue(f"{op_type}'s {what} must be a constant for eagerflow's {op_type}, which takes it as an "
                       f"attribute")
    return np.asarray(value)


def _band(k, op_type):
    k = _constant(k, "k", op_type).reshape(-1)
    if k.size not in (1, 2):
        raise BadValue(f"{op_type}'s k has {k.size} values")
    return int(k[0]), int(k[-1])


def _diag_part(inputs, attrs):
    x, k, padding = inputs
    lo, hi = _band(k, "MatrixDiagPartV3")
    return [x], {**attrs, "lower": lo, "upper": hi,
                 "padding_value": _constant(padding, "padding_value", "MatrixDiagPartV3").item()}


def _diag(inputs, attrs):
    d, k, rows, cols, padding = inputs
    lo, hi = _band(k, "MatrixDiagV3")
    return [d], {**attrs, "lower": lo, "upper": hi, "num_rows": int(_constant(rows, "num_rows", "MatrixDiagV3")),
                 "num_cols": int(_constant(cols, "num_cols", "MatrixDiagV3")),
                 "padding_value": _constant(padding, "padding_value", "MatrixDiagV3").item()}


def _set_diag(inputs, attrs):
    x, d, k = inputs
    lo, hi = _band(k, "MatrixSetDiagV3")
    return [x, d], {**attrs, "lower": lo, "upper": hi}


def _fingerprint(inputs, attrs):
    data, method = inputs
    name = _constant(method, "method", "Fingerprint").item()
    return [data], {**attrs, "method": name.decode() if isinstance(name, bytes) else str(name)}


INPUTS_AS_ATTRIBUTES = {"MatrixDiagPartV3": _diag_part, "MatrixDiagV3": _diag, "MatrixSetDiagV3": _set_diag,
                        "Fingerprint": _fingerprint}
