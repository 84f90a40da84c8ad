"""Non-max suppression: NonMaxSuppressionV3 (`tf.image.non_max_suppression`), NonMaxSuppressionV5
(`non_max_suppression_with_scores`, soft-NMS), NonMaxSuppressionWithOverlaps and CombinedNonMaxSuppression
(`combined_non_max_suppression`).

TensorFlow's greedy rule, step by step: candidates scoring above score_threshold wait in a queue
ordered by score (ties: lower index first). The best is compared with the boxes already selected
(newest first); each comparison multiplies its score by exp(-0.5 IoU^2 / sigma) for soft-NMS, or
drops it when IoU > iou_threshold for hard NMS. A candidate whose score did not change is selected;
one that was only softened and still beats the threshold goes back into the queue. IoU uses each
box's corners in either order, and is 0 when either box has no area. All arithmetic is float32.
NonMaxSuppressionWithOverlaps runs the same rule over a given overlap matrix.
The other ops' outputs have data-dependent sizes, so they have no JAX lowering (jit refuses them);
CombinedNonMaxSuppression's are static, and it has one (TensorFlow's XLA compiles it too).
"""
from __future__ import annotations

import heapq

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value

_F = np.float32


def _iou_matrix(boxes):
    """[n, n] IoU in float32, TensorFlow's formula (corners canonicalised, 0 for an empty box)."""
    b = np.asarray(boxes, _F)
    y1, y2 = np.minimum(b[:, 0], b[:, 2]), np.maximum(b[:, 0], b[:, 2])
    x1, x2 = np.minimum(b[:, 1], b[:, 3]), np.maximum(b[:, 1], b[:, 3])
    area = (y2 - y1) * (x2 - x1)
    ih = np.maximum(np.minimum(y2[:, None], y2[None, :]) - np.maximum(y1[:, None], y1[None, :]), _F(0))
    iw = np.maximum(np.minimum(x2[:, None], x2[None, :]) - np.maximum(x1[:, None], x1[None, :]), _F(0))
    inter = ih * iw
    with np.errstate(all="ignore"):
        iou = inter / (area[:, None] + area[None, :] - inter)
    empty = (area[:, None] <= 0) | (area[None, :] <= 0)
    return np.where(empty, _F(0), iou).astype(_F)


def _greedy(iou, scores, max_output, iou_threshold, score_threshold, sigma=0.0):
    """(selected indices, their final scores): TensorFlow's greedy (soft-)NMS."""
    scores = np.asarray(scores, _F)
    thr, s_thr = _F(iou_threshold), _F(score_threshold)
    scale = _F(-0.5) / _F(sigma) if sigma > 0 else _F(0)
    soft = sigma > 0
    queue = [(-scores[i], i, 0) for i in range(len(scores)) if scores[i] > s_thr]
    heapq.heapify(queue)  # (-score, index): best score first, then the lower index
    selected, kept = [], []
    while len(selected) < max_output and queue:
        neg, index, begin = heapq.heappop(queue)
        score = original = _F(-neg)
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            sim = iou[index, selected[j]]
            weight = _F(np.exp(scale * sim * sim))
            score = _F(score * (weight if (soft or sim <= thr) else _F(0)))
            if not soft and sim > thr:
                hard = True
                break
            if score <= s_thr:
                break
        if hard:
            continue
        if score == original:
            selected.append(index)
            kept.append(score)
        elif score > s_thr:
            heapq.heappush(queue, (-score, index, len(selected)))
    return np.array(selected, np.int32), np.array(kept, _F)


def _check(boxes, scores, max_output, iou_threshold):
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise InvalidArgumentError(None, None, f"boxes must have 4 columns (Dimension must be 4 but is "
                                               f"{boxes.shape[-1] if boxes.ndim else 0})")
    if scores.ndim != 1 or scores.shape[0] != boxes.shape[0]:
        raise InvalidArgumentError(None, None, f"scores has incompatible shape (Dimensions must be equal, but are "
                                               f"{boxes.shape[0]} and {scores.shape[0] if scores.ndim else 0})")
    if not 0 <= float(iou_threshold) <= 1:
        raise InvalidArgumentError(None, None, "iou_threshold must be in [0, 1]")
    if int(max_output) < 0:
        raise InvalidArgumentError(None, None, "max_output_size must be non-negative")


def _v3_kernel(boxes, scores, max_output_size, iou_threshold, score_threshold):
    boxes, scores = np.asarray(boxes), np.asarray(scores)
    _check(boxes, scores, max_output_size, iou_threshold)
    return _greedy(_iou_matrix(boxes), scores, int(max_output_size), iou_threshold, score_threshold)[0]


def _v5_kernel(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma,
               pad_to_max_output_size=False):
    boxes, scores = np.asarray(boxes), np.asarray(scores)
    _check(boxes, scores, max_output_size, iou_threshold)
    if float(soft_nms_sigma) < 0:
        raise InvalidArgumentError(None, None, "soft_nms_sigma must be non-negative")
    size = int(max_output_size)
    idx, kept = _greedy(_iou_matrix(boxes), scores, size, iou_threshold, score_threshold, float(soft_nms_sigma))
    valid = np.int32(len(idx))
    if pad_to_max_output_size:
        idx = np.concatenate([idx, np.zeros(size - len(idx), np.int32)])
        kept = np.concatenate([kept, np.zeros(size - len(kept), _F)])
    return idx, kept.astype(scores.dtype), valid


def _dynamic_length(inputs, attrs):
    return [Spec(TensorShape([None]), _dt.int32)]


def _v5_infer(inputs, attrs):
    n = None
    if attrs.get("pad_to_max_output_size"):
        size = static_value(inputs[2])
        n = None if size is None else int(size)
    return [Spec(TensorShape([n]), _dt.int32), Spec(TensorShape([n]), inputs[1].dtype), Spec(TensorShape([]), _dt.int32)]


NonMaxSuppressionV3 = defop(
    "NonMaxSuppressionV3", inputs=("boxes", "scores", "max_output_size", "iou_threshold", "score_threshold"),
    kernel=_v3_kernel, infer=_dynamic_length, grad=NO_GRADIENT, doc="Indices of the boxes greedy NMS keeps.")
NonMaxSuppressionV5 = defop(
    "NonMaxSuppressionV5",
    inputs=("boxes", "scores", "max_output_size", "iou_threshold", "score_threshold", "soft_nms_sigma"),
    kernel=_v5_kernel, infer=_v5_infer, grad=NO_GRADIENT, multi_output=True,
    doc="Greedy (soft-)NMS: kept indices, their (softened) scores and how many are valid.")


def _f32(x):
    return x if isinstance(x, Tensor) else as_tensor(np.asarray(x, np.float32))


def _i32(x):
    return x if isinstance(x, Tensor) else as_tensor(np.int32(x))


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """`tf.image.non_max_suppression`: int32 indices of the kept boxes, best score first."""
    return bind(NonMaxSuppressionV3, (_f32(boxes), _f32(scores), _i32(max_output_size), _f32(iou_threshold),
                                      _f32(score_threshold)))


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """`tf.image.non_max_suppression_with_scores`: (indices, scores), soft-NMS when soft_nms_sigma > 0."""
    idx, kept, _ = bind(NonMaxSuppressionV5, (_f32(boxes), _f32(scores), _i32(max_output_size), _f32(iou_threshold),
                                              _f32(score_threshold), _f32(soft_nms_sigma)),
                        {"pad_to_max_output_size": False})
    return idx, kept


# --- CombinedNonMaxSuppression ---

def _combined_kernel(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold,
                     pad_per_class=False, clip_boxes=True):
    boxes, scores = np.asarray(boxes, _F), np.asarray(scores, _F)
    if boxes.ndim != 4 or boxes.shape[3] != 4:
        raise InvalidArgumentError(None, None, "boxes must be 4-D [batch_size, num_boxes, q, 4]")
    batch, n, q, _ = boxes.shape
    if scores.ndim != 3 or scores.shape[:2] != (batch, n):
        raise InvalidArgumentError(None, None, "scores must be 3-D [batch_size, num_boxes, num_classes] "
                                               "matching boxes")
    classes = scores.shape[2]
    if q not in (1, classes):
        raise InvalidArgumentError(None, None, "third dimension of boxes must be either 1 or num classes")
    if not 0 <= float(iou_threshold) <= 1:
        raise InvalidArgumentError(None, None, "iou_threshold must be in [0, 1]")
    per_class, total = int(max_output_size_per_class), int(max_total_size)
    if per_class <= 0 or total <= 0:
        raise InvalidArgumentError(None, None, "max_size_per_class and max_total_size must be positive")
    size = min(total, per_class * classes) if pad_per_class else total
    out_boxes = np.zeros((batch, size, 4), _F)
    out_scores = np.zeros((batch, size), _F)
    out_classes = np.zeros((batch, size), _F)
    valid = np.zeros((batch,), np.int32)
    for b in range(batch):
        found = []  # (score, class, box index)
        for c in range(classes):
            class_boxes = boxes[b, :, 0 if q == 1 else c]
            idx, kept = _greedy(_iou_matrix(class_boxes), scores[b, :, c], per_class, iou_threshold, score_threshold)
            found.extend((kept[k], c, int(i)) for k, i in enumerate(idx))
        found.sort(key=lambda t: -t[0])  # stable: equal scores keep class order
        found = found[:size]
        valid[b] = len(found)
        for k, (score, c, i) in enumerate(found):
            box = boxes[b, i, 0 if q == 1 else c]
            out_boxes[b, k] = np.clip(box, 0, 1) if clip_boxes else box
            out_scores[b, k] = score
            out_classes[b, k] = c
    return out_boxes, out_scores, out_classes, valid


def _combined_infer(inputs, attrs):
    boxes = inputs[0].shape
    batch = boxes[0] if boxes.rank is not None else None
    total = static_value(inputs[3])
    per_class = static_value(inputs[2])
    classes = inputs[1].shape[2] if inputs[1].shape.rank == 3 else None
    size = None if total is None else int(total)
    if attrs.get("pad_per_class") and size is not None:
        size = None if per_class is None or classes is None else min(size, int(per_class) * classes)
    return [Spec(TensorShape([batch, size, 4]), _dt.float32), Spec(TensorShape([batch, size]), _dt.float32),
            Spec(TensorShape([batch, size]), _dt.float32), Spec(TensorShape([batch]), _dt.int32)]


CombinedNonMaxSuppression = defop(
    "CombinedNonMaxSuppression",
    inputs=("boxes", "scores", "max_output_size_per_class", "max_total_size", "iou_threshold", "score_threshold"),
    kernel=_combined_kernel, infer=_combined_infer, grad=NO_GRADIENT, multi_output=True,
    doc="Per-class greedy NMS over a batch, merged by score: boxes, scores, classes, valid counts.")


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True, name=None):
    """`tf.image.combined_non_max_suppression`: (nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections)."""
    return tuple(bind(CombinedNonMaxSuppression,
                      (_f32(boxes), _f32(scores), _i32(max_output_size_per_class), _i32(max_total_size),
                       _f32(iou_threshold), _f32(score_threshold)),
                      {"pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)}))


# --- NonMaxSuppressionWithOverlaps: the same greedy rule over a given overlap matrix ---

def _overlaps_kernel(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    overlaps, scores = np.asarray(overlaps, _F), np.asarray(scores, _F)
    if overlaps.ndim != 2 or overlaps.shape[0] != overlaps.shape[1]:
        raise InvalidArgumentError(None, None, f"overlaps must be square[{','.join(map(str, overlaps.shape))}]")
    if scores.ndim != 1 or scores.shape[0] != overlaps.shape[0]:
        raise InvalidArgumentError(None, None, f"scores has incompatible shape (Dimensions must be equal, but are "
                                               f"{overlaps.shape[0]} and {scores.shape[0] if scores.ndim else 0})")
    if int(max_output_size) < 0:
        raise InvalidArgumentError(None, None, "max_output_size must be non-negative")
    return _greedy(overlaps, scores, int(max_output_size), overlap_threshold, score_threshold)[0]


NonMaxSuppressionWithOverlaps = defop(
    "NonMaxSuppressionWithOverlaps",
    inputs=("overlaps", "scores", "max_output_size", "overlap_threshold", "score_threshold"),
    kernel=_overlaps_kernel, infer=_dynamic_length, grad=NO_GRADIENT,
    doc="Greedy NMS over a precomputed [n, n] overlap matrix (no IoU, no threshold range check).")


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """`tf.image.non_max_suppression_overlaps`: int32 indices kept, best score first."""
    return bind(NonMaxSuppressionWithOverlaps, (_f32(overlaps), _f32(scores), _i32(max_output_size),
                                                _f32(overlap_threshold), _f32(score_threshold)))


# --- JAX lowering of CombinedNonMaxSuppression (TensorFlow's XLA compiles it: its outputs have
# static shapes). Hard greedy NMS per (image, class) as a loop over the score-sorted candidates,
# then one stable sort of every kept (score, class, box) by score, as the kernel does. ---

def _jax_iou(boxes):
    from ..lazy_jax import jnp
    y1, y2 = jnp.minimum(boxes[:, 0], boxes[:, 2]), jnp.maximum(boxes[:, 0], boxes[:, 2])
    x1, x2 = jnp.minimum(boxes[:, 1], boxes[:, 3]), jnp.maximum(boxes[:, 1], boxes[:, 3])
    area = (y2 - y1) * (x2 - x1)
    ih = jnp.maximum(jnp.minimum(y2[:, None], y2[None, :]) - jnp.maximum(y1[:, None], y1[None, :]), 0)
    iw = jnp.maximum(jnp.minimum(x2[:, None], x2[None, :]) - jnp.maximum(x1[:, None], x1[None, :]), 0)
    inter = ih * iw
    union = area[:, None] + area[None, :] - inter
    empty = (area[:, None] <= 0) | (area[None, :] <= 0)
    return jnp.where(empty, 0, inter / jnp.where(empty, 1, union)).astype(_F)


def _jax_keep(boxes, scores, per_class, iou_threshold, score_threshold):
    """(sorted order, keep mask in that order) of hard greedy NMS for one class of one image."""
    import jax
    from ..lazy_jax import jnp
    order = jnp.argsort(-scores, stable=True)
    iou = _jax_iou(boxes)[order][:, order]
    s = scores[order]

    def step(i, state):
        keep, count = state
        clash = jnp.any(keep & (iou[i] > iou_threshold))
        take = (s[i] > score_threshold) & (count < per_class) & ~clash
        return keep.at[i].set(take), count + take.astype(np.int32)

    keep, _ = jax.lax.fori_loop(0, s.shape[0], step, (jnp.zeros(s.shape, bool), np.int32(0)))
    return order, keep


def _jax_combined(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold,
                  pad_per_class=False, clip_boxes=True):
    from ..lazy_jax import jnp
    batch, n, q, _ = boxes.shape
    classes = scores.shape[2]
    per_class, total = int(max_output_size_per_class), int(max_total_size)
    size = min(total, per_class * classes) if pad_per_class else total
    outs = ([], [], [], [])
    for b in range(batch):
        cand_scores, cand_boxes, cand_classes, kept = [], [], [], []
        for c in range(classes):
            class_boxes = boxes[b, :, 0 if q == 1 else c].astype(_F)
            order, keep = _jax_keep(class_boxes, scores[b, :, c].astype(_F), per_class, iou_threshold, score_threshold)
            cand_scores.append(jnp.where(keep, scores[b, order, c], -np.inf))
            cand_boxes.append(class_boxes[order])
            cand_classes.append(jnp.full((n,), c, _F))
            kept.append(keep)
        all_scores = jnp.concatenate(cand_scores)
        pick = jnp.argsort(-all_scores, stable=True)
        pick = jnp.concatenate([pick, jnp.zeros((max(size - pick.shape[0], 0),), pick.dtype)])[:size]
        valid = jnp.minimum(jnp.sum(jnp.concatenate(kept)), size).astype(np.int32)
        live = jnp.arange(size) < valid
        chosen = jnp.concatenate(cand_boxes)[pick]
        chosen = jnp.clip(chosen, 0, 1) if clip_boxes else chosen
        outs[0].append(jnp.where(live[:, None], chosen, 0).astype(_F))
        outs[1].append(jnp.where(live, all_scores[pick], 0).astype(_F))
        outs[2].append(jnp.where(live, jnp.concatenate(cand_classes)[pick], 0).astype(_F))
        outs[3].append(valid)
    return tuple(jnp.stack(o) for o in outs)


CombinedNonMaxSuppression.jax = _jax_combined
