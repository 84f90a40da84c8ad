"""Ops whose eagerflow form keeps as attributes what TensorFlow's op of the same type takes as inputs
(a diagonal's offsets and padding value, a fingerprint's method): the attributes are written as Const
inputs, as TensorFlow's own graphs hold them, and TensorFlow's attributes (`T`, `align`) are kept.
The importer (saved_model/tf_format/import_adapters.py) reads the constants back into attributes."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .generic_op import emit
from .rewrites import const


def _offsets(builder, op):
    """`k`: the one diagonal as a scalar, a band as [lower, upper] (int32, as tf.linalg writes it)."""
    lo, hi = int(op.attrs.get("lower", 0)), int(op.attrs.get("upper", 0))
    value = np.int32(lo) if lo == hi else np.array([lo, hi], np.int32)
    return const(builder, f"{op.name}/k", value)


def _padding(builder, op, dtype):
    return const(builder, f"{op.name}/padding_value",
                 np.asarray(op.attrs.get("padding_value", 0), dtype.as_numpy_dtype), dtype)


def _align(op):
    return {"align": op.attrs.get("align", "RIGHT_LEFT")}


def export_matrix_diag_part(builder, op):
    x = op.inputs[0]
    emit(builder, op, "MatrixDiagPartV3", [x, _offsets(builder, op), _padding(builder, op, x.dtype)], _align(op),
         list(op.outputs))


def export_matrix_diag(builder, op):
    d = op.inputs[0]
    rows = const(builder, f"{op.name}/num_rows", np.int32(op.attrs.get("num_rows", -1)))
    cols = const(builder, f"{op.name}/num_cols", np.int32(op.attrs.get("num_cols", -1)))
    emit(builder, op, "MatrixDiagV3", [d, _offsets(builder, op), rows, cols, _padding(builder, op, d.dtype)],
         _align(op), list(op.outputs))


def export_matrix_set_diag(builder, op):
    x, d = op.inputs
    emit(builder, op, "MatrixSetDiagV3", [x, d, _offsets(builder, op)], _align(op), list(op.outputs))


def export_fingerprint(builder, op):
    method = const(builder, f"{op.name}/method", np.array(op.attrs.get("method", "farmhash64").encode(), object),
                   _dt.string)
    emit(builder, op, "Fingerprint", [op.inputs[0], method], {}, list(op.outputs))
