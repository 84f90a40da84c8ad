"""Connectionist Temporal Classification: `keras.ops.ctc_loss`, `keras.losses.ctc` and `keras.losses.CTC`.

As Keras 3.15 computes it on TensorFlow (tf.nn.ctc_loss with dense labels): `output` holds logits
(batch, time, classes) and is log-softmaxed here (a model's softmax output is taken as logits too,
as Keras does); `mask_index` is the blank class. The loss of one sequence is -log of the summed
probability of every alignment of its label: the forward (alpha) recursion over the label with a
blank between and around its symbols (2L + 1 states), where each state comes from itself, the one
before it, or the one two before it when that skips a blank between two different symbols. Steps at
or past a sequence's `output_length` leave its states unchanged. Built from ordinary ops with the time
steps in a tf.while_loop (so the time axis may be unknown while tracing, as in fit), it runs eagerly
and under tf.function and its gradient comes from the tape.

"Impossible" states hold LOG_ZERO, TensorFlow's stand-in for log(0) (log of 1e-307), rather than
-inf, so that a sum of impossible paths stays finite and differentiable: a label that cannot fit in
its input gives a large finite loss, as in TensorFlow (the exact large value differs).
"""
from __future__ import annotations

import math

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.convert import convert_to_tensor
from .._src.ops import array as _array
from .._src.ops import math as _math
from .._src.ops import reduce as _reduce
from .._src.ops.joining import concat, stack
from .._src.ops.matmul import matmul
from .._src.ops.nn import log_softmax
from .._src.ops.sequences import one_hot
from .._src.ops.slicing import gather
from .._src.control_flow.while_loop import while_loop
from .losses import LossFunctionWrapper

LOG_ZERO = float(np.float32(math.log(1e-307)))


def _logsumexp(*terms):
    top = terms[0]
    for t in terms[1:]:
        top = _math.maximum(top, t)
    total = _math.exp(terms[0] - top)
    for t in terms[1:]:
        total = total + _math.exp(t - top)
    return top + _math.log(total)


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """Per-sequence CTC loss (batch,): `target` (batch, max_label_length) int labels, `output`
    (batch, time, classes) logits, the true lengths of both, `mask_index` the blank class."""
    target = _math.cast(convert_to_tensor(target), _dt.int32)
    output = convert_to_tensor(output)
    result_dtype = output.dtype if output.dtype in (_dt.float16, _dt.float64) else _dt.float32
    logits = _math.cast(output, _dt.float32) if output.dtype is not _dt.float32 else output
    num_classes = logits.shape[-1]
    target_length = _math.cast(convert_to_tensor(target_length), _dt.int32)
    output_length = _math.cast(convert_to_tensor(output_length), _dt.int32)
    log_probs = log_softmax(logits, axis=-1)

    # the label with a blank before, between and after its symbols: (batch, states)
    blanks = _array.fill(_array.shape(target), np.int32(mask_index))
    interleaved = _array.reshape(stack([blanks, target], axis=-1), [_array.shape(target)[0], -1])
    states = concat([interleaved, blanks[:, :1]], axis=1)
    num_states = 2 * target.shape[1] + 1
    # log-probability of each state's symbol at each time step: (batch, time, states)
    state_log_probs = matmul(log_probs, one_hot(states, num_classes, dtype=_dt.float32), transpose_b=True)
    skip = _math.logical_and(_math.not_equal(states[:, 2:], states[:, :-2]),
                             _math.not_equal(states[:, 2:], np.int32(mask_index)))
    skip = concat([_array.zeros_like(skip[:, :2]), skip], axis=1)
    zero = _array.fill(_array.shape(states), np.float32(LOG_ZERO))
    first_two = _array.constant(np.arange(num_states) < 2)
    alpha = _array.where(_array.broadcast_to(first_two, _array.shape(states)), state_log_probs[:, 0], zero)

    def step(t, alpha):
        from_previous = concat([zero[:, :1], alpha[:, :-1]], axis=1)
        from_skip = _array.where(skip, concat([zero[:, :2], alpha[:, :-2]], axis=1), zero)
        stepped = _logsumexp(alpha, from_previous, from_skip) + gather(state_log_probs, t, axis=1)
        return t + 1, _array.where(_array.expand_dims(_math.less(t, output_length), -1), stepped, alpha)

    steps = _array.shape(logits)[1]
    _, alpha = while_loop(lambda t, alpha: _math.less(t, steps), step, (_array.constant(np.int32(1)), alpha))
    last = _reduce.reduce_sum(alpha * one_hot(2 * target_length, num_states, dtype=_dt.float32), axis=-1)
    before_last = _reduce.reduce_sum(alpha * one_hot(2 * target_length - 1, num_states, dtype=_dt.float32), axis=-1)
    before_last = _array.where(_math.greater(target_length, 0), before_last, _array.fill(_array.shape(last),
                                                                                         np.float32(LOG_ZERO)))
    loss = _math.negative(_logsumexp(last, before_last))
    return loss if result_dtype is _dt.float32 else _math.cast(loss, result_dtype)


def ctc(y_true, y_pred):
    """`keras.losses.ctc`: y_true (batch, max_length) labels padded with 0 (the blank), y_pred
    (batch, time, classes); every sequence uses the whole time axis."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    if y_true.shape.rank != 2:
        raise ValueError(f"Targets `y_true` are expected to be a tensor of shape `(batch_size, max_length)` in "
                         f"integer format. Received: y_true.shape={tuple(y_true.shape.as_list())}")
    if y_pred.shape.rank != 3:
        raise ValueError(f"Logits `y_pred` are expected to be a tensor of shape `(batch_size, max_length, "
                         f"num_classes)`. Received: y_pred.shape={tuple(y_pred.shape.as_list())}")
    shape = _array.shape(y_pred)
    input_length = _array.fill(shape[:1], shape[1])
    label_length = _reduce.reduce_sum(_math.cast(_math.not_equal(y_true, _math.cast(0, y_true.dtype)), _dt.int32),
                                      axis=-1)
    return ctc_loss(y_true, y_pred, label_length, input_length, mask_index=0)


class CTC(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction)

    def call(self, y_true, y_pred):
        return ctc(y_true, y_pred)  # no rank pairing: labels (batch, L) and logits (batch, T, C) differ by design

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}
