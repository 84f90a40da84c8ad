"""tf.image non-max suppression (NonMaxSuppressionV3/V5, CombinedNonMaxSuppression) against
TensorFlow 2.21's selections and scores (written in)."""
import numpy as np
import pytest

import eagerflow as tf

# two overlapping clusters, a far box, a flipped copy of box 0 (same box: IoU 1) and an empty box (IoU 0)
BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                  [0, 100, 1, 101], [1, 1, 0, 0], [0.5, 0.5, 0.5, 0.5]], np.float32)
SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.9, 0.8], np.float32)


@pytest.mark.parametrize("kwargs,want", [
    (dict(max_output_size=10), [3, 0, 7, 5]),
    (dict(max_output_size=10, iou_threshold=0.4), [3, 0, 7, 5]),
    (dict(max_output_size=3, score_threshold=0.55), [3, 0, 7]),
], ids=["default", "iou0.4", "score-threshold"])
def test_non_max_suppression_matches_tensorflow(kwargs, want):
    got = tf.image.non_max_suppression(BOXES, SCORES, **kwargs)
    assert got.dtype == tf.int32 and got.numpy().tolist() == want


def test_ties_go_to_the_lower_index_as_in_tensorflow():
    assert tf.image.non_max_suppression(BOXES, np.full(8, 0.5, np.float32), 10).numpy().tolist() == [0, 3, 5, 7]


@pytest.mark.parametrize("kwargs,want_idx,want_scores", [
    (dict(iou_threshold=1.0, soft_nms_sigma=0.5), [3, 0, 7, 1, 5, 4, 2, 6],
     [0.95, 0.9, 0.8, 0.38400354981422424, 0.3, 0.25600260496139526, 0.19697244465351105, 0.08679524809122086]),
    (dict(iou_threshold=0.5, score_threshold=0.1, soft_nms_sigma=0.3), [3, 0, 7, 5, 1, 4],
     [0.95, 0.9, 0.8, 0.3, 0.24576380848884583, 0.16384276747703552]),
    (dict(), [3, 0, 7, 5], [0.95, 0.9, 0.8, 0.3]),
], ids=["soft", "soft-thresholds", "hard"])
def test_with_scores_and_soft_nms_match_tensorflow(kwargs, want_idx, want_scores):
    idx, scores = tf.image.non_max_suppression_with_scores(BOXES, SCORES, 10, **kwargs)
    assert idx.numpy().tolist() == want_idx
    np.testing.assert_allclose(scores.numpy(), want_scores, rtol=2e-6)


CB = np.array([[[[0, 0, 1, 1]], [[0, 0.1, 1, 1.1]], [[0, 5, 1, 6]], [[0, 5.05, 1, 6.05]]]], np.float32)
CS = np.array([[[0.9, 0.1], [0.8, 0.7], [0.3, 0.95], [0.6, 0.6]]], np.float32)


def _combined(*args, **kwargs):
    return [x.numpy().tolist() for x in tf.image.combined_non_max_suppression(*args, **kwargs)]


def test_combined_matches_tensorflow():
    boxes, scores, classes, valid = _combined(CB, CS, 3, 5, iou_threshold=0.5, score_threshold=0.2)
    assert boxes == [[[0, 1, 1, 1], [0, 0, 1, 1], [0, np.float32(0.1), 1, 1], [0, 1, 1, 1], [0, 0, 0, 0]]]
    np.testing.assert_allclose(scores, [[0.95, 0.9, 0.7, 0.6, 0.0]], rtol=1e-7)
    assert classes == [[1, 0, 1, 0, 0]] and valid == [4]
    boxes, _, _, _ = _combined(CB, CS, 3, 5, iou_threshold=0.5, score_threshold=0.2, pad_per_class=True,
                               clip_boxes=False)
    np.testing.assert_allclose(boxes, [[[0, 5, 1, 6], [0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 5.05, 1, 6.05], [0] * 4]])


def test_combined_with_boxes_per_class_matches_tensorflow():
    cb2 = np.array([[[[0, 0, 1, 1], [2, 2, 3, 3]], [[-0.5, 0.1, 1.5, 1.1], [2, 2, 3, 3.1]]]], np.float32)
    boxes, scores, classes, valid = _combined(cb2, CS[:, :2], 2, 4)
    np.testing.assert_allclose(boxes, [[[0, 0, 1, 1], [0, 0.1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]]])
    np.testing.assert_allclose(scores, [[0.9, 0.8, 0.7, 0.0]])
    assert classes == [[0, 0, 1, 0]] and valid == [3]


def test_graph_op_types_and_shapes():
    cf = tf.function(lambda b, s: tf.image.non_max_suppression(b, s, 10)).get_concrete_function(
        tf.TensorSpec([None, 4]), tf.TensorSpec([None]))
    assert "NonMaxSuppressionV3" in {op.type for op in cf.graph.get_operations()}
    assert cf.outputs[0].shape.as_list() == [None] and cf.outputs[0].dtype == tf.int32
    assert cf(tf.constant(BOXES), tf.constant(SCORES)).numpy().tolist() == [3, 0, 7, 5]
    cf = tf.function(lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 10, soft_nms_sigma=0.5)) \
        .get_concrete_function(tf.TensorSpec([None, 4]), tf.TensorSpec([None]))
    assert "NonMaxSuppressionV5" in {op.type for op in cf.graph.get_operations()}
    cf = tf.function(lambda b, s: tf.image.combined_non_max_suppression(b, s, 3, 5)).get_concrete_function(
        tf.TensorSpec([1, 4, 1, 4]), tf.TensorSpec([1, 4, 2]))
    assert [o.shape.as_list() for o in cf.outputs] == [[1, 5, 4], [1, 5], [1, 5], [1]]


@pytest.mark.parametrize("call,words", [
    (lambda: tf.image.non_max_suppression(BOXES[:, :3], SCORES, 10),
     r"boxes must have 4 columns \(Dimension must be 4 but is 3\)"),
    (lambda: tf.image.non_max_suppression(BOXES, SCORES[:5], 10),
     r"scores has incompatible shape \(Dimensions must be equal, but are 8 and 5\)"),
    (lambda: tf.image.non_max_suppression(BOXES, SCORES, 10, iou_threshold=1.5), r"iou_threshold must be in \[0, 1\]"),
], ids=["columns", "scores", "iou"])
def test_bad_calls_as_tensorflow(call, words):
    with pytest.raises(tf.errors.InvalidArgumentError, match=words):
        call()


OVERLAPS = np.array([[1, .6, .2, 0], [.6, 1, .7, 0], [.2, .7, 1, 0], [0, 0, 0, 1]], np.float32)
OV_SCORES = np.array([.9, .8, .7, .6], np.float32)


@pytest.mark.parametrize("matrix,kwargs,want", [
    (OVERLAPS, dict(max_output_size=4, overlap_threshold=0.5), [0, 2, 3]),
    (OVERLAPS, dict(max_output_size=2, overlap_threshold=0.65), [0, 1]),
    (OVERLAPS, dict(max_output_size=4, overlap_threshold=0.5, score_threshold=0.65), [0, 2]),
    (OVERLAPS * 2, dict(max_output_size=4, overlap_threshold=1.5), [0, 1, 2, 3]),
], ids=["default", "size-2", "score-threshold", "threshold-above-1"])
def test_overlaps_match_tensorflow(matrix, kwargs, want):
    assert tf.image.non_max_suppression_overlaps(matrix, OV_SCORES, **kwargs).numpy().tolist() == want


def test_overlaps_graph_and_errors_as_tensorflow():
    cf = tf.function(lambda o, s: tf.image.non_max_suppression_overlaps(o, s, 4)).get_concrete_function(
        tf.TensorSpec([None, None]), tf.TensorSpec([None]))
    assert "NonMaxSuppressionWithOverlaps" in {op.type for op in cf.graph.get_operations()}
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"overlaps must be square\[4,3\]"):
        tf.image.non_max_suppression_overlaps(OVERLAPS[:, :3], OV_SCORES, 4)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"scores has incompatible shape \(Dimensions must be "
                                                             r"equal, but are 4 and 3\)"):
        tf.image.non_max_suppression_overlaps(OVERLAPS, OV_SCORES[:3], 4)


def _padded(*args, **kwargs):
    return [x.numpy().tolist() for x in tf.image.non_max_suppression_padded(*args, **kwargs)]


@pytest.mark.parametrize("args,kwargs,want", [
    ((BOXES, SCORES, 6), dict(pad_to_max_output_size=True), [[3, 0, 6, 7, 5, 0], 5]),  # the flipped box 6 stays
    ((BOXES, SCORES, 6), dict(), [[3, 0, 6, 7, 5], 5]),
    ((BOXES, SCORES, 10), dict(iou_threshold=0.3, score_threshold=0.55, pad_to_max_output_size=True),
     [[3, 0, 6, 7, 0, 0, 0, 0, 0, 0], 4]),
    ((BOXES, SCORES, 5), dict(pad_to_max_output_size=True, tile_size=3), [[3, 0, 6, 7, 5], 5]),
    ((BOXES[[6, 0, 1, 2, 3, 4, 5, 7]], SCORES, 8), dict(pad_to_max_output_size=True), [[3, 0, 6, 7, 1, 2, 4, 5], 8]),
    ((np.array([[-2, -2, -1, -1], [0, 0, 1, 1], [-3, -3, -2.5, -2.5]], np.float32), np.array([0.9, 0.8, 0.7], np.float32),
      3), dict(pad_to_max_output_size=True), [[1, 0, 0], 1]),  # boxes at negative coordinates never count
    ((np.stack([BOXES, BOXES[::-1]]).reshape(2, 1, 8, 4), np.stack([SCORES, SCORES]).reshape(2, 1, 8), 4),
     dict(pad_to_max_output_size=True, tile_size=4), [[[[3, 0, 6, 7]], [[3, 0, 6, 1]]], [[4], [4]]]),
], ids=["padded", "unpadded", "thresholds", "tiles-of-3", "first-box-flipped", "negative-boxes", "batched-tiles"])
def test_padded_matches_tensorflow(args, kwargs, want):
    assert _padded(*args, **kwargs) == want
    traced = tf.function(lambda b, s: tf.image.non_max_suppression_padded(b, s, *args[2:], **kwargs))
    assert [x.numpy().tolist() for x in traced(tf.constant(args[0]), tf.constant(args[1]))] == want


# Zero boxes: TensorFlow 2.21's answers with sorted_input=True, canonicalized_coordinates=True, the options under
# which its own code runs on zero boxes (with the defaults it reads the first box to order the corners and fails,
# InvalidArgumentError "slice index 0 of dimension 1 out of bounds"); with no box the options change nothing, so
# eagerflow gives these answers for every option, eagerly and in a function.
_NO_BOXES = [
    ((0, 4), dict(), [[], 0]),
    ((0, 4), dict(pad_to_max_output_size=True), [[0, 0, 0], 0]),
    ((2, 0, 4), dict(pad_to_max_output_size=True), [[[0, 0, 0], [0, 0, 0]], [0, 0]]),
    ((2, 1, 0, 4), dict(pad_to_max_output_size=True, score_threshold=0.3, tile_size=2),
     [[[[0, 0, 0]], [[0, 0, 0]]], [[0], [0]]]),
    ((0, 3, 4), dict(pad_to_max_output_size=True), [[], []]),  # no image (TensorFlow: shape [0, 3] and [0])
]


@pytest.mark.parametrize("options", [dict(), dict(sorted_input=True, canonicalized_coordinates=True)],
                         ids=["defaults", "sorted-canonical"])
@pytest.mark.parametrize("box_shape,kwargs,want", _NO_BOXES, ids=["one", "one-padded", "batch", "batch-2d", "no-image"])
def test_padded_on_zero_boxes_as_tensorflow(box_shape, kwargs, want, options):
    boxes, scores = np.zeros(box_shape, np.float32), np.zeros(box_shape[:-1], np.float32)
    kwargs = dict(kwargs, **options)
    size = 3
    assert _padded(boxes, scores, size, 0.5, **kwargs) == want
    for signature in (None, [tf.TensorSpec([None] * boxes.ndim), tf.TensorSpec([None] * scores.ndim)]):
        traced = tf.function(lambda b, s: tf.image.non_max_suppression_padded(b, s, size, 0.5, **kwargs),
                             input_signature=signature)
        got = traced(tf.constant(boxes), tf.constant(scores))
        assert [x.numpy().tolist() for x in got] == want
        assert got[0].dtype == got[1].dtype == tf.int32
        assert got[0].shape[-1:] == ((0,) if len(box_shape) == 2 and not kwargs.get("pad_to_max_output_size")
                                     else (size,))


def test_padded_batched_input_needs_padding_as_tensorflow():
    with pytest.raises(ValueError, match=r"'pad_to_max_output_size' \(value False\) must be True for batched input"):
        tf.image.non_max_suppression_padded(BOXES.reshape(1, 8, 4), SCORES.reshape(1, 8), 4)
