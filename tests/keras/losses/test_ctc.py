"""keras.ops.ctc_loss, keras.losses.ctc and keras.losses.CTC against Keras 3.15 on TF 2.21 (which
runs tf.nn.ctc_loss): losses and their gradients with respect to the logits, for logits from a fixed
NumPy RandomState stream rebuilt here."""
import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
LABELS = np.array([[1, 2, 2, 0], [3, 1, 4, 2], [4, 0, 0, 0]], np.int32)
LABEL_LENGTH = np.array([3, 4, 1], np.int32)
LOGIT_LENGTH = np.array([8, 6, 3], np.int32)


def _logits():
    return np.random.RandomState(7).randn(3, 8, 5).astype("float32")


# keras.ops.ctc_loss(LABELS, logits, LABEL_LENGTH, LOGIT_LENGTH) and its gradient
OPS_LOSS = [10.307530403137207, 7.588882923126221, 3.6253604888916016]
OPS_GRAD = np.array(
    [[[-0.2781382, -0.0526761,  0.114302 ,  0.1662578,  0.0502545],
      [-0.1671636, -0.5304811,  0.019078 ,  0.4090423,  0.2695244],
      [-0.0437598, -0.2783751, -0.0165787,  0.1677812,  0.1709324],
      [-0.0369314,  0.1565951, -0.4500745,  0.2835811,  0.0468295],
      [-0.4698598,  0.0465229, -0.1248779,  0.4870318,  0.0611831],
      [-0.6446114,  0.147594 , -0.2810525,  0.6321266,  0.1459434],
      [-0.6186509,  0.5386861, -0.2582725,  0.3148487,  0.0233886],
      [-0.0083686,  0.0256394, -0.5787165,  0.499952 ,  0.0614939]],
    
     [[ 0.0529195,  0.1499504,  0.316826 , -0.5522193,  0.0325231],
      [ 0.0029319, -0.4410819,  0.7282088, -0.3355894,  0.0455308],
      [ 0.168938 , -0.3731538,  0.0979026,  0.1076274, -0.0013143],
      [ 0.0605546, -0.0085007,  0.2211781,  0.1331704, -0.4064024],
      [-0.1047993,  0.0188166, -0.4301552,  0.6927333, -0.1765954],
      [-0.1056715,  0.1435456, -0.5341289,  0.3507421,  0.1455126],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[-0.4006486,  0.344251 ,  0.213262 ,  0.055895 , -0.2127594],
      [-0.0516577,  0.0643137,  0.3174654,  0.40064  , -0.7307614],
      [-0.4717583,  0.3212798,  0.1613283,  0.1514143, -0.162264 ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]]])
# keras.losses.CTC()(LABELS, logits): label lengths from the non-zero labels, every step used
CTC_PER_SAMPLE = [10.307530403137207, 8.712348937988281, 13.910551071166992]
CTC_MEAN = 10.97680950164795
CTC_GRAD = np.array(
    [[[-0.0927127, -0.0175587,  0.0381007,  0.0554193,  0.0167515],
      [-0.0557212, -0.176827 ,  0.0063593,  0.1363474,  0.0898415],
      [-0.0145866, -0.0927917, -0.0055262,  0.0559271,  0.0569775],
      [-0.0123105,  0.0521984, -0.1500248,  0.0945271,  0.0156098],
      [-0.1566199,  0.0155076, -0.041626 ,  0.1623439,  0.0203944],
      [-0.2148705,  0.049198 , -0.0936842,  0.2107089,  0.0486478],
      [-0.206217 ,  0.179562 , -0.0860908,  0.1049496,  0.0077962],
      [-0.0027895,  0.0085465, -0.1929055,  0.1666507,  0.020498 ]],
    
     [[-0.0359708,  0.0499835,  0.1056087, -0.1304624,  0.010841 ],
      [-0.0229343, -0.0872442,  0.2427363, -0.1477346,  0.0151769],
      [ 0.0337378, -0.0820227,  0.0326342,  0.0021948,  0.0134559],
      [-0.0326734, -0.0330728,  0.0793537,  0.0066513, -0.020259 ],
      [-0.0710181, -0.014455 ,  0.0023772,  0.1927695, -0.1096736],
      [-0.0521996, -0.0104798, -0.0065108,  0.116914 , -0.047724 ],
      [-0.051922 ,  0.0166959, -0.040526 ,  0.09332  , -0.0175679],
      [-0.0138147,  0.0879672, -0.1368639,  0.0520463,  0.0106651]],
    
     [[-0.2055993,  0.1147503,  0.0710873,  0.0186317,  0.00113  ],
      [-0.1989861,  0.0214379,  0.1058218,  0.1335467, -0.0618203],
      [-0.1258549,  0.1070933,  0.0537761,  0.0504714, -0.0854858],
      [-0.1473891,  0.2242023,  0.0557926,  0.016618 , -0.1492237],
      [-0.0665803,  0.0929037,  0.0945131,  0.0150906, -0.1359271],
      [-0.1125377,  0.1146916,  0.032213 ,  0.1534317, -0.1877985],
      [-0.1451274,  0.0640258,  0.1363773,  0.0835428, -0.1388185],
      [-0.1406357,  0.0372982,  0.0237512,  0.0190791,  0.0605072]]])


def test_ctc_loss_and_gradient_match_keras3():
    x = tf.constant(_logits())
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = keras.ops.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH, mask_index=0)
    np.testing.assert_allclose(loss.numpy(), OPS_LOSS, rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), OPS_GRAD, atol=2e-7)


def test_ctc_loss_class_matches_keras3():
    x = tf.constant(_logits())
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = keras.losses.CTC()(LABELS, x)
    assert float(loss) == pytest.approx(CTC_MEAN, rel=1e-6)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), CTC_GRAD, atol=2e-7)
    np.testing.assert_allclose(keras.losses.CTC(reduction=None)(LABELS, x).numpy(), CTC_PER_SAMPLE, rtol=1e-6)
    np.testing.assert_allclose(keras.losses.ctc(LABELS, x).numpy(), CTC_PER_SAMPLE, rtol=1e-6)
    # probabilities are taken as logits, as Keras does
    np.testing.assert_allclose(keras.losses.CTC(reduction=None)(LABELS, tf.nn.softmax(x)).numpy(),
                               [7.836477279663086, 6.91943359375, 9.814854621887207], rtol=1e-6)
    assert keras.losses.CTC().get_config() == {"name": "ctc", "reduction": "sum_over_batch_size"}
    assert keras.losses.get("ctc") is keras.losses.ctc and isinstance(keras.losses.get("CTC"), keras.losses.CTC)


def test_edge_cases_match_keras3():
    x = _logits()
    # a repeated symbol needs a blank between its copies: 3 steps are just enough for [1, 1]
    np.testing.assert_allclose(keras.ops.ctc_loss([[1, 1]], x[:1, :3], [2], [3]).numpy(), [6.27248477935791],
                               rtol=1e-6)
    np.testing.assert_allclose(keras.ops.ctc_loss([[0, 1, 2]], x[:1], [3], [8], mask_index=4).numpy(),
                               [8.616031646728516], rtol=1e-6)
    # a label that cannot fit: a large finite loss (TensorFlow: 709.2; the exact value is not matched)
    impossible = float(keras.ops.ctc_loss([[1, 2, 3, 4]], x[:1, :3], [4], [3]).numpy()[0])
    assert 600 < impossible < 800
    assert keras.ops.ctc_loss(LABELS, x.astype("float64"), LABEL_LENGTH, LOGIT_LENGTH).dtype == tf.float64


def test_traced_matches_eager():
    x = tf.constant(_logits())
    traced = tf.function(lambda logits: keras.ops.ctc_loss(LABELS, logits, LABEL_LENGTH, LOGIT_LENGTH))
    np.testing.assert_allclose(traced(x).numpy(), OPS_LOSS, rtol=1e-6)


def test_rank_errors_in_keras_words():
    x = _logits()
    with pytest.raises(ValueError, match=r"Targets `y_true` are expected to be a tensor of shape `\(batch_size, "
                                         r"max_length\)` in integer format. Received: y_true.shape=\(4,\)"):
        keras.losses.ctc(LABELS[0], x)
    with pytest.raises(ValueError, match=r"Logits `y_pred` are expected to be a tensor of shape `\(batch_size, "
                                         r"max_length, num_classes\)`. Received: y_pred.shape=\(8, 5\)"):
        keras.losses.ctc(LABELS, x[0])


def test_fit_with_ctc_reduces_the_loss():
    rng = np.random.RandomState(0)
    features = rng.rand(16, 8, 4).astype("float32")
    labels = np.tile(np.array([[1, 2, 0]], np.int32), (16, 1))
    model = keras.Sequential([keras.Input((8, 4)), keras.layers.Dense(5)])
    model.compile(keras.optimizers.Adam(0.05), keras.losses.CTC())
    history = model.fit(features, labels, epochs=5, batch_size=8, verbose=0, shuffle=False)
    losses = history.history["loss"]
    assert losses[-1] < losses[0]
    direct = keras.losses.CTC()(labels, model.predict(features, verbose=0))
    assert model.evaluate(features, labels, verbose=0) == pytest.approx(float(direct), rel=1e-5)


def test_a_label_longer_than_its_logits_gives_tensorflows_number():
    """Keras 3.15 on TF 2.21 reports 709.2155 here (TensorFlow's dense CTC: LOG_ZERO = log(1e-307)
    where no alignment exists, plus the path's cost); the loss shares tf.nn.ctc_loss's computation."""
    x = _logits()
    loss = keras.ops.ctc_loss([[1, 2, 3, 4]], x[:1, :3], [4], [3])
    np.testing.assert_allclose(loss.numpy(), [709.2155151367188], rtol=1e-6)


def test_result_dtypes_follow_keras():
    logits = np.random.RandomState(1).randn(1, 5, 4)
    half = keras.ops.ctc_loss(np.array([[1, 2, 0]]), logits.astype(np.float16), np.array([2]), np.array([5]))
    assert half.dtype == tf.float32  # Keras' result_type(float16, float32)
    np.testing.assert_allclose(half.numpy(), [3.425710678100586], rtol=1e-6)
    double = keras.ops.ctc_loss(np.array([[1, 2, 0]]), logits, np.array([2]), np.array([5]))
    assert double.dtype == tf.float64  # computed in float32, as Keras does
    np.testing.assert_allclose(double.numpy(), [3.4256670475006104], rtol=1e-6)
