"""keras.losses.circle / Circle against Keras 3.15 (TF 2.21): values, reductions (rows with a zero
loss are masked out of the mean, as Keras masks them), options and the gradient, for unit embeddings
from a fixed NumPy RandomState stream rebuilt here."""
import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
LABELS = np.array([0, 0, 1, 1, 2, 3], np.int32)


def _data():
    rng = np.random.RandomState(17)
    emb = rng.randn(6, 4).astype("float32")
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    ref = rng.randn(3, 4).astype("float32")
    ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    return emb, ref


GRAD = np.array(
    [[-6.31241798e+01, -1.28808868e+02,  4.99943008e+01,  4.58197479e+01],
     [-2.05678253e+01,  1.18938385e+02, -3.63522606e+01, -7.09058685e+01],
     [ 7.09339371e+01, -3.56530075e+01, -5.83936930e+00,  8.85344238e+01],
     [-2.32101097e+01,  3.16161327e+01, -7.26209106e+01, -5.01102829e+01],
     [ 1.93731710e-02,  3.52395996e-02, -2.08635745e-03, -6.76351273e-03],
     [-1.43833065e+01,  6.04973650e+00,  5.04390097e+00, -1.94683533e+01]])


def test_circle_loss_and_gradient_match_keras3():
    emb, _ = _data()
    x = tf.constant(emb)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = keras.losses.Circle()(LABELS, x)
    assert float(loss) == pytest.approx(175.8687744140625, rel=1e-6)  # 4 rows above 0: sum / 4
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), GRAD, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(keras.losses.Circle(reduction=None)(LABELS, x).numpy(), [247.21995544433594, 224.2962188720703, 113.7554702758789, 118.20343017578125, 0.0, 0.0],
                               rtol=1e-6)
    assert float(keras.losses.Circle(reduction="sum")(LABELS, x)) == pytest.approx(703.47509765625, rel=1e-6)
    weights = np.array([1, 2, 0, 1, 1, 1], np.float32)
    assert float(keras.losses.Circle()(LABELS, x, sample_weight=weights)) == pytest.approx(203.50396728515625, rel=1e-6)


def test_circle_function_options_match_keras3():
    emb, ref = _data()
    np.testing.assert_allclose(keras.losses.circle(LABELS, emb).numpy(), [247.21995544433594, 224.2962188720703, 113.7554702758789, 118.20343017578125, 0.0, 0.0], rtol=1e-6)
    np.testing.assert_allclose(keras.losses.circle(LABELS, emb, remove_diagonal=False).numpy(),
                               [247.21995544433594, 224.2962188720703, 113.7554702758789, 118.20343017578125, 8.282372618850786e-06, 9.347391128540039], rtol=1e-5)
    np.testing.assert_allclose(keras.losses.circle(LABELS, emb, gamma=10, margin=0.25).numpy(), [32.95293426513672, 31.055835723876953, 16.26781463623047, 16.794038772583008, 0.0, 0.0],
                               rtol=1e-6)
    np.testing.assert_allclose(keras.losses.circle(LABELS, emb, ref_labels=np.array([0, 1, 2]), ref_embeddings=ref
                                                   ).numpy(), [0.0, 83.0235595703125, 56.029945373535156, 0.017793966457247734, 175.37403869628906, 0.0], rtol=1e-5, atol=1e-6)


def test_circle_config_and_names():
    assert keras.losses.Circle().get_config() == {'name': 'circle', 'reduction': 'sum_over_batch_size', 'gamma': 80.0, 'margin': 0.4, 'remove_diagonal': True}
    assert keras.losses.get("circle") is keras.losses.circle and isinstance(keras.losses.get("Circle"),
                                                                            keras.losses.Circle)
    emb, _ = _data()
    traced = tf.function(lambda e: keras.losses.Circle()(LABELS, e))
    assert float(traced(tf.constant(emb))) == pytest.approx(175.8687744140625, rel=1e-6)
