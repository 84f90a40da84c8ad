"""Finite-difference rows for the CTC loss ops (ops/nn/ctc.py): the dense op (what tf.nn.ctc_loss with
dense labels and Keras' CTC run) and TensorFlow's CTCLoss (SparseTensor labels). The public dense
path refuses float64 logits as TensorFlow does, so that row binds the op itself, in float64. (Where a label cannot fit, TensorFlow's
"gradient" is not the loss's derivative; tests/ops/test_ctc_loss.py holds TensorFlow's numbers.)"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn.ctc import CTCLossDense
from eagerflow._src.ops.registry import bind
from tests.gradcheck.harness import GradRow, check_row

LABELS = np.array([[1, 2, 2], [3, 1, 0]], np.int32)


def _dense(logits):
    return bind(CTCLossDense, (logits, tf.constant(LABELS), tf.constant([3, 2]), tf.constant([5, 4])))[0]


def _sparse(logits):
    labels = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, 2, 1]), [2, 2])
    return tf.nn.ctc_loss(labels, logits, None, [5, 3], blank_index=-1)


ROWS = [
    GradRow("CTCLossDense", _dense, [(5, 2, 4)]),
    GradRow("CTCLoss", _sparse, [(5, 2, 4)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
