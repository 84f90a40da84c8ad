"""tf.image.non_max_suppression_padded (eagerflow's one NonMaxSuppressionPaddedV2 op) as a graph of ordinary
ops, as TensorFlow's own non_max_suppression_padded_v2 is: the same tiled algorithm as the kernel
(ops/image/nms_padded.py explains it), vectorised over the batch, with its three loops (over tiles, over a
tile's earlier tiles, and the suppression within a tile until it settles) as tf.while_loop. Traced once
per export (traced_call_export.py); float32 like the kernel, so a saved function gives its answers."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...control_flow.while_loop import while_loop
from ...ops.array.basic import cast, expand_dims, reshape, shape, transpose, where, zeros
from ...ops.array.joining import concat
from ...ops.array.ordering import top_k
from ...ops.array.padding import slice as _slice
from ...ops.array.sequences import range as _range
from ...ops.array.slicing import gather
from ...ops.math.arithmetic import maximum, minimum
from ...ops.math.comparison import greater, greater_equal, less, less_equal, logical_and, logical_not, \
    logical_or, not_equal
from ...ops.math.reduce import reduce_all, reduce_any, reduce_max, reduce_min, reduce_sum

F32, I32 = _dt.float32, _dt.int32


def _overlap(a, b):
    """[batch, len(a), len(b)] IoU without reordering corners (the kernel's _overlap)."""
    ay1, ax1, ay2, ax2 = (a[:, :, i:i + 1] for i in range(4))
    by1, bx1, by2, bx2 = (transpose(b[:, :, i:i + 1], [0, 2, 1]) for i in range(4))
    zero = np.float32(0)
    inter = maximum(minimum(ax2, bx2) - maximum(ax1, bx1), zero) * maximum(minimum(ay2, by2) - maximum(ay1, by1), zero)
    area_a, area_b = (ay2 - ay1) * (ax2 - ax1), (by2 - by1) * (bx2 - bx1)
    return inter / (area_a + area_b - inter + np.float32(1e-8))


def _suppress_within(tile, threshold, tile_size):
    """The tile's boxes with those a kept box earlier in the tile suppresses set to zero."""
    iou = _overlap(tile, tile)
    positions = _range(tile_size)
    later = greater(expand_dims(positions, 0), expand_dims(positions, 1))
    iou = iou * cast(logical_and(expand_dims(later, 0), greater_equal(iou, threshold)), F32)

    def settle(iou, total, _):
        active = expand_dims(cast(less(reduce_max(iou, axis=1), threshold), F32), 2)
        iou = expand_dims(cast(less(reduce_max(active * iou, axis=1), threshold), F32), 2) * iou
        following = reduce_sum(iou, axis=[1, 2])
        return iou, following, reduce_any(greater(total - following, threshold))

    iou, _, _ = while_loop(lambda iou, total, going: going, settle, (iou, reduce_sum(iou, axis=[1, 2]), True))
    suppressed = greater(reduce_sum(iou, axis=1), np.float32(0))
    return tile * expand_dims(np.float32(1) - cast(suppressed, F32), 2)


def _tile(boxes, index, tile_size):
    return _slice(boxes, concat([[0], reshape(index * tile_size, [1]), [0]], 0), [-1, tile_size, -1])


def nms_padded(boxes, scores, max_output_size, iou_threshold, score_threshold, tile_size=512, sorted_input=False,
               canonicalized_coordinates=False):
    """(indices [batch, max_output_size] int32, valid [batch] int32), boxes flattened to [batch, n, 4]."""
    n = shape(boxes)[-2]
    boxes, scores = reshape(boxes, concat([[-1], reshape(n, [1]), [4]], 0)), reshape(scores, concat([[-1], [n]], 0))
    batch, size = shape(boxes)[0], cast(max_output_size, I32)
    keep = logical_or(logical_not(not_equal(score_threshold, np.float32(-np.inf))), greater(scores, score_threshold))
    scores, boxes = scores * cast(keep, F32), boxes * expand_dims(cast(keep, F32), 2)
    if not canonicalized_coordinates:  # the first box's corners decide for every box (0 when there is none)
        first = concat([reshape(boxes, [-1, 4]), zeros([1, 4], F32)], 0)[0]
        boxes = where(less_equal(first[0], first[2]), boxes, gather(boxes, [2, 1, 0, 3], axis=2))
        first = concat([reshape(boxes, [-1, 4]), zeros([1, 4], F32)], 0)[0]
        boxes = where(less_equal(first[1], first[3]), boxes, gather(boxes, [0, 3, 2, 1], axis=2))
    if not sorted_input:
        order = top_k(scores, k=n)[1]  # by score, ties lower index first
        boxes = gather(boxes, order, batch_dims=1)
    tiles = (maximum(n, size) + tile_size - 1) // tile_size
    total = tiles * tile_size
    boxes = concat([boxes, zeros(concat([[batch], reshape(total - n, [1]), [4]], 0), F32)], 1)

    def next_tile(index, boxes, found):
        current = _tile(boxes, index, tile_size)

        def against_earlier(earlier, current):
            iou = _overlap(_tile(boxes, earlier, tile_size), current)
            return earlier + 1, current * expand_dims(cast(reduce_all(less(iou, iou_threshold), axis=1), F32), 2)

        _, current = while_loop(lambda earlier, _: less(earlier, index), against_earlier, (0, current))
        current = _suppress_within(current, iou_threshold, tile_size)
        start = index * tile_size
        boxes = concat([boxes[:, :start], current, boxes[:, start + tile_size:]], 1)
        found = found + reduce_sum(cast(reduce_any(greater(current, np.float32(0)), axis=2), I32), axis=1)
        return index + 1, boxes, found

    def more(index, boxes, found):
        return logical_and(less(reduce_min(concat([found, reshape(size, [1])], 0)), size), less(index, tiles))

    _, boxes, found = while_loop(more, next_tile, (0, boxes, zeros(reshape(batch, [1]), I32)))
    valid = minimum(found, size)
    kept = cast(reduce_any(greater(boxes, np.float32(0)), axis=2), I32)  # [batch, total]
    rank = top_k(kept * (total - _range(total)), k=size)[0]  # earlier kept positions first, then zeros
    positions = maximum(minimum(total - rank, n - 1), 0)
    index = positions if sorted_input else gather(concat([order, zeros(concat([[batch], [1]], 0), I32)], 1),
                                                  positions, batch_dims=1)
    in_range = less(expand_dims(_range(size), 0), expand_dims(valid, 1))
    return where(in_range, index, zeros(shape(index), I32)), valid
