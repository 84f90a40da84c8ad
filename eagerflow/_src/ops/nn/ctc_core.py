"""The one CTC forward-backward computation, in NumPy: the loss of each sequence and its gradient
with respect to the logits. `tf.nn.ctc_loss` (dense or sparse labels) and Keras' CTC loss all reach
it through the ops of ops/nn/ctc.py.

It follows TensorFlow's dense CTC (the batched forward-backward of Sim et al., 2017), so the numbers
agree with TensorFlow's also where a label cannot be aligned at all:
  - states: 0 is the start, 1..L the label positions, L+1..2L+1 "a blank after position j"
    (j = 0..L). A state repeats itself; the start leads to position 1; blank j-1 to position j;
    position j to blank j; position j-1 to position j unless the two labels are equal.
  - the blank is class 0 (ops/nn/ctc.py rotates another blank index there first).
  - an "impossible" state is LOG_ZERO = log(1e-307) rather than -inf, at the start and at the end:
    a label that cannot fit in its logits gets a large finite loss (about 707 plus the path's cost)
    instead of inf, exactly as in TensorFlow (Keras reports that number too).
  - each step's state vector is renormalised and the normalisers summed (the log-likelihood is
    their sum plus the last vector's start entry), the way TensorFlow keeps the recursion in range;
    steps at or past a sequence's logit length leave the backward vector at the final one.
The gradient is softmax(logits) minus the posterior of each class at each step, zero past the
logit length: what TensorFlow returns as the gradient (also for an impossible label).
Computed in float64; callers cast to the logits' dtype.
"""
from __future__ import annotations

import numpy as np

LOG_ZERO = float(np.float32(np.log(1e-307)))  # TensorFlow casts log(1e-307) to float32


def _logsumexp(x, axis, keepdims=False):
    """log(sum(exp(x))) along `axis`, shifted by the (finite) maximum as TensorFlow's reduce_logsumexp."""
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else np.squeeze(out, axis=axis)


def _transitions(labels, num_states):
    """log of the allowed moves: [batch, to, from], 0 allowed, -inf not."""
    batch, length = labels.shape
    trans = np.zeros((batch, num_states, num_states))
    trans[:, np.arange(num_states), np.arange(num_states)] = 1.0  # self loops
    trans[:, 1, 0] = 1.0  # start -> first label
    positions = np.arange(1, length + 1)
    trans[:, positions, length + positions] = 1.0  # blank j-1 -> label j
    blanks = np.arange(length + 1)
    trans[:, length + 1 + blanks, blanks] = 1.0  # label j (or the start) -> blank j
    if length > 1:
        differs = (labels[:, :-1] != labels[:, 1:]).astype(np.float64)
        trans[:, positions[1:], positions[:-1]] = differs  # label j-1 -> label j unless a repeat
    with np.errstate(divide="ignore"):
        return np.log(trans)


def _observed(log_probs, labels):
    """Each state's log-probability at each step: [time, batch, states]."""
    time, batch, classes = log_probs.shape
    length = labels.shape[1]
    valid = (labels >= 0) & (labels < classes)
    picked = np.take_along_axis(log_probs, np.broadcast_to(np.where(valid, labels, 0)[None], (time, batch, length)),
                                axis=2)
    picked = np.where(valid[None], picked, 0.0)  # TensorFlow's one_hot of an out-of-range label is all zeros
    blank = np.broadcast_to(log_probs[:, :, :1], (time, batch, length + 1))
    start = np.full((time, batch, 1), -np.inf)
    return np.concatenate([start, picked, blank], axis=2)


def _end_states(label_length, length, batch):
    initial = np.full((batch, 2 * (length + 1)), LOG_ZERO)
    initial[:, 0] = 0.0
    final = np.full((batch, 2, length + 1), LOG_ZERO)
    ends = (label_length >= 0) & (label_length <= length)
    rows = np.nonzero(ends)[0]
    final[rows, :, label_length[rows]] = 0.0
    return initial, final.reshape(batch, 2 * (length + 1))


def _class_posteriors(fwd_bwd, labels, classes):
    """exp of the per-class log posterior: blank states sum into class 0, position k into its label."""
    length = labels.shape[1]
    label_states, blank_states = fwd_bwd[:, :, 1:length + 1], fwd_bwd[:, :, length + 1:]
    top = np.max(label_states, axis=2, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.exp(label_states - top)  # [time, batch, length]
    one_hot = (labels[:, :, None] == np.arange(1, classes)[None, None, :]).astype(np.float64)  # [batch, L, C-1]
    label_probs = np.matmul(weights.transpose(1, 0, 2), one_hot).transpose(1, 0, 2) * np.exp(top)
    blank_probs = np.exp(_logsumexp(blank_states, axis=2, keepdims=True))
    return np.concatenate([blank_probs, label_probs], axis=2)


def ctc_loss_and_gradient(logits, labels, label_length, logit_length):
    """logits [time, batch, classes] (blank = class 0), labels [batch, max_label_length], the true
    lengths of both -> (loss [batch], gradient [time, batch, classes]), both float64."""
    logits = np.asarray(logits, np.float64)
    labels = np.asarray(labels).astype(np.int64)
    label_length = np.asarray(label_length).astype(np.int64)
    logit_length = np.asarray(logit_length).astype(np.int64)
    time, batch, classes = logits.shape
    length = labels.shape[1]
    log_probs = logits - _logsumexp(logits, axis=2, keepdims=True)
    observed = _observed(log_probs, labels)
    trans = _transitions(labels, 2 * (length + 1))
    initial, final = _end_states(label_length, length, batch)
    mask = np.arange(time)[:, None] < logit_length[None, :]  # [time, batch]

    fwd = np.empty((time + 1,) + initial.shape)
    fwd[0] = initial
    for t in range(time):
        state = _logsumexp(fwd[t][:, None, :] + trans, axis=2) + observed[t]
        fwd[t + 1] = state - _logsumexp(state, axis=1, keepdims=True)

    bwd = np.empty_like(fwd)
    bwd[time] = final
    total = np.zeros(batch)
    for t in range(time - 1, -1, -1):
        state = _logsumexp((bwd[t + 1] + observed[t])[:, :, None] + trans, axis=1)
        norm = _logsumexp(state, axis=1, keepdims=True)
        total += norm[:, 0] * mask[t]
        bwd[t] = np.where(mask[t][:, None], state - norm, final)

    fwd_bwd = fwd[1:] + bwd[1:]
    fwd_bwd = fwd_bwd - _logsumexp(fwd_bwd, axis=2, keepdims=True)
    fwd_bwd = np.where(mask[:, :, None], fwd_bwd, -np.inf)
    gradient = (np.exp(log_probs) - _class_posteriors(fwd_bwd, labels, classes)) * mask[:, :, None]
    loss = -(bwd[0, :, 0] + total)
    return loss, gradient


def required_time(label, merge_repeated=True):
    """Steps one label sequence needs: one per label, plus a blank between equal neighbours."""
    label = np.asarray(label)
    repeats = int(np.count_nonzero(label[1:] == label[:-1])) if merge_repeated and label.size > 1 else 0
    return label.size + repeats
