"""Differential rows (generated code == eager == reference interpreter) for the tf.image colour
ops (ops/image/hsv.py, ops/image/color_spaces.py), beside test_differential.py; rows of ops with a
JAX lowering also run under jit (test_xla_differential.py)."""
import numpy as np

import eagerflow as tf

_RNG = np.random.default_rng(5)
RGB = _RNG.uniform(0, 1, (2, 3, 4, 3)).astype(np.float32)
RGB[0, 0, 0] = [0.5, 0.5, 0.5]  # grey: hue 0
RGB[0, 0, 1] = [0.2, 0.9, 0.9]  # a tie for the largest channel
HSV = np.stack([_RNG.uniform(-0.2, 1.2, (3, 4)), _RNG.uniform(0, 1, (3, 4)), _RNG.uniform(0, 1, (3, 4))],
               axis=-1).astype(np.float32)


IMG = _RNG.uniform(0, 1, (2, 12, 12, 2)).astype(np.float32)
IMG2 = np.clip(IMG * 0.8 + _RNG.uniform(0, 0.2, IMG.shape), 0, 1).astype(np.float32)


BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.5, 0.5, 0.5, 0.5], [-0.2, 0.3, 1.3, 0.7], [0.9, 0.8, 0.1, 0.05]],
                 np.float32)
INDICES = np.array([0, 1, 1, 0], np.int32)


NMS_BOXES = np.concatenate([_RNG.uniform(0, 0.6, (6, 2)), _RNG.uniform(0.4, 1, (6, 2))], axis=1).astype(np.float32)
NMS_SCORES = _RNG.uniform(0, 1, 6).astype(np.float32)


def _crop(method):
    def crop(image, boxes):
        return tf.image.crop_and_resize(image, boxes, INDICES, [3, 4], method=method, extrapolation_value=-0.5)
    return crop


def _crop_grads(method):
    def grads(image, boxes):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([image, boxes])
            y = tf.reduce_sum(_crop(method)(image, boxes) * np.arange(1, 3, dtype=np.float32))
        return tape.gradient(y, [image, boxes])
    return grads


def _grad_of(fn):
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
            y = tf.reduce_sum(y * tf.cast(tf.range(tf.size(y)) % 5, y.dtype)[:1])
        return tape.gradient(y, x)
    return grad


def _hsv_grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.rgb_to_hsv(x) * np.array([1.0, 2.0, 3.0], np.float32))
    return tape.gradient(y, x)


def rows(Row):
    I = tf.image
    return [
        Row("RGBToHSV", I.rgb_to_hsv, (RGB,)),
        Row("RGBToHSV", I.rgb_to_hsv, (RGB.astype(np.float64),), dims="dynamic", label="f64-dynamic"),
        Row("RGBToHSV", _hsv_grad, (RGB,), label="grad"),
        Row("HSVToRGB", I.hsv_to_rgb, (HSV,)),
        Row("HSVToRGB", I.hsv_to_rgb, (HSV,), dims="unknown", label="unknown"),
        Row("AdjustHue", lambda x: I.adjust_hue(x, 0.3), (RGB,)),
        Row("AdjustHue", lambda x: I.adjust_hue(x, -0.8), (RGB,), dims="dynamic", label="negative-dynamic"),
        Row("AdjustSaturation", lambda x: I.adjust_saturation(x, 1.6), (RGB,)),
        Row("AdjustSaturation", lambda x: I.adjust_saturation(x, 0.4), (RGB,), dims="dynamic", label="dynamic"),
        Row("MatMul", lambda x: I.yuv_to_rgb(I.rgb_to_yuv(x)), (RGB,), label="yuv"),
        Row("MatMul", lambda x: I.yiq_to_rgb(I.rgb_to_yiq(x)), (RGB,), label="yiq"),
        Row("RGBToHSV", I.rgb_to_hsv, (np.zeros((2, 4), np.float32),), raises=tf.errors.FailedPreconditionError,
            dims="dynamic", label="four-channels"),
        Row("CropAndResize", _crop("bilinear"), (IMG, BOXES)),
        Row("CropAndResize", _crop("nearest"), (IMG, BOXES), dims="dynamic", label="nearest-dynamic"),
        Row("CropAndResizeGradImage", _crop_grads("bilinear"), (IMG, BOXES)),
        Row("CropAndResizeGradImage", _crop_grads("nearest"), (IMG, BOXES), dims="dynamic", label="nearest-dynamic"),
        Row("CropAndResizeGradBoxes", _crop_grads("bilinear"), (IMG, BOXES)),
        Row("CropAndResize", _crop("bilinear"), (IMG, BOXES * 0 + 0.5), label="one-point"),
        Row("CropAndResize", lambda i, b: tf.image.crop_and_resize(i, b, INDICES + 2, [3, 4]), (IMG, BOXES),
            raises=tf.errors.OutOfRangeError, label="bad-index"),
        Row("ExtractImagePatches", lambda x: tf.image.extract_patches(x, [1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 2, 1],
                                                                      "SAME"), (IMG,)),
        Row("ExtractImagePatches", lambda x: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 1, 1],
                                                                      "VALID"), (IMG,), dims="dynamic", label="dynamic"),
        Row("UnsortedSegmentSum", _grad_of(lambda x: tf.image.extract_patches(x, [1, 3, 2, 1], [1, 2, 3, 1],
                                                                               [1, 1, 2, 1], "SAME")), (IMG,),
            label="extract_patches-grad"),
        Row("DrawBoundingBoxesV2", lambda i: tf.image.draw_bounding_boxes(i, BOXES.reshape(2, 2, 4), None),
            (RGB,)),
        Row("DrawBoundingBoxesV2", lambda i, b: tf.image.draw_bounding_boxes(i, b, np.eye(3, 4, dtype=np.float32)),
            (RGB, BOXES.reshape(2, 2, 4)), dims="dynamic", label="colours-dynamic"),
        Row("NonMaxSuppressionV3", lambda b, s: tf.image.non_max_suppression(b, s, 5, 0.3), (NMS_BOXES, NMS_SCORES)),
        Row("NonMaxSuppressionV3", lambda b, s: tf.image.non_max_suppression(b, s, 4, 0.5, 0.2),
            (NMS_BOXES, NMS_SCORES), dims="dynamic", label="threshold-dynamic"),
        Row("NonMaxSuppressionV5", lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 6, 0.6, 0.05, 0.4),
            (NMS_BOXES, NMS_SCORES), label="soft"),
        Row("CombinedNonMaxSuppression", lambda b, s: tf.image.combined_non_max_suppression(b, s, 3, 5, 0.4, 0.1),
            (NMS_BOXES.reshape(2, 3, 1, 4), NMS_SCORES.reshape(2, 3, 1) * np.array([1.0, 0.5], np.float32))),
        Row("NonMaxSuppressionWithOverlaps", lambda o, s: tf.image.non_max_suppression_overlaps(o, s, 4, 0.3, 0.1),
            (np.abs(NMS_BOXES @ NMS_BOXES.T) / 2, NMS_SCORES), dims="dynamic"),
        Row("NonMaxSuppressionPaddedV2", lambda b, s: tf.image.non_max_suppression_padded(
            b, s, 5, 0.4, 0.1, pad_to_max_output_size=True, tile_size=4), (NMS_BOXES, NMS_SCORES)),
        Row("NonMaxSuppressionPaddedV2", lambda b, s: tf.image.non_max_suppression_padded(b, s, 4, 0.5),
            (NMS_BOXES, NMS_SCORES), dims="dynamic", label="unpadded-dynamic"),
        Row("CombinedNonMaxSuppression", lambda b, s: tf.image.combined_non_max_suppression(
            b, s, 2, 7, 0.3, 0.05, pad_per_class=True, clip_boxes=False),
            (np.stack([NMS_BOXES, NMS_BOXES[::-1] * 1.5], axis=1).reshape(2, 3, 2, 4),
             NMS_SCORES.reshape(2, 3, 1) * np.array([1.0, 0.7], np.float32)), label="per-class-boxes"),
        Row("CombinedNonMaxSuppression", lambda b, s: tf.image.combined_non_max_suppression(b, s, 3, 5, 0.5, 0.2),
            (np.array([[[[0, 0, 1, 1]], [[0, 0.1, 1, 1.1]], [[0, 5, 1, 6]], [[0, 5.05, 1, 6.05]]]], np.float32),
             np.array([[[0.9, 0.1], [0.8, 0.7], [0.3, 0.95], [0.6, 0.6]]], np.float32)), label="clipped"),
        Row("NonMaxSuppressionV3", lambda b, s: tf.image.non_max_suppression(b, s, 5, 1.5), (NMS_BOXES, NMS_SCORES),
            raises=tf.errors.InvalidArgumentError, label="bad-iou"),
        # the stateless random adjustments: the same draw eagerly, in generated code and in the interpreter
        Row("ReverseV2", lambda x: I.stateless_random_flip_left_right(x, (7, 11)), (RGB,), label="stateless-flip"),
        Row("ReverseV2", lambda x: I.stateless_random_flip_up_down(x[0], (1, 2)), (RGB,), dims="dynamic",
            label="stateless-flip-one-image"),
        Row("AdjustHue", lambda x: I.stateless_random_hue(x, 0.4, (3, 4)), (RGB,), label="stateless-hue"),
        Row("AdjustSaturation", lambda x: I.stateless_random_saturation(x, 0.2, 1.8, (3, 4)), (RGB,),
            label="stateless-saturation"),
        Row("Slice", lambda x: I.stateless_random_crop(x, [1, 2, 2, 3], (5, 6)), (RGB,), dims="dynamic",
            label="stateless-crop"),
        # the composites of tf.image built on depthwise convolution and pooling
        Row("DepthwiseConv2dNative", I.sobel_edges, (IMG,), label="sobel"),
        Row("MirrorPad", I.sobel_edges, (IMG,), dims="dynamic", label="sobel-dynamic"),
        Row("DepthwiseConv2dNative", lambda x, y: I.ssim(x, y, 1.0, filter_size=5), (IMG, IMG2), label="ssim"),
        Row("AvgPool", lambda x, y: I.ssim_multiscale(x, y, 1.0, filter_size=3, power_factors=(0.5, 0.5)),
            (IMG, IMG2), dims="dynamic", label="ssim_multiscale-dynamic"),
        Row("AdjustHue", lambda x: I.adjust_hue(x, 0.1), (np.zeros((2, 4), np.float32),),
            raises=tf.errors.InvalidArgumentError, dims="unknown", label="rank-2"),
    ]
