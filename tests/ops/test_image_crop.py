"""tf.image.crop_and_resize (CropAndResize and its two gradient ops) against TensorFlow 2.21's
numbers (written in below; the tests never import TensorFlow)."""
import numpy as np
import pytest

import eagerflow as tf


def _wave(shape, k=0.37, phase=0.0):
    n = int(np.prod(shape))
    return ((np.sin(np.arange(n) * k + phase) + 1) / 2).reshape(shape).astype(np.float32)


IMG = _wave((2, 5, 6, 2)) * 10
# an inner box, a single point, a box reaching outside the image, a flipped box
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.5, 0.5, 0.5, 0.5], [-0.2, 0.3, 1.3, 0.7], [0.9, 0.8, 0.1, 0.05]], np.float32)
INDICES = np.array([0, 1, 1, 0], np.int32)
WEIGHTS = _wave((4, 3, 4, 2), 0.7)

# TensorFlow 2.21: crops (channel 0, extrapolation_value=-1), and the gradients of sum(crops * WEIGHTS)
TF_BILINEAR_CH0 = [[[5.237569808959961, 7.41855001449585, 7.863480091094971, 6.334219932556152], [3.3314099311828613, 1.4198100566864014, 2.007189989089966, 4.6279802322387695], [8.645620346069336, 8.206890106201172, 5.645549774169922, 2.7148799896240234]], [[9.65414047241211, 9.65414047241211, 9.65414047241211, 9.65414047241211], [9.65414047241211, 9.65414047241211, 9.65414047241211, 9.65414047241211], [9.65414047241211, 9.65414047241211, 9.65414047241211, 9.65414047241211]], [[-1.0, -1.0, -1.0, -1.0], [6.789549827575684, 8.139169692993164, 8.704790115356445, 8.26449966430664], [-1.0, -1.0, -1.0, -1.0]], [[6.783629894256592, 7.9656901359558105, 6.842450141906738, 4.273640155792236], [1.6792000532150269, 0.26451000571250916, 2.5032100677490234, 6.70088005065918], [7.339200019836426, 7.91349983215332, 6.257349967956543, 3.6147000789642334]]]
TF_NEAREST_CH0 = [[[8.371439933776855, 9.979399681091309, 8.982830047607422, 2.3508200645446777], [4.0300798416137695, 0.9763500094413757, 0.027240000665187836, 5.068140029907227], [9.985119819641113, 8.94126033782959, 5.835869789123535, 0.16646000742912292]], [[9.756640434265137, 9.756640434265137, 9.756640434265137, 9.756640434265137], [9.756640434265137, 9.756640434265137, 9.756640434265137, 9.756640434265137], [9.756640434265137, 9.756640434265137, 9.756640434265137, 9.756640434265137]], [[-1.0, -1.0, -1.0, -1.0], [9.551639556884766, 9.551639556884766, 9.756640434265137, 7.473629951477051], [-1.0, -1.0, -1.0, -1.0]], [[9.777199745178223, 9.52301025390625, 6.9029998779296875, 0.5678899884223938], [1.6792000532150269, 0.027240000665187836, 0.9763500094413757, 7.591139793395996], [5.902979850769043, 8.982830047607422, 9.979399681091309, 5.0]]]
TF_BILINEAR_GRAD_IMAGE_CH0 = [[[0.2638300061225891, 0.6879400014877319, 0.8839100003242493, 0.6289299726486206, 0.16982999444007874, 0.019260000437498093], [0.1758899986743927, 0.49549999833106995, 0.7273600101470947, 0.5705400109291077, 0.2067199945449829, 0.044520001858472824], [0.1920199990272522, 0.6558099985122681, 1.2156599760055542, 1.2620799541473389, 0.6132100224494934, 0.1266999989748001], [0.010579999536275864, 0.13242000341415405, 0.5650699734687805, 0.8996400237083435, 0.7528600096702576, 0.26061999797821045], [0.015869999304413795, 0.18820999562740326, 0.4169299900531769, 0.5997899770736694, 0.4717400074005127, 0.06515999883413315]], [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.399509996175766, 3.6217501163482666, 3.0042800903320312, 0.09001000225543976, 0.0], [0.0, 0.09988000243902206, 0.20446999371051788, 0.05009999871253967, 0.02250000089406967, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]
TF_BILINEAR_GRAD_BOXES = [[-116.5154037475586, -9.200799942016602, 30.517099380493164, -16.434099197387695], [0.0, -7.458700180053711, 0.0, -20.47410011291504], [-40.201900482177734, 21.629100799560547, -40.201900482177734, -5.993599891662598], [56.257198333740234, 1.118299961090088, -75.11229705810547, 7.169000148773193]]
TF_NEAREST_GRAD_IMAGE_CH0 = [[[0.5862900018692017, 0.5, 1.9927200078964233, 1.251170039176941, 0.028449999168515205, 0.06420999765396118], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.25602999329566956, 0.1843699961900711, 1.71711003780365, 1.803380012512207, 0.23921999335289001, 0.31676000356674194], [0.0, 0.010409999638795853, 0.5168099999427795, 0.9952999949455261, 0.0, 0.6515600085258484], [0.035270001739263535, 0.0, 0.6028000116348267, 0.9996700286865234, 0.5670599937438965, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.6179699897766113, 5.649499893188477, 0.22503000497817993, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]
TF_NEAREST_GRAD_BOXES = [[-116.5154037475586, -9.200799942016602, 30.517099380493164, -16.434099197387695], [0.0, -7.458700180053711, 0.0, -20.47410011291504], [-40.201900482177734, 21.629100799560547, -40.201900482177734, -5.993599891662598], [56.257198333740234, 1.118299961090088, -75.11229705810547, 7.169000148773193]]
TF_ONE_BY_ONE = [[[[1.3987699747085571, 1.8775700330734253]]]]


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_crops_match_tensorflow(method):
    want = {"bilinear": TF_BILINEAR_CH0, "nearest": TF_NEAREST_CH0}[method]
    got = tf.image.crop_and_resize(IMG, BOXES, INDICES, [3, 4], method=method, extrapolation_value=-1.0)
    assert got.shape == (4, 3, 4, 2) and got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy()[..., 0], want, atol=1e-5)
    np.testing.assert_allclose(tf.image.crop_and_resize(IMG, BOXES[:1], INDICES[:1], [1, 1]).numpy(), TF_ONE_BY_ONE,
                               atol=1e-5)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_gradients_match_tensorflow(method):
    image, boxes = tf.constant(IMG), tf.constant(BOXES)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([image, boxes])
        y = tf.reduce_sum(tf.image.crop_and_resize(image, boxes, INDICES, [3, 4], method=method) * WEIGHTS)
    grad_image, grad_boxes = tape.gradient(y, [image, boxes])
    want_image = {"bilinear": TF_BILINEAR_GRAD_IMAGE_CH0, "nearest": TF_NEAREST_GRAD_IMAGE_CH0}[method]
    want_boxes = {"bilinear": TF_BILINEAR_GRAD_BOXES, "nearest": TF_NEAREST_GRAD_BOXES}[method]
    np.testing.assert_allclose(grad_image.numpy()[..., 0], want_image, atol=1e-5)
    np.testing.assert_allclose(grad_boxes.numpy(), want_boxes, rtol=1e-5, atol=1e-3)


def test_image_gradient_is_the_finite_difference():
    """The crop is linear in the image: a large step gives the exact slope (in float32 rounding)."""
    image = tf.constant(IMG)
    with tf.GradientTape() as tape:
        tape.watch(image)
        y = tf.reduce_sum(tf.image.crop_and_resize(image, BOXES, INDICES, [3, 4]) * WEIGHTS)
    grad = tape.gradient(y, image).numpy()
    for idx in [(0, 1, 2, 0), (1, 2, 3, 1), (0, 4, 5, 1)]:
        bump = np.zeros_like(IMG)
        bump[idx] = 1.0
        up = float(tf.reduce_sum(tf.image.crop_and_resize(IMG + bump, BOXES, INDICES, [3, 4]) * WEIGHTS))
        down = float(tf.reduce_sum(tf.image.crop_and_resize(IMG - bump, BOXES, INDICES, [3, 4]) * WEIGHTS))
        assert grad[idx] == pytest.approx((up - down) / 2, abs=1e-4)


def test_gradient_ops_have_no_gradient_as_in_tensorflow():
    image, boxes = tf.constant(IMG), tf.constant(BOXES)
    with tf.GradientTape() as outer:
        outer.watch(image)
        with tf.GradientTape() as inner:
            inner.watch(boxes)
            y = tf.reduce_sum(tf.image.crop_and_resize(image, boxes, INDICES, [3, 4]) * WEIGHTS)
        z = tf.reduce_sum(inner.gradient(y, boxes))
    with pytest.raises(LookupError, match="gradient registry has no entry for: CropAndResizeGradBoxes"):
        outer.gradient(z, image)


def test_dtypes_and_graph():
    assert tf.image.crop_and_resize(IMG.astype(np.int32), BOXES, INDICES, [2, 2]).dtype == tf.float32
    assert tf.image.crop_and_resize(IMG.astype(np.float64), BOXES, INDICES, [2, 2]).dtype == tf.float32
    fn = tf.function(lambda i, b: tf.image.crop_and_resize(i, b, INDICES, [3, 4]))
    cf = fn.get_concrete_function(tf.TensorSpec([2, None, None, 2]), tf.TensorSpec([4, 4]))
    assert "CropAndResize" in {op.type for op in cf.graph.get_operations()}
    assert cf.outputs[0].shape.as_list() == [4, 3, 4, 2]


@pytest.mark.parametrize("change,error,words", [
    (dict(box_indices=np.array([0, 2, 1, 0], np.int32)), tf.errors.OutOfRangeError,
     r"box_index has values outside \[0, batch_size\)"),
    (dict(crop_size=[0, 2]), tf.errors.InvalidArgumentError, "crop dimensions must be positive"),
    (dict(boxes=BOXES[:, :3]), tf.errors.InvalidArgumentError, "boxes must have 4 columns"),
    (dict(box_indices=INDICES[:3]), tf.errors.InvalidArgumentError, "box_index has incompatible shape"),
    (dict(method="bicubic"), tf.errors.InvalidArgumentError,
     "Value for attr 'method' of \"bicubic\" is not in the list of allowed values: \"bilinear\", \"nearest\""),
], ids=["index", "crop_size", "columns", "indices_shape", "method"])
def test_bad_calls_as_tensorflow(change, error, words):
    kwargs = dict(image=IMG, boxes=BOXES, box_indices=INDICES, crop_size=[3, 4])
    kwargs.update(change)
    with pytest.raises(error, match=words):
        tf.image.crop_and_resize(**kwargs)
