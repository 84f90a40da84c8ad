"""Gradcheck rows for the TensorList ops behind tf.TensorArray (ops/control/lists.py), eagerly and in a
tf.function with a tf.while_loop, against finite differences."""
import pytest

import eagerflow as tf
from eagerflow._src.control_flow.tensor_array import TensorArray
from tests.gradcheck.harness import GradRow, check_row


def _set_get_stack(x):
    """SetItem + GetItem + Stack: reads feed later writes, so list gradients also meet in AddN."""
    ta = TensorArray(tf.float64, size=3, clear_after_read=False).write(0, x[0])
    ta = ta.write(1, tf.sin(ta.read(0)) * x[1])
    return ta.write(2, ta.read(1) * ta.read(0)).stack()


def _from_tensor_gather(x):
    return TensorArray(tf.float64, size=3).unstack(x * x).gather([2, 0, 2])


def _scatter_read(x):
    ta = TensorArray(tf.float64, size=4, clear_after_read=False).scatter([3, 1], x[:2])
    return tf.stack([ta.read(1), ta.read(3) * x[2], ta.read(0)])


def _concat(x):
    ta = TensorArray(tf.float64, size=2, infer_shape=False).write(0, x[0]).write(1, tf.reshape(x[1:], [4]))
    return ta.concat()


def _split(x):
    ta = TensorArray(tf.float64, size=2, clear_after_read=False).split(tf.reshape(x, [6]), [4, 2])
    return ta.read(0)[1:3] * ta.read(1)


@tf.function
def _rnn(x, w):
    n = tf.shape(x)[0]
    ta = TensorArray(tf.float64, size=n)

    def body(i, h, ta):
        h = tf.tanh(h * w + x[i])
        return i + 1, h, ta.write(i, h)
    _, _, ta = tf.while_loop(lambda i, h, ta: i < n, body, (0, tf.zeros_like(x[0]), ta))
    return ta.stack()


ROWS = [
    GradRow("TensorListSetItem-GetItem-Stack", _set_get_stack, [(3, 2)]),
    GradRow("TensorListFromTensor-Gather", _from_tensor_gather, [(3, 2)]),
    GradRow("TensorListScatterIntoExistingList", _scatter_read, [(3, 2)]),
    GradRow("TensorListConcatV2", _concat, [(3, 2)]),
    GradRow("TensorListSplit", _split, [(3, 2)]),
    GradRow("TensorList-in-StatelessWhile", _rnn, [(4, 2), (2,)]),
    GradRow("TensorList-graph", tf.function(_set_get_stack), [(3, 2)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
