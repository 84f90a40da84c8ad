"""The JAX lowering of CTCLossDense (jit_compile=True): ops/nn/ctc_core.py's forward-backward in
jax.numpy, the time steps in lax.scan. TensorFlow's XLA compiles its dense CTC loss (ordinary ops in
a While), so ours compiles too; the sparse CTCLoss and the decoders have no XLA kernel there, and
no lowering here. JAX is imported when a lowering runs (codegen/xla.py has loaded it by then)."""
from __future__ import annotations

import numpy as np

from .ctc_core import LOG_ZERO


def _lse(x, axis, keepdims=False):
    import jax.numpy as jnp
    top = jnp.max(x, axis=axis, keepdims=True)
    top = jnp.where(jnp.isfinite(top), top, 0.0)
    out = jnp.log(jnp.sum(jnp.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else jnp.squeeze(out, axis=axis)


def _log_transitions(labels, length, num_states):
    """log of the allowed moves [batch, to, from] (the layout of ctc_core._transitions)."""
    import jax.numpy as jnp
    static = np.eye(num_states)
    static[1, 0] = 1.0
    positions = np.arange(1, length + 1)
    static[positions, length + positions] = 1.0
    blanks = np.arange(length + 1)
    static[length + 1 + blanks, blanks] = 1.0
    trans = jnp.broadcast_to(jnp.asarray(static, jnp.float32), (labels.shape[0], num_states, num_states))
    if length > 1:
        differs = (labels[:, :-1] != labels[:, 1:]).astype(jnp.float32)
        trans = trans.at[:, positions[1:], positions[:-1]].set(differs)
    return jnp.log(trans)


def ctc_dense_jax(logits, labels, label_length, logit_length):
    import jax.numpy as jnp
    from jax import lax
    time, batch, classes = logits.shape
    length = labels.shape[1]
    num_states = 2 * (length + 1)
    x = logits.astype(jnp.float32)
    log_probs = x - _lse(x, 2, keepdims=True)
    valid = (labels >= 0) & (labels < classes)
    picked = jnp.take_along_axis(log_probs, jnp.broadcast_to(jnp.where(valid, labels, 0)[None], (time, batch, length)),
                                 axis=2)
    picked = jnp.where(valid[None], picked, 0.0)
    observed = jnp.concatenate([jnp.full((time, batch, 1), -jnp.inf), picked,
                                jnp.broadcast_to(log_probs[:, :, :1], (time, batch, length + 1))], axis=2)
    trans = _log_transitions(labels, length, num_states)
    initial = jnp.where(jnp.arange(num_states) == 0, 0.0, LOG_ZERO) * jnp.ones((batch, 1))
    ends = jnp.arange(length + 1)[None, :] == label_length[:, None]
    final = jnp.where(jnp.concatenate([ends, ends], axis=1), 0.0, LOG_ZERO).astype(jnp.float32)
    mask = jnp.arange(time)[:, None] < logit_length[None, :]

    def forward(state, obs):
        state = _lse(state[:, None, :] + trans, 2) + obs
        state = state - _lse(state, 1, keepdims=True)
        return state, state

    _, fwd = lax.scan(forward, initial.astype(jnp.float32), observed)

    def backward(carry, step):
        state, total = carry
        obs, keep = step
        state = _lse((state + obs)[:, :, None] + trans, 1)
        norm = _lse(state, 1, keepdims=True)
        total = total + norm[:, 0] * keep
        state = jnp.where(keep[:, None], state - norm, final)
        return (state, total), state

    (_, total), bwd = lax.scan(backward, (final, jnp.zeros(batch, jnp.float32)), (observed, mask), reverse=True)
    fwd_bwd = fwd + jnp.concatenate([bwd[1:], final[None]], axis=0)
    fwd_bwd = fwd_bwd - _lse(fwd_bwd, 2, keepdims=True)
    fwd_bwd = jnp.where(mask[:, :, None], fwd_bwd, -jnp.inf)
    label_states, blank_states = fwd_bwd[:, :, 1:length + 1], fwd_bwd[:, :, length + 1:]
    top = jnp.max(label_states, axis=2, keepdims=True)
    top = jnp.where(jnp.isfinite(top), top, 0.0)
    one_hot = (labels[:, :, None] == jnp.arange(1, classes)[None, None, :]).astype(jnp.float32)
    label_probs = jnp.einsum("tbk,bkc->tbc", jnp.exp(label_states - top), one_hot) * jnp.exp(top)
    posteriors = jnp.concatenate([jnp.exp(_lse(blank_states, 2, keepdims=True)), label_probs], axis=2)
    gradient = (jnp.exp(log_probs) - posteriors) * mask[:, :, None]
    loss = -(bwd[0][:, 0] + total)
    return loss.astype(logits.dtype), gradient.astype(logits.dtype)
