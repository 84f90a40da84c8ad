"""tf.nn.conv3d and tf.nn.max_pool3d against TensorFlow 2.21's recorded answers (values, gradients,
refusals), a direct NumPy convolution, and the adjoint identity of MaxPool3D's gradient ops."""
import numpy as np
import pytest

import eagerflow as tf

RNG = np.random.default_rng(0)
X = RNG.normal(size=(2, 5, 4, 6, 3)).astype(np.float32)
F = RNG.normal(size=(2, 3, 2, 3, 4)).astype(np.float32)

# TensorFlow 2.21: conv3d(X, F, **kw), and the gradients of sum(y * cos(y)): sums of squares
RECORDED = {
    'valid': {
        'y_sum': 36.17047119140625,
        'y_shape': [2, 4, 2, 5, 4],
        'y0': [4.706594467163086, -1.1762962341308594, -1.6856836080551147, 4.128656387329102, -1.9054352045059204],
        'gx_sum': 119728.8125,
        'gf_sum': 167707.1875,
    },
    'same_s2': {
        'y_sum': -106.46353912353516,
        'y_shape': [2, 3, 4, 3, 4],
        'y0': [-6.916604995727539, -4.386901378631592, -0.19622215628623962, 2.7695119380950928, -2.9369006156921387],
        'gx_sum': 76397.6171875,
        'gf_sum': 83231.078125,
    },
    'dil': {
        'y_sum': 108.7626953125,
        'y_shape': [2, 3, 2, 4, 4],
        'y0': [-1.9723892211914062, -5.833148956298828, -6.017020225524902, 5.95633602142334, 2.975604295730591],
        'gx_sum': 89351.3515625,
        'gf_sum': 80203.1875,
    },
}
ARGS = {"valid": dict(strides=[1, 1, 1, 1, 1], padding="VALID"),
        "same_s2": dict(strides=[1, 2, 1, 2, 1], padding="SAME"),
        "dil": dict(strides=[1, 1, 1, 1, 1], padding="VALID", dilations=[1, 2, 1, 2, 1])}


@pytest.mark.parametrize("mode", ["eager", "traced"])
@pytest.mark.parametrize("case", sorted(ARGS))
def test_conv3d_and_its_gradients_as_tensorflow(case, mode):
    def run():
        x, f = tf.constant(X), tf.constant(F)
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = tf.nn.conv3d(x, f, **ARGS[case])
            loss = tf.reduce_sum(y * tf.cos(y))
        gx, gf = tape.gradient(loss, [x, f])
        return y, tf.reduce_sum(gx * gx), tf.reduce_sum(gf * gf)

    y, gx, gf = run() if mode == "eager" else tf.function(run)()
    want = RECORDED[case]
    assert y.shape.as_list() == want["y_shape"]
    np.testing.assert_allclose(y.numpy().ravel()[:5], want["y0"], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(float(tf.reduce_sum(y)), want["y_sum"], rtol=1e-4)
    np.testing.assert_allclose([float(gx), float(gf)], [want["gx_sum"], want["gf_sum"]], rtol=1e-4)


def test_conv3d_matches_a_direct_sum_over_the_window():
    y = tf.nn.conv3d(X, F, [1, 1, 1, 1, 1], "VALID").numpy()
    kd, kh, kw = F.shape[:3]
    want = np.zeros(y.shape, np.float64)
    for d in range(y.shape[1]):
        for h in range(y.shape[2]):
            for w in range(y.shape[3]):
                patch = X[:, d:d + kd, h:h + kh, w:w + kw, :].astype(np.float64)
                want[:, d, h, w, :] = np.tensordot(patch, F, axes=([1, 2, 3, 4], [0, 1, 2, 3]))
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)


def test_max_pool3d_gives_every_tied_maximum_the_whole_gradient():
    plane = np.array([[1, 3, 3], [2, 0, 3], [1, 1, 0]], np.float32).reshape(1, 1, 3, 3, 1)
    x = tf.constant(plane * np.ones((1, 2, 1, 1, 1), np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool3d(x, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")
    assert y.numpy().ravel().tolist() == [3.0, 3.0, 2.0, 3.0]
    assert tape.gradient(y, x).numpy().ravel().tolist() == [
        0.0, 2.0, 1.0, 1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 1.0, 1.0, 0.0, 2.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("mode", ["eager", "traced"])
def test_max_pool3d_same_as_tensorflow(mode):
    def run():
        x = tf.constant(X)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.max_pool3d(x, 2, 2, "SAME")
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, x)

    y, g = run() if mode == "eager" else tf.function(run)()
    assert y.shape.as_list() == [2, 3, 2, 3, 3]
    np.testing.assert_allclose([float(tf.reduce_sum(y)), float(tf.reduce_sum(g))], [135.2535400390625, 270.507080078125], rtol=1e-5)


def test_max_pool3d_gradient_ops_are_adjoint():
    from eagerflow._src.ops.nn.volumes import MaxPool3DGrad, MaxPool3DGradGrad
    from eagerflow._src.ops.registry import bind
    x = tf.constant(np.round(RNG.normal(size=(1, 4, 4, 4, 2)), 1).astype(np.float32))  # rounded: ties happen
    attrs = {"ksize": [1, 2, 2, 2, 1], "strides": [1, 1, 2, 1, 1], "padding": "SAME"}
    y = tf.nn.max_pool3d(x, attrs["ksize"], attrs["strides"], "SAME")
    g = tf.constant(RNG.normal(size=y.shape).astype(np.float32))
    v = tf.constant(RNG.normal(size=x.shape).astype(np.float32))
    routed = bind(MaxPool3DGrad, (x, y, g), attrs)
    read = bind(MaxPool3DGradGrad, (x, y, v), attrs)
    np.testing.assert_allclose(float(tf.reduce_sum(routed * v)), float(tf.reduce_sum(g * read)), rtol=1e-5)


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.nn.conv3d(X, F, 1, "VALID"), TypeError, "Expected list for 'strides' argument to 'conv3d' Op, not 1."),
    (lambda: tf.nn.conv3d(X, F, [1, 1, 1], "VALID"), tf.errors.InvalidArgumentError,
     "Length for attr 'strides' of 3 must be at least minimum 5"),
    (lambda: tf.nn.conv3d(X, F[:, :, :, :2], [1] * 5, "VALID"), tf.errors.InvalidArgumentError,
     "input and filter must have the same depth: 3 vs 2"),
    (lambda: tf.nn.conv3d(X, F, [1] * 5, "same"), tf.errors.InvalidArgumentError,
     "Value for attr 'padding' of \"same\" is not in the list of allowed values: \"SAME\", \"VALID\""),
    (lambda: tf.nn.conv3d(tf.ones([1, 2, 2, 2, 1], tf.int32), tf.ones([1, 1, 1, 1, 1], tf.int32), [1] * 5,
                          "VALID"),
     tf.errors.InvalidArgumentError, "Value for attr 'T' of int32 is not in the list of allowed values: half, "
                                     "bfloat16, float, double"),
    (lambda: tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1], tf.int32), 1, 1, "VALID"), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, float"),
    (lambda: tf.nn.conv3d(X, F, [2, 1, 1, 1, 1], "VALID"), tf.errors.UnimplementedError,
     "Current implementation does not yet support strides in the batch and depth dimensions."),
])
def test_refusals_as_tensorflow(call, error, message):
    with pytest.raises(error) as err:
        call()
    assert str(err.value.message if isinstance(err.value, tf.errors.OpError) else err.value).startswith(message)


def test_a_window_larger_than_the_input_is_refused_while_tracing():
    with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 6 from 5"):
        tf.function(lambda: tf.nn.conv3d(tf.constant(X), tf.ones([6, 1, 1, 3, 4]), [1] * 5, "VALID"))()


def test_second_derivatives_through_the_backprop_ops_match_finite_differences():
    rng = np.random.default_rng(1)
    x0, f0 = rng.normal(size=(1, 3, 4, 3, 2)), rng.normal(size=(2, 2, 2, 2, 3))

    def squared_gradients(x, f):
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            loss = tf.reduce_sum(tf.sin(tf.nn.conv3d(x, f, [1, 1, 2, 1, 1], "SAME")))
        gx, gf = tape.gradient(loss, [x, f])
        return tf.reduce_sum(gx * gx) + tf.reduce_sum(gf * gf)

    x, f = tf.constant(x0), tf.constant(f0)
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        total = squared_gradients(x, f)
    dx, df = tape.gradient(total, [x, f])
    eps = 1e-6
    for which, (base, analytic) in enumerate(((x0, dx), (f0, df))):
        idx = tuple(int(rng.integers(0, n)) for n in base.shape)
        up, down = base.copy(), base.copy()
        up[idx] += eps
        down[idx] -= eps
        pair = (lambda v: (tf.constant(v), f)) if which == 0 else (lambda v: (x, tf.constant(v)))
        numeric = (float(squared_gradients(*pair(up))) - float(squared_gradients(*pair(down)))) / (2 * eps)
        np.testing.assert_allclose(float(analytic.numpy()[idx]), numeric, rtol=1e-5)
