"""Differential rows (generated code == eager == reference interpreter) for the CTC ops: the dense
and sparse losses (with their gradients in the graph), ctc_unique_labels, the two decoders, and conjugate_gradient's
loop (a composition, kept here as the other tf.nn/tf.linalg newcomers of the same change).
`rows(Row)` builds them with test_differential's Row."""
import numpy as np

import eagerflow as tf

LOGITS = np.random.RandomState(11).randn(6, 3, 5).astype(np.float32)
LABELS = np.array([[1, 2, 2, 0], [3, 1, 4, 2], [4, 0, 0, 0]], np.int32)
_M = np.random.RandomState(3).randn(4, 4)
SPD = (_M @ _M.T + 4 * np.eye(4)).astype(np.float32)


def _dense_loss_and_grad(logits, labels):
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.ctc_loss(labels, logits, [3, 3, 1], [6, 5, 3], blank_index=-1)
        total = tf.reduce_sum(loss)
    return loss, tape.gradient(total, logits)


def _sparse_loss_and_grad(logits):
    labels = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0]], tf.constant([1, 2, 3, 0]), [3, 2])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.ctc_loss(labels, logits, None, [6, 5, 3], blank_index=0, logits_time_major=False)
        total = tf.reduce_sum(loss)
    return loss, tape.gradient(total, logits)


def _solve(rhs):
    op = tf.linalg.LinearOperatorFullMatrix(SPD, is_self_adjoint=True, is_positive_definite=True)
    state = tf.linalg.experimental.conjugate_gradient(op, rhs, max_iter=3)
    # stop_gradient: a loop whose trip count depends on the data has no gradient under XLA (as in
    # TensorFlow), and test_xla_differential differentiates every row's float outputs
    return state.i, tf.stop_gradient(state.x), tf.stop_gradient(state.gamma)


def rows(Row):
    return [
        Row("CTCLossDense", _dense_loss_and_grad, (LOGITS, LABELS - 1)),
        Row("CTCLossDense", lambda x: tf.nn.ctc_loss(LABELS, x, [3, 3, 1], [6, 5, 3]), (LOGITS,), dims="dynamic",
            label="dynamic"),
        Row("CTCLoss", _sparse_loss_and_grad, (LOGITS.transpose(1, 0, 2),)),
        Row("CTCLoss", lambda x: tf.nn.ctc_loss(tf.sparse.from_dense(tf.constant([[1, 2, 1, 2]])), x, None, [3],
                                                blank_index=0), (LOGITS[:, :1],),
            raises=tf.errors.InvalidArgumentError, label="label-too-long"),
        Row("CTCUniqueLabels", tf.nn.ctc_unique_labels, (LABELS,)),
        Row("CTCGreedyDecoder", lambda x: tf.nn.ctc_greedy_decoder(x, [6, 4, 0]), (LOGITS,)),
        Row("CTCGreedyDecoder", lambda x: tf.nn.ctc_greedy_decoder(x, [7, 4, 0]), (LOGITS,),
            raises=tf.errors.FailedPreconditionError, label="too-long"),
        Row("CTCBeamSearchDecoder", lambda x: tf.nn.ctc_beam_search_decoder(x, [6, 4, 2], beam_width=4, top_paths=2),
            (LOGITS,)),
        Row("StatelessWhile", _solve, (np.array([1.0, -2.0, 0.5, 3.0], np.float32),), label="conjugate_gradient"),
    ]
