"""tf.image colour spaces and hue/saturation adjustments against TensorFlow 2.21's numbers
(written in: the tests never import TensorFlow)."""
import numpy as np
import pytest

import eagerflow as tf

# grey, pure red, a cyan tie (g == b), then three random pixels
X = np.array([[[0.5, 0.5, 0.5], [1.0, 0.0, 0.0], [0.2, 0.9, 0.9]],
              [[0.9350724, 0.81585354, 0.0027385], [0.8574043, 0.03358557, 0.72965544],
               [0.17565562, 0.8631789, 0.5414612]]], np.float32)
U8 = np.array([[[127, 127, 127], [255, 0, 0], [51, 229, 229]],
               [[238, 208, 0], [218, 8, 186], [44, 220, 138]]], np.uint8)

TF_HSV = [[[0.0, 0.0, 0.5], [0.0, 1.0, 1.0], [0.5, 0.7777778, 0.9]],
          [[0.14535476, 0.9970714, 0.9350724], [0.8591782, 0.9608288, 0.8574043],
           [0.42201048, 0.7965015, 0.8631789]]]
TF_HSV_BACK = [[[0.5, 0.5, 0.5], [1.0, 0.0, 0.0], [0.19999999, 0.9, 0.9]],
               [[0.9350724, 0.8158536, 0.00273847], [0.8574043, 0.03358557, 0.72965527],
                [0.1756556, 0.8631789, 0.54146135]]]
TF_YUV = [[[5.0e-01, 0.0, 7.45058060e-09], [2.98999995e-01, -1.47141188e-01, 6.14975393e-01],
           [6.90699995e-01, 1.02998845e-01, -4.30482745e-01]],
          [[7.58804917e-01, -3.72068614e-01, 1.54636547e-01], [3.59259337e-01, 1.82276011e-01, 4.37014073e-01],
           [6.20933652e-01, -3.91092561e-02, -3.90634835e-01]]]
TF_YUV_TO_RGB = [[[1.0699415, 0.0123679, 1.5160309], [1.0, 1.0, 1.0], [1.2258947, -0.6777377, 2.0288556]],
                 [[0.938194, 0.61151206, 2.5929372], [1.6891261, 0.4204961, 0.92565227],
                  [0.79285806, -0.4793755, 1.9296886]]]
TF_YIQ = [[[5.0e-01, 0.0, -1.8328428e-05], [2.9899999e-01, 5.9590060e-01, 2.1150000e-01],
           [6.9069999e-01, -4.1713038e-01, -1.4808296e-01]],
          [[7.5880492e-01, 3.3233216e-01, -2.2785611e-01], [3.5925934e-01, 2.6723626e-01, 3.9085305e-01],
           [6.2093365e-01, -3.0631351e-01, -2.4556120e-01]]]
TF_YIQ_TO_RGB = [[[1.2884055, 0.04039147, 0.79874516], [1.0, 1.0, 1.0], [1.6191299, -0.6272953, 0.7377413]],
                 [[1.7167174, 0.71137744, 0.03680152], [1.3424999, 0.37603247, 2.0637348],
                  [1.3369954, -0.40957612, 0.14311555]]]
TF_SAT_1_7 = [[[0.5, 0.5, 0.5], [1.0, 0.0, 0.0], [0.0, 0.9, 0.9]],
              [[0.9350724, 0.8155034, 0.0], [0.8574043, 0.0, 0.7244472], [0.0, 0.8631789, 0.45926556]]]
TF_SAT_0_3 = [[[0.5, 0.5, 0.5], [1.0, 0.7, 0.7], [0.68999994, 0.9, 0.9]],
              [[0.9350724, 0.8993068, 0.6553722], [0.8574043, 0.61025864, 0.8190796],
               [0.6569219, 0.8631789, 0.7666637]]]
TF_HUE_0_3 = [[[0.5, 0.5, 0.5], [0.19999981, 1.0, 0.0], [0.7600001, 0.2, 0.9]],
              [[0.0027385, 0.9350724, 0.62938684], [0.8574043, 0.82038975, 0.03358557],
               [0.4039568, 0.17565562, 0.8631789]]]
TF_HUE_M0_45 = [[[0.5, 0.5, 0.5], [0.0, 0.6999998, 1.0], [0.9, 0.41000015, 0.2]],
                [[0.16321991, 0.0027385, 0.9350724], [0.03358557, 0.8574043, 0.4084804],
                 [0.8631789, 0.17565562, 0.2911161]]]
TF_HUE_U8 = [[[127, 127, 127], [204, 255, 0], [86, 51, 229]], [[0, 238, 17], [218, 82, 8], [44, 90, 220]]]
TF_SAT_U8 = [[[127, 127, 127], [255, 0, 0], [0, 229, 229]], [[238, 208, 0], [218, 0, 185], [0, 220, 117]]]
# d sum(rgb_to_hsv(X) * arange(18)) / dX: TensorFlow's piecewise gradient, ties included
TF_HSV_GRAD = [[[4.0, 0.0, -2.0], [5.0, 0.5, -0.5], [-7.777778, 8.299824, 1.4285715]],
               [[9.628181, 1.6088655, -10.900086], [16.64517, -14.785578, -2.4277184],
                [-20.237667, 18.837368, 3.6362405]]]
TF_YUV_GRAD = [[[1.0828096, -1.3187994, 0.23598984], [3.3833122, -1.9693022, 1.5859902],
                [5.683815, -2.619805, 2.9359903]],
               [[7.984318, -3.2703078, 4.2859907], [10.28482, -3.920811, 5.635991],
                [12.585321, -4.5713134, 6.9859915]]]


def _close(got, want, rtol=1e-6, atol=1e-7):
    got = got.numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, np.array(want, np.float32), rtol=rtol, atol=atol)


@pytest.mark.parametrize("fn,want", [
    (tf.image.rgb_to_hsv, TF_HSV),
    (lambda x: tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)), TF_HSV_BACK),
    (lambda x: tf.image.adjust_saturation(x, 1.7), TF_SAT_1_7),
    (lambda x: tf.image.adjust_saturation(x, 0.3), TF_SAT_0_3),
    (lambda x: tf.image.adjust_hue(x, 0.3), TF_HUE_0_3),
    (lambda x: tf.image.adjust_hue(x, -0.45), TF_HUE_M0_45),
], ids=["rgb_to_hsv", "hsv_round_trip", "saturation_1.7", "saturation_0.3", "hue_0.3", "hue_-0.45"])
def test_hsv_family_matches_tensorflow(fn, want):
    _close(fn(X), want)
    _close(tf.function(fn)(tf.constant(X)), want)


@pytest.mark.parametrize("fn,want", [
    (tf.image.rgb_to_yuv, TF_YUV), (tf.image.yuv_to_rgb, TF_YUV_TO_RGB),
    (tf.image.rgb_to_yiq, TF_YIQ), (tf.image.yiq_to_rgb, TF_YIQ_TO_RGB),
], ids=["rgb_to_yuv", "yuv_to_rgb", "rgb_to_yiq", "yiq_to_rgb"])
def test_linear_colour_spaces_match_tensorflow(fn, want):
    _close(fn(X), want, rtol=1e-5, atol=1e-6)
    graph = tf.function(fn).get_concrete_function(tf.TensorSpec([2, None, 3], tf.float32)).graph
    assert "MatMul" in {op.type for op in graph.get_operations()}
    assert fn(X.astype(np.float64)).dtype == tf.float64


def test_hsv_to_rgb_outside_the_unit_hue_as_tensorflow():
    hsv = np.array([[[-0.3, 0.5, 0.8], [1.7, 0.2, 0.4], [0.99, 1.0, 1.0]]], np.float32)
    _close(tf.image.hsv_to_rgb(hsv), [[[0.8, 0.4, 0.4], [0.4, 0.32000002, 0.32000002], [1.0, 0.0, 0.05999994]]])


def test_integer_images_adjust_in_float_and_convert_back():
    for fn, want in ((lambda x: tf.image.adjust_hue(x, 0.2), TF_HUE_U8),
                     (lambda x: tf.image.adjust_saturation(x, 2.0), TF_SAT_U8)):
        got = fn(U8)
        assert got.dtype == tf.uint8
        assert got.numpy().tolist() == want


def test_float64_keeps_its_dtype():
    x64 = X.astype(np.float64)
    for fn in (tf.image.rgb_to_hsv, tf.image.hsv_to_rgb, lambda x: tf.image.adjust_hue(x, 0.1),
               lambda x: tf.image.adjust_saturation(x, 0.1)):
        assert fn(x64).dtype == tf.float64
    np.testing.assert_allclose(tf.image.rgb_to_hsv(x64).numpy(), np.array(TF_HSV), rtol=1e-6, atol=1e-7)


def test_gradients_as_tensorflow():
    x = tf.constant(X)
    weights = np.arange(18, dtype=np.float32).reshape(2, 3, 3)
    for fn, want in ((tf.image.rgb_to_hsv, TF_HSV_GRAD), (tf.image.rgb_to_yuv, TF_YUV_GRAD)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(fn(x) * weights)
        _close(tape.gradient(y, x), want, rtol=1e-5, atol=1e-6)
    with tf.GradientTape() as tape:  # TensorFlow marks HSVToRGB not differentiable: a None gradient
        tape.watch(x)
        y = tf.reduce_sum(tf.image.hsv_to_rgb(x))
    assert tape.gradient(y, x) is None
    for fn, op in ((lambda t: tf.image.adjust_saturation(t, 0.5), "AdjustSaturation"),
                   (lambda t: tf.image.adjust_hue(t, 0.1), "AdjustHue")):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(fn(x))
        with pytest.raises(LookupError, match=f"gradient registry has no entry for: {op}"):
            tape.gradient(y, x)


def test_graph_op_types_and_shapes():
    def f(x):
        return (tf.image.rgb_to_hsv(x), tf.image.hsv_to_rgb(x), tf.image.adjust_hue(x, 0.1),
                tf.image.adjust_saturation(x, 0.5))
    cf = tf.function(f).get_concrete_function(tf.TensorSpec([2, None, 3], tf.float32))
    types = {op.type for op in cf.graph.get_operations()}
    assert {"RGBToHSV", "HSVToRGB", "AdjustHue", "AdjustSaturation"} <= types
    assert all(o.shape.as_list() == [2, None, 3] for o in cf.outputs)


def test_bad_input_errors_as_tensorflow():
    four = np.zeros((2, 4), np.float32)
    for fn in (tf.image.rgb_to_hsv, tf.image.hsv_to_rgb):
        with pytest.raises(tf.errors.FailedPreconditionError, match="input must have 3 channels but input only "
                                                                    "has 4 channels"):
            fn(four)
    for fn in (lambda t: tf.image.adjust_hue(t, 0.1), lambda t: tf.image.adjust_saturation(t, 0.1)):
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"input must be at least 3-D, got shape\[2,4\]"):
            fn(four)
    with pytest.raises(ValueError, match=r"delta must be in the interval \[-1, 1\]"):
        tf.image.adjust_hue(X, 1.5)
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.image.rgb_to_yuv(np.zeros((2, 3), np.int32))


def test_kernels_check_shapes_the_graph_did_not_know():
    """With unknown shapes at trace time, the kernels refuse the bad call as eager mode does."""
    four = tf.constant(np.zeros((2, 4), np.float32))
    hsv = tf.function(tf.image.rgb_to_hsv).get_concrete_function(tf.TensorSpec([None, None], tf.float32))
    with pytest.raises(tf.errors.FailedPreconditionError, match="input must have 3 channels"):
        hsv(four)
    hue = tf.function(lambda t: tf.image.adjust_hue(t, 0.1)).get_concrete_function(tf.TensorSpec(None, tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input must be at least 3-D, got shape\[2,4\]"):
        hue(four)
