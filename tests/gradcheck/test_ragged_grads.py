"""Gradcheck rows for the tf.ragged ops (ops/ragged/factories.py) against finite differences."""
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _to_tensor(v):
    return tf.RaggedTensor.from_row_splits(v * v, [0, 3, 3, 5]).to_tensor(default_value=tf.constant(0.5, tf.float64))


def _to_tensor_cut(v):
    rt = tf.RaggedTensor.from_nested_row_splits(tf.sin(v), [[0, 2, 3], [0, 1, 3, 5]])
    return rt.to_tensor(shape=[2, 2, 1])


ROWS = [
    GradRow("RaggedTensorToTensor", _to_tensor, [(5,)]),
    GradRow("RaggedTensorToTensor-nested-cut", _to_tensor_cut, [(5,)]),
    GradRow("RaggedTensorToTensor-graph", tf.function(_to_tensor), [(5,)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
