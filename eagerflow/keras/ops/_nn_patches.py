"""keras.ops.nn's torch-style im2col pair (unfold, fold) on channels-first images, and greedy CTC decoding;
all tensor ops over static sizes, so they trace and differentiate."""
from __future__ import annotations

from ._common import result_type, tensor, tf


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C * kh * kw, L): every sliding block flattened channel-major (c, i, j), the blocks
    in row-major order."""
    t = tf()
    x = tensor(x)
    if x.shape.rank != 4:
        raise ValueError(f"Input must be a 4D tensor. Received: input.shape={tuple(x.shape.as_list())}")
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    x = t.pad(x, [[0, 0], [0, 0], [ph, ph], [pw, pw]])
    n, c, h, w = [t.shape(x)[0]] + x.shape.as_list()[1:]
    out_h, out_w = (h - (kh - 1) * dh - 1) // sh + 1, (w - (kw - 1) * dw - 1) // sw + 1
    pieces = [t.strided_slice(x, [0, 0, i * dh, j * dw], [n, c, i * dh + (out_h - 1) * sh + 1,
                                                          j * dw + (out_w - 1) * sw + 1], [1, 1, sh, sw])
              for i in range(kh) for j in range(kw)]
    blocks = t.stack(pieces, axis=2)  # (N, C, kh * kw, out_h, out_w)
    return t.reshape(blocks, [-1, c * kh * kw, out_h * out_w])


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The adjoint of unfold: (N, C * kh * kw, L) blocks summed back into (N, C, oH, oW)."""
    t = tf()
    x = tensor(x)
    if x.shape.rank != 3:
        raise ValueError(f"Input must be a 3D tensor. Received: input.shape={tuple(x.shape.as_list())}")
    (oh, ow), (kh, kw) = _pair(output_size), _pair(kernel_size)
    (dh, dw), (ph, pw), (sh, sw) = _pair(dilation), _pair(padding), _pair(stride)
    h, w = oh + 2 * ph, ow + 2 * pw
    out_h, out_w = (h - (kh - 1) * dh - 1) // sh + 1, (w - (kw - 1) * dw - 1) // sw + 1
    c = x.shape[1] // (kh * kw)
    blocks = t.reshape(x, [-1, c, kh * kw, out_h, out_w])
    total = None
    for k in range(kh * kw):
        i, j = divmod(k, kw)
        piece = blocks[:, :, k]  # (N, C, out_h, out_w), spread out to stride steps
        piece = t.pad(piece[:, :, :, None, :, None], [[0, 0], [0, 0], [0, 0], [0, sh - 1], [0, 0], [0, sw - 1]])
        piece = t.reshape(piece, [-1, c, out_h * sh, out_w * sw])[:, :, :(out_h - 1) * sh + 1, :(out_w - 1) * sw + 1]
        top, left = i * dh, j * dw
        placed = t.pad(piece, [[0, 0], [0, 0], [top, h - top - (out_h - 1) * sh - 1],
                               [left, w - left - (out_w - 1) * sw - 1]])
        total = placed if total is None else total + placed
    return total[:, :, ph:ph + oh, pw:pw + ow]


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1, merge_repeated=True,
               mask_index=0):
    """Greedy CTC decoding as TensorFlow's CTCGreedyDecoder: per step the best class; a step emits it unless it
    is the blank (mask_index) or, with merge_repeated, repeats the previous step's class. Returns (decoded
    (1, batch, steps) int32 padded with -1, scores (batch, 1) = -sum of the best logits)."""
    t = tf()
    if strategy == "beam_search":
        raise NotImplementedError("keras.ops.ctc_decode(strategy='beam_search') is not supported yet.")
    if strategy != "greedy":
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and 'beam_search'.")
    inputs = tensor(inputs)
    dtype = result_type(inputs, t.constant(0.0))
    inputs = t.cast(inputs, dtype)
    steps, classes = inputs.shape[1], inputs.shape[2]
    blank = mask_index % classes
    lengths = t.cast(sequence_lengths, "int32")
    best = t.cast(t.argmax(inputs, axis=-1), "int32")  # (B, T)
    valid = t.range(steps)[None, :] < lengths[:, None]
    previous = t.concat([t.fill([t.shape(best)[0], 1], -1), best[:, :-1]], axis=1)
    keep = t.logical_and(valid, t.not_equal(best, blank))
    if merge_repeated:
        keep = t.logical_and(keep, t.not_equal(best, previous))
    position = t.math.cumsum(t.cast(keep, "int32"), axis=1) - 1
    slot = t.logical_and(keep[:, :, None], t.equal(position[:, :, None], t.range(steps)[None, None, :]))
    decoded = t.reduce_sum(t.cast(slot, "int32") * (best[:, :, None] + 1), axis=1) - 1  # (B, T), -1 where empty
    best_logits = t.reduce_max(inputs, axis=-1)
    scores = -t.reduce_sum(t.where(valid, best_logits, t.zeros_like(best_logits)), axis=1, keepdims=True)
    return t.expand_dims(decoded, 0), scores
