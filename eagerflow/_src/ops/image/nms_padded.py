"""`tf.image.non_max_suppression_padded`: TensorFlow's tiled NMS (its non_max_suppression_padded_v2).

TensorFlow builds this one from ordinary ops inside a function (no kernel of its own), and its
answers differ from NonMaxSuppressionV3's, so we run the same algorithm as one NumPy kernel,
NonMaxSuppressionPaddedV2 (named after TensorFlow's function): scores at or below score_threshold
zero their box; corners are swapped for every box when the first box's are reversed; boxes are
sorted by score (ties: lower index first) and padded with empty boxes to whole tiles. Tile by tile,
a box is dropped by any kept box of an earlier tile with IoU >= iou_threshold, then within the tile
suppression is iterated to a fixed point. A box counts as kept only when one of its coordinates is
positive (so a box wholly at negative coordinates is never returned, as in TensorFlow). IoU is
intersection / (union + 1e-8), in float32.

Zero boxes give no valid box: indices all zero (padded to max_output_size when asked) and counts of 0,
TensorFlow 2.21's answer with sorted_input and canonicalized_coordinates set. With its defaults TensorFlow's own
code reads the first box to order the corners and fails on zero boxes (InvalidArgumentError, "slice index 0 of
dimension 1 out of bounds"); eagerflow gives the same zero answer for every option, as the saved graph
(formats/graph_export/nms_padded_graph.py) does when TensorFlow runs it.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value

_F = np.float32


def _overlap(a, b):
    """[batch, len(a), len(b)] IoU without reordering corners, TensorFlow's _bbox_overlap."""
    ay1, ax1, ay2, ax2 = (a[..., i:i + 1] for i in range(4))
    by1, bx1, by2, bx2 = (np.swapaxes(b[..., i:i + 1], 1, 2) for i in range(4))
    inter = np.maximum(np.minimum(ax2, bx2) - np.maximum(ax1, bx1), _F(0)) * \
        np.maximum(np.minimum(ay2, by2) - np.maximum(ay1, by1), _F(0))
    area_a = (ay2 - ay1) * (ax2 - ax1)
    area_b = (by2 - by1) * (bx2 - bx1)
    return (inter / (area_a + area_b - inter + _F(1e-8))).astype(_F)


def _suppress_within(tile, threshold):
    """The tile's boxes, those suppressed by a kept box earlier in the tile set to zero."""
    t = tile.shape[1]
    iou = _overlap(tile, tile)
    later = np.arange(t)[None, :] > np.arange(t)[:, None]
    iou = iou * (later[None] & (iou >= threshold)).astype(_F)
    total = iou.sum(axis=(1, 2))
    while True:
        active = (iou.max(axis=1) < threshold).astype(_F)[:, :, None]
        iou = ((active * iou).max(axis=1) < threshold).astype(_F)[:, :, None] * iou
        new_total = iou.sum(axis=(1, 2))
        done = not np.any(total - new_total > threshold)
        total = new_total
        if done:
            break
    suppressed = iou.sum(axis=1) > 0
    return tile * (_F(1) - suppressed.astype(_F))[:, :, None]


def _padded_kernel(boxes, scores, max_output_size, iou_threshold, score_threshold, tile_size=512,
                   sorted_input=False, canonicalized_coordinates=False):
    boxes, scores = np.asarray(boxes, _F), np.asarray(scores, _F)
    n, size, thr = boxes.shape[-2], int(max_output_size), _F(iou_threshold)
    batch = int(np.prod(boxes.shape[:-2], dtype=np.int64))  # not reshape(-1, ...): n may be 0
    boxes, scores = boxes.reshape(batch, n, 4).copy(), scores.reshape(batch, n).copy()
    if float(score_threshold) != float("-inf"):
        keep = (scores > _F(score_threshold)).astype(_F)
        scores *= keep
        boxes *= keep[:, :, None]
    if not canonicalized_coordinates and n and batch:
        if not boxes[0, 0, 0] <= boxes[0, 0, 2]:
            boxes = boxes[:, :, [2, 1, 0, 3]]
        if not boxes[0, 0, 1] <= boxes[0, 0, 3]:
            boxes = boxes[:, :, [0, 3, 2, 1]]
    if sorted_input:
        order = np.zeros((batch, n), np.int64)
    else:
        order = np.argsort(-scores, axis=1, kind="stable")
        boxes = np.take_along_axis(boxes, order[:, :, None], axis=1)
    total = int(np.ceil(max(n, size) / tile_size)) * tile_size
    boxes = np.concatenate([boxes, np.zeros((batch, total - n, 4), _F)], axis=1)
    found = np.zeros(batch, np.int64)
    tile = 0
    while found.min(initial=size) < size and tile < total // tile_size:
        current = boxes[:, tile * tile_size:(tile + 1) * tile_size]
        for earlier in range(tile):
            iou = _overlap(boxes[:, earlier * tile_size:(earlier + 1) * tile_size], current)
            current = current * np.all(iou < thr, axis=1).astype(_F)[:, :, None]
        current = _suppress_within(current, thr)
        boxes[:, tile * tile_size:(tile + 1) * tile_size] = current
        found += np.any(current > 0, axis=2).sum(axis=1)
        tile += 1
    valid = np.minimum(found, size).astype(np.int32)
    kept = np.any(boxes > 0, axis=2)
    positions = np.zeros((batch, size), np.int64)
    for b in range(batch):
        picked = np.flatnonzero(kept[b])[:size]
        positions[b, :len(picked)] = picked
        positions[b, len(picked):] = total
    positions = np.minimum(positions, n - 1) if n else positions * 0
    idx = np.take_along_axis(order, positions, axis=1) if (not sorted_input and n) else positions
    idx = np.where(np.arange(size)[None, :] < valid[:, None], idx, 0).astype(np.int32)
    return idx, valid


def _padded_infer(inputs, attrs):
    boxes = inputs[0].shape
    size = static_value(inputs[2])
    batch = None
    if boxes.rank is not None and all(d is not None for d in boxes.as_list()[:-2]):
        batch = int(np.prod(boxes.as_list()[:-2], dtype=np.int64))
    n = None if size is None else int(size)
    return [Spec(TensorShape([batch, n]), _dt.int32), Spec(TensorShape([batch]), _dt.int32)]


NonMaxSuppressionPaddedV2 = defop(
    "NonMaxSuppressionPaddedV2",
    inputs=("boxes", "scores", "max_output_size", "iou_threshold", "score_threshold"),
    kernel=_padded_kernel, infer=_padded_infer, grad=NO_GRADIENT, multi_output=True,
    doc="TensorFlow's tiled NMS over a batch: [batch, max_output_size] indices and valid counts.")


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """`tf.image.non_max_suppression_padded`: (indices, number valid)."""
    from ..array import basic as A
    boxes = boxes if isinstance(boxes, Tensor) else as_tensor(np.asarray(boxes, np.float32))
    scores = scores if isinstance(scores, Tensor) else as_tensor(np.asarray(scores, np.float32))
    rank = boxes.shape.rank
    if not pad_to_max_output_size and rank is not None and rank > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for batched input")
    size = int(max_output_size)
    idx, valid = bind(NonMaxSuppressionPaddedV2, (boxes, scores, as_tensor(np.int32(size)),
                                                  as_tensor(np.float32(iou_threshold)),
                                                  as_tensor(np.float32(score_threshold))),
                      {"tile_size": int(tile_size), "sorted_input": bool(sorted_input),
                       "canonicalized_coordinates": bool(canonicalized_coordinates)})
    batch_dims = A.shape(boxes)[:-2]
    valid = A.reshape(valid, batch_dims)
    if not pad_to_max_output_size:
        return idx[0, :valid], valid
    from ..array.joining import concat
    return A.reshape(idx, concat([batch_dims, as_tensor(np.array([size], np.int32))], axis=0)), valid
