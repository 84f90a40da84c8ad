"""The dense CTC loss (eagerflow's one CTCLossDense op) as a graph of ordinary ops, as TensorFlow's own
dense tf.nn.ctc_loss is: the same forward-backward as ops/nn/ctc_core.py (its docstring explains the
states, the LOG_ZERO ends and the per-step renormalisation), vectorised over the batch, its two time
loops as tf.while_loop writing each step's state vector into a [time, batch, states] history. Computed
in float64 like the kernel, so a saved function gives the kernel's values; traced once per export
(traced_call_export.py) and written as a function of the SavedModel's library."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...ops.array.basic import broadcast_to, cast, expand_dims, fill, reshape, shape, squeeze, transpose, where, zeros
from ...ops.array.joining import concat
from ...ops.array.sequences import range as _range
from ...ops.array.tensor_scatter import tensor_scatter_nd_update
from ...ops.array.tiling import tile
from ...ops.linalg.matmul import matmul
from ...ops.math.comparison import equal, greater_equal, less, less_equal, logical_and, logical_or, not_equal
from ...ops.math.reduce import reduce_max, reduce_sum
from ...ops.math.unary import exp, is_finite, log
from ...ops.nn.ctc_core import LOG_ZERO

F64, I64 = _dt.float64, _dt.int64


def _lse(x, axis, keepdims=False):
    """log(sum(exp(x))) along `axis`, shifted by the finite maximum (ctc_core._logsumexp)."""
    top = reduce_max(x, axis=axis, keepdims=True)
    top = where(is_finite(top), top, zeros(shape(top), F64))
    out = log(reduce_sum(exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else squeeze(out, [axis])


def _transitions(labels, width, states):
    """log of the allowed moves [batch, to, from]: 0 allowed, -inf not (ctc_core._transitions)."""
    index = _range(states, dtype=I64)
    to, frm = expand_dims(index, 1), expand_dims(index, 0)
    one = np.int64(1)
    allowed = logical_or(logical_or(equal(to, frm), logical_and(equal(to, one), equal(frm, np.int64(0)))),
                         logical_or(logical_and(logical_and(greater_equal(to, one), less_equal(to, width)),
                                                equal(frm, to + width)),
                                    logical_and(greater_equal(to, width + one), equal(frm, to - width - one))))
    batch = shape(labels, out_type=I64)[0]
    differs = not_equal(labels[:, :-1], labels[:, 1:])  # [batch, width - 1]: label j-1 -> j allowed
    padding = fill([batch, 2], False)
    moves = concat([padding, differs, fill(reshape(concat([[batch], [states]], 0), [2]), False)], 1)
    moves = moves[:, :cast(states, _dt.int32)]  # slice bounds int32: TensorFlow's StridedSlice wants one index type
    step = logical_and(logical_and(greater_equal(to, np.int64(2)), less_equal(to, width)), equal(frm, to - one))
    allowed = logical_or(expand_dims(allowed, 0), logical_and(expand_dims(moves, 2), expand_dims(step, 0)))
    return where(allowed, zeros(shape(allowed), F64), fill(shape(allowed), np.float64(-np.inf)))


def ctc_dense(logits, labels, label_length, logit_length):
    """(loss [batch], gradient [time, batch, classes]) in the logits' dtype; blank = class 0."""
    dtype = logits.dtype
    logits, labels = cast(logits, F64), cast(labels, I64)
    label_length, logit_length = cast(label_length, I64), cast(logit_length, I64)
    dims = shape(logits, out_type=I64)
    time, batch, classes = dims[0], dims[1], dims[2]
    width = shape(labels, out_type=I64)[1]
    states = 2 * (width + 1)
    log_probs = logits - _lse(logits, 2, keepdims=True)
    one_hot = cast(equal(expand_dims(labels, 2), _range(classes, dtype=I64)), F64)  # [batch, width, classes]
    picked = transpose(matmul(transpose(log_probs, [1, 0, 2]), one_hot, transpose_b=True), [1, 0, 2])
    blank = tile(log_probs[:, :, :1], concat([[1, 1], reshape(width + 1, [1])], 0))
    start = fill(concat([dims[:2], [1]], 0), np.float64(-np.inf))
    observed = concat([start, picked, blank], 2)  # [time, batch, states]
    trans = _transitions(labels, width, states)
    index = expand_dims(_range(states, dtype=I64), 0)
    grid = concat([reshape(batch, [1]), reshape(states, [1])], 0)
    log_zero = fill(grid, np.float64(LOG_ZERO))
    initial = where(broadcast_to(equal(index, np.int64(0)), grid), zeros(grid, F64), log_zero)
    ends = expand_dims(logical_and(greater_equal(label_length, np.int64(0)), less_equal(label_length, width)), 1)
    length = expand_dims(label_length, 1)
    final = where(logical_and(logical_or(equal(index, length), equal(index, length + width + 1)), ends),
                  zeros(grid, F64), log_zero)
    mask = less(expand_dims(_range(time, dtype=I64), 1), expand_dims(logit_length, 0))  # [time, batch]
    history = zeros(concat([reshape(time, [1]), grid], 0), F64)
    from ...control_flow.while_loop import while_loop

    def forward(t, fwd, kept):
        state = _lse(expand_dims(fwd, 1) + trans, 2) + observed[t]
        following = state - _lse(state, 1, keepdims=True)
        return t + 1, following, tensor_scatter_nd_update(kept, reshape(t, [1, 1]), expand_dims(following, 0))

    steps = cast(time, _dt.int32)
    _, _, fwd = while_loop(lambda t, *_: less(t, steps), forward, (np.int32(0), initial, history))

    def backward(t, bwd, total, kept):
        state = _lse(expand_dims(bwd + observed[t], 2) + trans, 1)
        norm = _lse(state, 1, keepdims=True)
        step_mask = mask[t]
        total = total + norm[:, 0] * cast(step_mask, F64)
        earlier = where(broadcast_to(expand_dims(step_mask, 1), grid), state - norm, final)
        return t - 1, earlier, total, tensor_scatter_nd_update(kept, reshape(t, [1, 1]), expand_dims(earlier, 0))

    _, _, total, bwd = while_loop(lambda t, *_: greater_equal(t, np.int32(0)), backward,
                                  (steps - 1, final, zeros(reshape(batch, [1]), F64), history))
    bwd = concat([bwd, expand_dims(final, 0)], 0)  # [time + 1, batch, states]
    fwd_bwd = fwd + bwd[1:]
    fwd_bwd = fwd_bwd - _lse(fwd_bwd, 2, keepdims=True)
    step_mask = expand_dims(mask, 2)
    fwd_bwd = where(broadcast_to(step_mask, shape(fwd_bwd)), fwd_bwd, fill(shape(fwd_bwd), np.float64(-np.inf)))
    first_blank = cast(width, _dt.int32) + 1
    label_states, blank_states = fwd_bwd[:, :, 1:first_blank], fwd_bwd[:, :, first_blank:]
    top = reduce_max(label_states, axis=2, keepdims=True)
    top = where(is_finite(top), top, zeros(shape(top), F64))
    weights = transpose(exp(label_states - top), [1, 0, 2])  # [batch, time, width]
    label_probs = transpose(matmul(weights, one_hot[:, :, 1:]), [1, 0, 2]) * exp(top)
    posteriors = concat([exp(_lse(blank_states, 2, keepdims=True)), label_probs], 2)
    gradient = (exp(log_probs) - posteriors) * cast(step_mask, F64)
    loss = -(bwd[0][:, 0] + total)
    return cast(loss, dtype), cast(gradient, dtype)
