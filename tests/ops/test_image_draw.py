"""tf.image.draw_bounding_boxes (DrawBoundingBoxesV2) against TensorFlow 2.21's pixels (written in)."""
import numpy as np
import pytest

import eagerflow as tf

IMG = np.zeros((2, 6, 7, 3), np.float32) + 0.25
# image 0: an inner box, then the whole image; image 1: a box, then an inverted one (skipped)
BOXES = np.array([[[0.1, 0.2, 0.6, 0.8], [0.0, 0.0, 1.0, 1.0]], [[0.5, 0.5, 0.9, 0.7], [1.2, -0.1, 0.3, 0.4]]],
                 np.float32)
COLOURS = np.array([[1.0, 0.0, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0]], np.float32)

_Q = 0.25
TF_IMAGE0_RED = [[0, 0, 0, 0, 0, 0, 0], [0, 1, _Q, _Q, 1, _Q, 0], [0, 1, _Q, _Q, 1, _Q, 0], [0, 1, 1, 1, 1, _Q, 0],
                 [0, _Q, _Q, _Q, _Q, _Q, 0], [0, 0, 0, 0, 0, 0, 0]]
TF_IMAGE0_GREEN = [[0.5] * 7, [0.5, 0, _Q, _Q, 0, _Q, 0.5], [0.5, 0, _Q, _Q, 0, _Q, 0.5], [0.5, 0, 0, 0, 0, _Q, 0.5],
                   [0.5, _Q, _Q, _Q, _Q, _Q, 0.5], [0.5] * 7]
TF_IMAGE1_BLUE = [[_Q] * 7, [_Q] * 7, [_Q, _Q, _Q, 0, 0, _Q, _Q], [_Q, _Q, _Q, 0, 0, _Q, _Q], [_Q, _Q, _Q, 0, 0, _Q, _Q],
                  [_Q] * 7]


def test_outlines_match_tensorflow():
    got = tf.image.draw_bounding_boxes(IMG, BOXES, COLOURS)
    assert got.shape == (2, 6, 7, 3) and got.dtype == tf.float32
    assert got.numpy()[0, ..., 0].tolist() == TF_IMAGE0_RED
    assert got.numpy()[0, ..., 1].tolist() == TF_IMAGE0_GREEN
    assert got.numpy()[1, ..., 2].tolist() == TF_IMAGE1_BLUE
    grey = tf.image.draw_bounding_boxes(IMG[..., :1], BOXES, COLOURS)
    assert grey.numpy()[1, ..., 0].tolist() == [[1.0 if (2 <= r <= 4 and 3 <= c <= 4) else _Q for c in range(7)]
                                                for r in range(6)]


def test_default_and_three_column_colours_as_tensorflow():
    got = tf.image.draw_bounding_boxes(np.zeros((1, 5, 5, 4), np.float32), BOXES[:1], None)
    assert got.numpy()[0, 0].tolist() == [[0.0, 0.0, 1.0, 1.0]] * 5  # the table's second colour, blue, drawn last
    got = tf.image.draw_bounding_boxes(np.zeros((1, 4, 4, 3), np.float32), BOXES[:1],
                                       np.array([[0.3, 0.6, 0.9]], np.float32))
    np.testing.assert_array_equal(got.numpy()[0, 0], np.array([[0.3, 0.6, 0.9]] * 4, np.float32))


def test_graph_op_no_gradient_and_bad_depth():
    cf = tf.function(lambda i, b: tf.image.draw_bounding_boxes(i, b, COLOURS)).get_concrete_function(
        tf.TensorSpec([2, 6, 7, 3]), tf.TensorSpec([2, 2, 4]))
    assert "DrawBoundingBoxesV2" in {op.type for op in cf.graph.get_operations()}
    assert cf(tf.constant(IMG), tf.constant(BOXES)).numpy()[0, ..., 0].tolist() == TF_IMAGE0_RED
    x = tf.constant(IMG)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.draw_bounding_boxes(x, BOXES, COLOURS))
    with pytest.raises(LookupError, match="gradient registry has no entry for: DrawBoundingBoxesV2"):
        tape.gradient(y, x)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Channel depth should be either 1 \(GRY\), 3 \(RGB\)"):
        tf.image.draw_bounding_boxes(np.zeros((1, 4, 4, 2), np.float32), BOXES[:1], COLOURS)
