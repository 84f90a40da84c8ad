"""Merging layers (Multiply, Subtract, Average, Maximum, Minimum, Dot) and activation layers (LeakyReLU,
ELU, PReLU, Identity) against TensorFlow 2.21's Keras 3.15: outputs, names, configs, messages, gradients."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layer_oracle import ORACLE, arr, config_without_name, error

L = keras.layers


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


@pytest.mark.parametrize("cls", ["Multiply", "Subtract", "Average", "Maximum", "Minimum"])
def test_elementwise_merges_match_keras(cls):
    a, b, c = arr("a"), arr("b"), arr("c")
    layer = getattr(L, cls)()
    out = layer([a, b] if cls == "Subtract" else [a, b, c])
    np.testing.assert_allclose(out.numpy(), arr(cls + "_out"), rtol=1e-6, atol=1e-7)
    assert layer.name == ORACLE[cls + "_name"] and getattr(L, cls)().name == ORACLE[cls + "_name2"]
    assert sorted(layer.get_config()) == ORACLE[cls + "_config"]
    assert layer.weights == []


def test_merge_errors_match_keras():
    a, b, c = arr("a"), arr("b"), arr("c")
    kind, message = error("subtract_3")
    with pytest.raises(ValueError, match=re.escape(message)):
        L.Subtract()([a, b, c])
    kind, message = error("multiply_notlist")
    with pytest.raises(ValueError, match=re.escape(message)):
        L.Multiply()(a)
    kind, message = error("multiply_badshape")
    with pytest.raises(ValueError, match=re.escape(message)):
        L.Multiply()([a, np.ones((2, 4), np.float32)])
    np.testing.assert_array_equal(L.Multiply()([a]).numpy(), a)  # Keras accepts a single input


def test_merges_in_a_functional_model_and_gradient():
    x1, x2 = keras.Input((3,)), keras.Input((3,))
    model = keras.Model([x1, x2], L.Multiply()([L.Dense(3)(x1), x2]))
    a, b = arr("a"), arr("b")
    with tf.GradientTape() as tape:
        y = model([a, b])
        loss = tf.reduce_sum(y)
    kernel_grad = tape.gradient(loss, model.trainable_variables[0])
    np.testing.assert_allclose(kernel_grad.numpy(), a.T @ b, rtol=1e-6)  # d/dK sum((aK + bias) * b) = a^T b


def test_dot_matches_keras():
    a, b, x3, y3 = arr("a"), arr("b"), arr("x3"), arr("y3")
    d = L.Dot(axes=1)
    np.testing.assert_allclose(d([a, b]).numpy(), arr("dot1"), rtol=1e-6)
    assert d.get_config() == ORACLE["dot_config"]
    np.testing.assert_allclose(L.Dot(axes=1, normalize=True)([a, b]).numpy(), arr("dot1_norm"), rtol=1e-5)
    np.testing.assert_allclose(L.Dot(axes=2)([x3, y3]).numpy(), arr("dot22"), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(L.Dot(axes=-1, normalize=True)([x3, y3]).numpy(), arr("dot_neg"), rtol=1e-5,
                               atol=1e-6)
    assert L.Dot(axes=(1, 1))([x3, np.ones((2, 4, 2), np.float32)]).shape == tuple(ORACLE["dot_11"])
    for key, call in [("dot_bad", lambda: L.Dot(axes=1)([a, np.ones((2, 4), np.float32)])),
                      ("dot_three", lambda: L.Dot(axes=1)([a, b, arr("c")]))]:
        with pytest.raises(ValueError, match=re.escape(error(key)[1])):
            call()


def test_dot_gradient_matches_finite_differences():
    x = tf.Variable(arr("x3").astype(np.float64))
    y = arr("y3").astype(np.float64)
    layer = L.Dot(axes=2, normalize=True, dtype="float64")
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(layer([x, y])))
    grad = tape.gradient(loss, x).numpy()

    def f(xv):
        xn = xv / np.linalg.norm(xv, axis=2, keepdims=True)
        yn = y / np.linalg.norm(y, axis=2, keepdims=True)
        return np.sum(np.einsum("bik,bjk->bij", xn, yn) ** 2)
    x0, eps = x.numpy(), 1e-6
    numeric = np.zeros_like(x0)
    for idx in np.ndindex(*x0.shape):
        plus, minus = x0.copy(), x0.copy()
        plus[idx] += eps
        minus[idx] -= eps
        numeric[idx] = (f(plus) - f(minus)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-7)


def test_leaky_relu_and_elu_match_keras():
    v = np.array([[-2.0, -0.5, 0.0, 0.5, 3.0]], np.float32)
    np.testing.assert_allclose(L.LeakyReLU()(v).numpy(), arr("leaky"), rtol=1e-6)
    np.testing.assert_allclose(L.LeakyReLU(negative_slope=0.2)(v).numpy(), arr("leaky_02"), rtol=1e-6)
    leaky = L.LeakyReLU(negative_slope=0.1)
    assert leaky.name == "leaky_re_lu_2"  # Keras 3: leaky_re_lu, leaky_re_lu_1, ...
    assert {k: v for k, v in leaky.get_config().items() if k != "name"} == config_without_name("leaky_cfg")
    np.testing.assert_allclose(L.ELU()(v).numpy(), arr("elu"), rtol=1e-6)
    np.testing.assert_allclose(L.ELU(alpha=0.5)(v).numpy(), arr("elu05"), rtol=1e-6)
    elu = L.ELU(alpha=0.5)
    assert elu.name == "elu_2"
    assert {k: v for k, v in elu.get_config().items() if k != "name"} == config_without_name("elu_cfg")
    assert L.Identity().get_config() == ORACLE["identity_cfg"]
    np.testing.assert_array_equal(L.Identity()(v).numpy(), v)


def test_prelu_weights_outputs_config_and_gradient_match_keras():
    p = L.PReLU(shared_axes=[1])
    p.build((None, 3, 4))
    assert [[w.name, w.path, list(w.shape)] for w in p.weights] == ORACLE["prelu_w"]
    np.testing.assert_array_equal(p.alpha.numpy(), np.zeros((1, 4), np.float32))  # Zeros initializer
    p.set_weights([np.array([[0.1, 0.2, 0.3, 0.4]], np.float32)])
    xp = arr("xp")
    np.testing.assert_allclose(p(xp).numpy(), arr("prelu_out"), rtol=1e-6)
    assert p.get_config() == ORACLE["prelu_cfg"]
    q = L.PReLU()
    q.build((None, 3, 4))
    assert [[w.path, list(w.shape)] for w in q.weights] == ORACLE["prelu2_w"]
    with tf.GradientTape() as tape:
        y = p(xp)
        loss = tf.reduce_sum(y * y)
    np.testing.assert_allclose(tape.gradient(loss, p.alpha).numpy(), arr("prelu_grad"), rtol=1e-5)
