"""Regularizers and constraints against Keras 3.15 (TF 2.21): values, configs, messages, and their
effect on layer.losses, fit/evaluate/train_on_batch and optimizer updates. Expected numbers were
produced by the oracle and written here."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras import constraints as C
from eagerflow.keras import regularizers as R

W = np.array([[1., -2.], [3., 0.5], [-1.5, 2.]], np.float32)


@pytest.mark.parametrize("reg, config, value", [
    (R.L1(), {"l1": 0.009999999776482582}, 0.09999999403953552),
    (R.L2(), {"l2": 0.01}, 0.20499999821186066),
    (R.L1L2(), {"l1": 0.0, "l2": 0.0}, 0.0),
    (R.L1L2(l1=0.1, l2=0.2), {"l1": 0.1, "l2": 0.2}, 5.099999904632568),
    (R.get("l1"), {"l1": 0.009999999776482582}, 0.09999999403953552),
    (R.get("l2"), {"l2": 0.01}, 0.20499999821186066),
    (R.OrthogonalRegularizer(), {"factor": 0.009999999776482582, "mode": "rows"}, 0.005794242490082979),
    (R.OrthogonalRegularizer(0.1, mode="columns"), {"factor": 0.10000000149011612, "mode": "columns"},
     0.03481553494930267),
])
def test_regularizer_values_and_configs_match_keras(reg, config, value):
    assert reg.get_config() == config
    np.testing.assert_allclose(float(reg(tf.constant(W))), value, rtol=1e-6)


def test_regularizer_serialize_get_and_errors_match_keras():
    assert R.serialize(R.L2(0.1)) == {"module": "keras.regularizers", "class_name": "L2", "config": {"l2": 0.1},
                                      "registered_name": None}
    assert type(R.get({"class_name": "L1", "config": {"l1": 0.3}})) is R.L1
    assert R.get(None) is None
    assert R.l1_l2 is R.L1L2
    cases = [(lambda: R.get("l1_l2"), "Could not interpret regularizer identifier: l1_l2"),
             (lambda: R.L1(-1), "Invalid value for argument l1: expected a non-negative float.Received: l1=-1"),
             (lambda: R.L2("a"), "Invalid value for argument l2: expected a non-negative float.Received: l2=a"),
             (lambda: R.get("nope"), "Could not interpret regularizer identifier: nope"),
             (lambda: R.get(5), "Could not interpret regularizer identifier: 5"),
             (lambda: R.OrthogonalRegularizer(mode="x"),
              'Invalid value for argument `mode`. Expected one of {"rows", "columns"}. Received: mode=x'),
             (lambda: R.OrthogonalRegularizer()(tf.ones((2, 2, 2))),
              "Inputs to OrthogonalRegularizer must have rank 2. Received: inputs.shape=(2, 2, 2)")]
    for fn, message in cases:
        with pytest.raises(ValueError) as e:
            fn()
        assert str(e.value) == message


def test_layer_losses_activity_then_weights_recomputed_per_call():
    keras.utils.set_random_seed(0)
    d = keras.layers.Dense(2, kernel_regularizer="l2", bias_regularizer=R.L1(0.5), activity_regularizer=R.L2(0.1),
                           bias_initializer="ones")
    x = np.array([[1., 2., 3.]], np.float32)
    assert d.losses == []
    y = d(x).numpy()
    k = d.kernel.numpy()
    # Keras 3's order: add_loss/activity terms, then weight regularizers (kernel, bias)
    np.testing.assert_allclose([float(v) for v in d.losses],
                               [0.1 * np.sum(y ** 2), 0.01 * np.sum(k ** 2), 0.5 * 2], rtol=1e-5)
    y2 = d(np.concatenate([x, x])).numpy()  # the next call replaces the activity loss; divided by the batch size
    losses = [float(v) for v in d.losses]
    assert len(losses) == 3
    np.testing.assert_allclose(losses[0], 0.1 * np.sum(y2 ** 2) / 2, rtol=1e-5)
    d.add_loss(tf.constant(3.0))
    assert [float(v) for v in d.losses][1] == 3.0
    k2 = d.kernel  # the weight regularizer follows the weight's current value
    k2.assign(np.zeros_like(k))
    assert float(d.losses[2]) == 0.0
    with pytest.raises(ValueError, match=r"`add_loss\(\)` can only be called from inside `build\(\)` or `call\(\)`"):
        d.add_loss(1.0)


def _regularized_model():
    return keras.Sequential([keras.Input((3,)),
                             keras.layers.Dense(2, kernel_regularizer=R.L2(0.5), kernel_initializer="ones"),
                             keras.layers.Dense(1, activity_regularizer=R.L1(0.1), kernel_initializer="ones")])


X = np.array([[1., 2., 3.], [0.5, -1., 2.]], np.float32)
Y = np.array([[1.], [2.]], np.float32)


def test_model_losses_and_training_include_regularizers_as_keras():
    # regression: the regularizers were accepted and silently ignored (evaluate gave the bare MSE)
    m = _regularized_model()
    assert [float(v) for v in m.losses] == [3.0]
    m(X)
    np.testing.assert_allclose([float(v) for v in m.losses], [0.75, 3.0], rtol=1e-6)
    m.compile(keras.optimizers.SGD(0.01), "mse")
    np.testing.assert_allclose(m.evaluate(X, Y, verbose=0), 64.75, rtol=1e-6)
    np.testing.assert_allclose(m.train_on_batch(X, Y), 64.75, rtol=1e-6)
    np.testing.assert_allclose(m.layers[0].kernel.numpy(),
                               [[0.87425, 0.87425], [0.7795, 0.7795], [0.6375000476837158] * 2], rtol=1e-5)
    h = m.fit(X, Y, epochs=2, verbose=0, batch_size=2)
    np.testing.assert_allclose(h.history["loss"], [4.476747512817383, 3.8280727863311768], rtol=1e-5)
    np.testing.assert_allclose(float(m.compute_loss(X, Y, m(X))), 3.5717029571533203, rtol=1e-5)


def test_model_trained_through_add_loss_only():
    class WithPenalty(keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x * x))
            return x

    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, kernel_initializer="ones"), WithPenalty()])
    m.compile(keras.optimizers.SGD(0.0), loss=None)
    x = np.array([[1., 2.]], np.float32)
    assert m.train_on_batch(x, np.zeros((1, 2), np.float32)) == pytest.approx(18.0)


W2 = np.array([[3., -4.], [0., 1.], [4., 2.]], np.float32)


@pytest.mark.parametrize("constraint, config, expected", [
    (C.MaxNorm(), {"max_value": 2, "axis": 0},
     [[1.2000000476837158, -1.7457430362701416], [0.0, 0.4364357590675354], [1.600000023841858, 0.8728715181350708]]),
    (C.MaxNorm(1.0, axis=1), {"max_value": 1.0, "axis": 1},
     [[0.6000000238418579, -0.800000011920929], [0.0, 0.9999998807907104], [0.8944271802902222, 0.4472135901451111]]),
    (C.NonNeg(), {}, [[3.0, 0.0], [0.0, 1.0], [4.0, 2.0]]),
    (C.UnitNorm(), {"axis": 0},
     [[0.6000000238418579, -0.8728715181350708], [0.0, 0.2182178795337677], [0.800000011920929, 0.4364357590675354]]),
    (C.MinMaxNorm(), {"min_value": 0.0, "max_value": 1.0, "rate": 1.0, "axis": 0},
     [[0.6000000238418579, -0.8728715181350708], [0.0, 0.2182178795337677], [0.800000011920929, 0.4364357590675354]]),
    (C.MinMaxNorm(1.0, 3.0, rate=0.5, axis=0), {"min_value": 1.0, "max_value": 3.0, "rate": 0.5, "axis": 0},
     [[2.4000000953674316, -3.309307336807251], [0.0, 0.8273268342018127], [3.200000047683716, 1.6546536684036255]]),
])
def test_constraint_values_and_configs_match_keras(constraint, config, expected):
    assert constraint.get_config() == config
    np.testing.assert_allclose(np.asarray(constraint(W2)), expected, rtol=1e-6)


def test_constraint_serialize_get_and_errors_match_keras():
    assert C.serialize(C.MaxNorm(3)) == {"module": "keras.constraints", "class_name": "MaxNorm",
                                         "config": {"max_value": 3, "axis": 0}, "registered_name": None}
    assert [type(C.get(n)) for n in ("max_norm", "non_neg", "unit_norm")] == [C.MaxNorm, C.NonNeg, C.UnitNorm]
    for bad in ("nope", 5):
        with pytest.raises(ValueError, match=f"^Could not interpret constraint identifier: {bad}$"):
            C.get(bad)


def test_optimizer_applies_layer_constraints_after_the_update():
    d = keras.layers.Dense(2, kernel_constraint=C.NonNeg(), bias_constraint=C.MaxNorm(0.1), kernel_initializer="ones")
    x = np.array([[1., 2., 3.]], np.float32)
    d(x)
    assert isinstance(d.kernel.constraint, C.NonNeg) and d.kernel.regularizer is None
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(d(x))
    grads = t.gradient(loss, d.trainable_variables)
    keras.optimizers.SGD(1.0).apply_gradients(zip(grads, d.trainable_variables))
    np.testing.assert_array_equal(d.kernel.numpy(), np.zeros((3, 2)))
    np.testing.assert_allclose(d.bias.numpy(), [-0.0707106739282608] * 2, rtol=1e-6)


@pytest.mark.parametrize("opt, expected", [(lambda: keras.optimizers.SGD(0.1), 0.9),
                                           (lambda: keras.optimizers.Adam(0.1), 0.900001)])
def test_optimizer_honors_tf_variable_constraint(opt, expected):
    v = tf.Variable([1., -2.], constraint=lambda v: tf.maximum(v, 0.))
    opt().apply_gradients([(tf.constant([1., 1.]), v)])
    np.testing.assert_allclose(v.numpy(), [expected, 0.0], rtol=1e-6)


def test_constraints_and_regularizers_on_conv_embedding_and_rnn_weights():
    conv = keras.layers.Conv2D(2, 2, kernel_regularizer=R.L1(0.1), bias_constraint=C.NonNeg())
    conv(np.ones((1, 3, 3, 1), np.float32))
    np.testing.assert_allclose(float(conv.losses[0]), 0.1 * np.abs(conv.kernel.numpy()).sum(), rtol=1e-5)
    assert isinstance(conv.bias.constraint, C.NonNeg)
    emb = keras.layers.Embedding(5, 3, embeddings_regularizer="l2", embeddings_constraint="unit_norm")
    emb(np.array([[1, 2]]))
    np.testing.assert_allclose(float(emb.losses[0]), 0.01 * (emb.embeddings.numpy() ** 2).sum(), rtol=1e-5)
    assert isinstance(emb.embeddings.constraint, C.UnitNorm)
    for cls in (keras.layers.SimpleRNN, keras.layers.GRU, keras.layers.LSTM):
        rnn = cls(2, kernel_regularizer="l1", recurrent_regularizer=R.L2(0.5), bias_regularizer="l2",
                  recurrent_constraint=C.MaxNorm(1.0))
        rnn(np.ones((1, 3, 2), np.float32))
        expected = [0.01 * np.abs(rnn.kernel.numpy()).sum(), 0.5 * (rnn.recurrent_kernel.numpy() ** 2).sum(),
                    0.01 * (rnn.bias.numpy() ** 2).sum()]
        np.testing.assert_allclose([float(v) for v in rnn.losses], expected, rtol=1e-5)
        assert isinstance(rnn.recurrent_kernel.constraint, C.MaxNorm)


def test_constraints_hold_after_fit_compiled_steps():
    s = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_constraint="non_neg")])
    s.compile(keras.optimizers.SGD(0.1), "mse")
    x = np.random.default_rng(0).random((8, 3)).astype("f4")
    s.fit(x, -5 * np.ones((8, 2), "f4"), epochs=3, verbose=0)  # the gradient pushes every weight negative
    kernel = s.layers[0].kernel.numpy()
    assert (kernel >= 0).all() and (kernel == 0).any()
