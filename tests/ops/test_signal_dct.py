"""tf.signal.dct / idct / mdct / inverse_mdct (ops/signal/dct.py) against TensorFlow 2.21's values
and errors, and SciPy-free references: the DCT definitions summed in NumPy."""
import numpy as np
import pytest

import eagerflow as tf

XD = np.array([[1., 2., -1., 0.5, 3.], [0., 1., 4., -2., 1.]], np.float32)
SM = np.sin(np.arange(16) * 0.3).astype(np.float32)


def _close(got, want, tol=3e-5):
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol)


def _reference(x, kind):
    """The unnormalised DCT of each kind by its defining sum (float64)."""
    n = x.shape[-1]
    k, m = np.arange(n)[:, None], np.arange(n)[None, :]
    if kind == 1:
        basis = np.cos(np.pi * k * m / (n - 1)) * np.where((m == 0) | (m == n - 1), 1.0, 2.0)
    elif kind == 2:
        basis = 2 * np.cos(np.pi * k * (2 * m + 1) / (2 * n))
    elif kind == 3:
        basis = np.cos(np.pi * (2 * k + 1) * m / (2 * n)) * np.where(m == 0, 1.0, 2.0)
    else:
        basis = 2 * np.cos(np.pi * (2 * k + 1) * (2 * m + 1) / (4 * n))
    return x.astype(np.float64) @ basis.T


TF_DCT = {  # TensorFlow 2.21, norm=None
    1: [[7., 0.12132025, 6., -4.1213202, -3.], [7., 3.2426405, -7., -5.2426405, 11.]],
    2: [[11., -2.0408702, 6.927051, -5.2043104, -3.5729492], [8., 1.6245981, -5.7639318, -6.88191, 10.236069]],
    3: [[5.62808, -1.8359832, 9., -4.636153, -3.1559436], [6.6411424, 0.8896269, -6., -9.069967, 7.5391984]],
    4: [[5.517787, 0.11033291, 4.9497466, -9.646591, 2.1178172], [5.9357743, -2.3012133, -8.485281, 1.2737279,
                                                                  10.288277]],
}
TF_ORTHO = {
    2: [[2.4596748, -0.64537984, 2.1905258, -1.6457474, -1.1298658], [1.7888544, 0.51374304, -1.8227153, -2.176251,
                                                                      3.2369292]],
    3: [[1.9107409, -0.44960317, 2.977036, -1.3350948, -0.8670111], [2.1001134, 0.28132468, -1.8973664, -2.8681755,
                                                                     2.3841035]],
    4: [[1.7448775, 0.03489033, 1.5652473, -3.05052, 0.6697126], [1.8770566, -0.7277075, -2.6832814, 0.40278813,
                                                                  3.2534387]],
}


@pytest.mark.parametrize("kind", [1, 2, 3, 4])
def test_dct_matches_tensorflow_and_its_definition(kind):
    out = tf.signal.dct(XD, type=kind)
    assert out.dtype == tf.float32 and out.shape == [2, 5]
    _close(out, TF_DCT[kind])
    _close(out, _reference(XD, kind), 1e-4)
    inverse = {1: 1, 2: 3, 3: 2, 4: 4}[kind]
    _close(tf.signal.idct(XD, type=kind), TF_DCT[inverse])
    if kind != 1:
        _close(tf.signal.dct(XD, type=kind, norm="ortho"), TF_ORTHO[kind])
        _close(tf.signal.idct(XD, type=kind, norm="ortho"), TF_ORTHO[inverse])
        x64 = np.random.default_rng(kind).normal(size=(3, 7))
        round_trip = tf.signal.idct(tf.signal.dct(x64, type=kind, norm="ortho"), type=kind, norm="ortho")
        _close(round_trip, x64, 1e-12)


def test_dct_length_argument_and_dtypes():
    _close(tf.signal.dct(XD, n=3), [[4., 3.4641013, -4.], [10., -6.9282026, 2.0000002]])
    _close(tf.signal.dct(XD, n=7), [[11., 1.6061119, -0.8019376, 7.627551, -2.2469802, -9.286596, 0.55495787],
                                    [8., 4.1669655, -1.7898563, -6.7173347, -8.027146, 2.7411342, 11.76271]])
    assert tf.signal.dct(XD.astype(np.float64)).dtype == tf.float64


def test_dct_errors_match_tensorflow():
    with pytest.raises(NotImplementedError, match="axis must be -1. Got: 0"):
        tf.signal.dct(XD, axis=0)
    with pytest.raises(ValueError, match="n should be a positive integer or None"):
        tf.signal.dct(XD, n=0)
    with pytest.raises(ValueError, match=r"Types I, II, III and IV \(I\)DCT are supported."):
        tf.signal.dct(XD, type=5)
    with pytest.raises(ValueError, match="Normalization is not supported for the Type-I DCT."):
        tf.signal.idct(XD, type=1, norm="ortho")
    with pytest.raises(ValueError, match="Type-I DCT requires the dimension to be greater than one."):
        tf.signal.dct(np.ones((2, 1), np.float32), type=1)
    with pytest.raises(ValueError, match="Unknown normalization. Expected None or 'ortho', got: forward"):
        tf.signal.dct(XD, norm="forward")
    with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int64"):
        tf.signal.dct(np.arange(4))


def test_traced_dct_of_unknown_length_agrees_with_eager():
    for kind in (1, 2, 3, 4):
        traced = tf.function(lambda x, kind=kind: tf.signal.dct(x, type=kind, n=4)).get_concrete_function(
            tf.TensorSpec([None, None]))
        _close(traced(tf.constant(XD)), tf.signal.dct(XD, type=kind, n=4), 1e-6)


def test_dct_gradient_matches_tensorflow():
    x = tf.constant(XD)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.signal.dct(x)
        loss = tf.reduce_sum(y * tf.cast(tf.reshape(tf.range(10) % 3 + 1, [2, 5]), tf.float32))
    _close(tape.gradient(loss, x), [[13.069967, -2.641142, 0.00000072, -3.539197, 3.1103735],
                                    [15.282927, -1.3848705, 4.0000005, 7.6766667, 4.4252768]])


def test_mdct_matches_tensorflow():
    _close(tf.signal.mdct(SM, 8), [[-5.2643995, 0.09662378, -0.46557912, -0.02088934],
                                   [-3.0266514, 1.5430205, -0.16330336, 0.00340866],
                                   [3.0709386, 1.0216272, 0.34723046, 0.0233594]])
    _close(tf.signal.mdct(SM[:14], 8, pad_end=True, norm="ortho"), [
        [-1.8612462, 0.03416166, -0.16460708, -0.0073855], [-1.0700828, 0.5455401, -0.05773646, 0.00120514],
        [0.76968515, 0.1304296, 0.00369141, -0.02483308], [-0.05460601, 0.14426196, -0.19210768, 0.20675878]])
    _close(tf.signal.mdct(SM, 8, window_fn=None), [[-5.5350256, -0.5247922, 0.40863335, 0.31881374],
                                                   [-1.3366998, -0.63969624, 0.3182237, 0.2980546],
                                                   [4.5662985, 0.06119418, -0.1780116, -0.10280891]])
    with pytest.raises(ValueError, match="The frame length must be a multiple of 4."):
        tf.signal.mdct(SM, 6)


def test_inverse_mdct_matches_tensorflow():
    coefficients = tf.signal.mdct(SM, 8)
    _close(tf.signal.inverse_mdct(coefficients), [
        -0.04671959, -0.1686392, 0.32013372, 0.7805304, 0.9320391, 0.9974947, 0.9738474, 0.86320937, 0.67546326,
        0.4273798, 0.14111999, -0.15774564, -0.49924302, -0.89776695, -0.4729233, -0.02988279])
    _close(tf.signal.inverse_mdct(tf.signal.mdct(SM, 8, norm="ortho"), norm="ortho"), [
        -0.04671959, -0.1686392, 0.32013372, 0.78053033, 0.932039, 0.9974947, 0.9738474, 0.86320925, 0.67546314,
        0.4273798, 0.14111999, -0.15774561, -0.4992429, -0.89776695, -0.4729233, -0.02988278])
    _close(tf.signal.inverse_mdct(coefficients, window_fn=tf.signal.kaiser_bessel_derived_window), [
        -0.00474773, -0.14046669, 0.33345747, 0.7819129, 0.97703815, 1.0775931, 0.8844025, 0.8119258, 0.6660202,
        0.4379378, 0.1038212, -0.19378187, -0.5001273, -0.9351315, -0.3939178, -0.00303674])
    # with a power-complementary window the middle of the signal comes back exactly
    _close(tf.signal.inverse_mdct(coefficients)[4:12], SM[4:12], 1e-5)
