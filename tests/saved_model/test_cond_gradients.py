"""Functions holding a tf.cond's gradient save in TensorFlow's layout (the recorded If's branches
return an Optional of the values their gradient reads, the gradient If reads them back) and load
with the original's values, checked against finite differences of a NumPy reference."""
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

W0 = np.array([[0.5, -0.2], [0.1, 0.3]], np.float32)
XS = [np.array([[0.2, 0.7], [0.9, -0.4]], np.float32)]
XS += [-XS[0], 3.0 * XS[0]]  # then-branch, else-branch, then-branch with other values


def _step(h, w):
    """One step of the NumPy reference of `_branchy` (float64)."""
    return np.tanh(h @ w) if h.sum() > 0.5 else h * w[0] + 0.1


def _finite_difference(loss, w, eps=1e-6):
    g = np.zeros_like(w, dtype=np.float64)
    for index in np.ndindex(*w.shape):
        up, down = w.astype(np.float64), w.astype(np.float64)
        up[index] += eps
        down[index] -= eps
        g[index] = (loss(up) - loss(down)) / (2 * eps)
    return g


class CondModel(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(W0)

    def _branchy(self, h):
        return tf.cond(tf.reduce_sum(h) > 0.5, lambda: tf.tanh(tf.matmul(h, self.w)),
                       lambda: h * self.w[0] + 0.1)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def cond_grad(self, x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(self._branchy(x) ** 2)
        return tape.gradient(loss, self.w)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def nested_grad(self, x):  # a cond inside a cond's branch
        with tf.GradientTape() as tape:
            y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: self._branchy(tf.sin(x)) * 2.0,
                        lambda: tf.exp(x) * self.w[1])
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, self.w)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def second_order(self, x):  # the gradient of the squared norm of a cond's gradient
        with tf.GradientTape() as outer:
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(self._branchy(x) ** 2)
            g = tape.gradient(loss, self.w)
            norm = tf.reduce_sum(g * g)
        return outer.gradient(norm, self.w)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def loop_grad(self, x):  # a cond inside a while loop
        with tf.GradientTape() as tape:
            h = x
            for _ in tf.range(3):
                h = self._branchy(h)
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, self.w)


class CaseModel(tf.Module):
    """A tf.switch_case (Ifs nested in else-branches) differentiated inside a saved function."""

    def __init__(self):
        super().__init__()
        self.w = tf.Variable(W0)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def case_grad(self, x, i):
        with tf.GradientTape() as tape:
            y = tf.switch_case(i, [lambda: tf.matmul(x, self.w), lambda: tf.sin(x * self.w[0]),
                                   lambda: x * 2.0 + self.w[1] ** 2])
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, self.w)


def _case_loss(x, i, w):
    x = x.astype(np.float64)
    y = [lambda: x @ w, lambda: np.sin(x * w[0]), lambda: x * 2.0 + w[1] ** 2][i]()
    return np.sum(y * y)


def test_a_switch_case_gradient_loads_with_the_original_values(tmp_path):
    model = CaseModel()
    tf.saved_model.save(model, str(tmp_path / "m"))
    assert not (tmp_path / "m" / "saved_model.json").exists()
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    for i in range(3):
        got = loaded.case_grad(tf.constant(XS[0]), tf.constant(i)).numpy()
        np.testing.assert_allclose(got, model.case_grad(tf.constant(XS[0]), tf.constant(i)).numpy(), rtol=1e-6)
        np.testing.assert_allclose(got, _finite_difference(lambda w: _case_loss(XS[0], i, w), W0),
                                   rtol=1e-3, atol=1e-5)


def _analytic_cond_grad(x, w):
    """d/dw of sum(_step(x, w)^2), by hand."""
    if x.sum() > 0.5:
        y = np.tanh(x @ w)
        return x.T @ (2 * y * (1 - y * y))
    y = x * w[0] + 0.1
    return np.stack([np.sum(2 * y * x, axis=0), np.zeros(2)])


def _reference(name, x, w):
    x = x.astype(np.float64)
    if name == "second_order":
        return np.sum(_analytic_cond_grad(x, w) ** 2)
    if name == "cond_grad":
        return np.sum(_step(x, w) ** 2)
    if name == "nested_grad":
        y = _step(np.sin(x), w) * 2.0 if x.sum() > 0.0 else np.exp(x) * w[1]
        return np.sum(y * y)
    h = x
    for _ in range(3):
        h = _step(h, w)
    return np.sum(h * h)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    model = CondModel()
    path = tmp_path_factory.mktemp("cond") / "m"
    tf.saved_model.save(model, str(path))
    return model, path


@pytest.mark.parametrize("name", ["cond_grad", "nested_grad", "second_order", "loop_grad"])
def test_a_cond_gradient_loads_with_the_original_values(saved, name):
    model, path = saved
    assert sorted(os.listdir(path)) == ["assets", "fingerprint.pb", "saved_model.pb", "variables"]
    loaded = tf.saved_model.load(str(path))
    for x in XS:
        expected = getattr(model, name)(tf.constant(x)).numpy()
        got = getattr(loaded, name)(tf.constant(x)).numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(got, _finite_difference(lambda w: _reference(name, x, w), W0),
                                   rtol=1e-3, atol=1e-5)
        assert np.any(got != 0.0)


def test_the_saved_gradient_reads_the_forward_values_through_optionals(saved):
    from eagerflow._src.formats.protos import saved_model_pb2
    _, path = saved
    proto = saved_model_pb2.SavedModel()
    proto.ParseFromString((path / "saved_model.pb").read_bytes())
    types = [n.op for f in proto.meta_graphs[0].graph_def.library.function for n in f.node_def]
    assert "OptionalFromValue" in types and "OptionalGetValue" in types
    assert not any(t.startswith("IfKept") for t in types)


class _Gate(keras.layers.Layer):
    """A layer whose call takes one of two paths by the batch's mean (a tf.cond in a train step)."""

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 2), initializer="ones")

    def call(self, x):
        return tf.cond(tf.reduce_mean(x) > 0.0, lambda: tf.tanh(tf.matmul(x, self.kernel)),
                       lambda: tf.matmul(x * x, self.kernel))


def test_a_keras_train_step_through_a_cond_layer_trains_the_same_after_loading(tmp_path):
    layer = _Gate()
    layer.build((None, 2))
    layer.kernel.assign(W0)
    holder = tf.Module()
    holder.layer = layer
    holder.opt = keras.optimizers.SGD(0.1)
    holder.opt.build(layer.trainable_variables)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        grads = tape.gradient(loss, layer.trainable_variables)
        holder.opt.apply_gradients(zip(grads, layer.trainable_variables))
        return loss

    holder.train_step = train_step
    tf.saved_model.save(holder, str(tmp_path / "m"))
    assert (tmp_path / "m" / "saved_model.pb").exists() and not (tmp_path / "m" / "saved_model.json").exists()
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    w = W0.astype(np.float64)
    for x in XS:
        def loss_of(w, x=x.astype(np.float64)):
            y = np.tanh(x @ w) if x.mean() > 0.0 else (x * x) @ w
            return np.sum(y * y)
        expected_loss = loss_of(w)
        w = w - 0.1 * _finite_difference(loss_of, w)
        assert float(loaded.train_step(tf.constant(x))) == pytest.approx(expected_loss, rel=1e-5)
        assert float(train_step(tf.constant(x))) == pytest.approx(expected_loss, rel=1e-5)
    np.testing.assert_allclose(loaded.layer.kernel.numpy(), w, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(layer.kernel.numpy(), w, rtol=1e-4, atol=1e-6)


def called_cond_module():
    """A module whose saved function differentiates a call of another tf.function holding a tf.cond
    (the call is inlined where the tape records it; its If keeps the callee's branches)."""
    holder = tf.Module()
    holder.w = tf.Variable(W0)

    @tf.function
    def inner(x):
        return tf.cond(tf.reduce_sum(x) > 0.5, lambda: tf.tanh(tf.matmul(x, holder.w)),
                       lambda: x * holder.w[0] + 0.1)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def outer(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(inner(x) ** 2)
        return tape.gradient(loss, holder.w)

    holder.outer = outer
    return holder


def test_a_cond_in_a_called_function_differentiated_by_its_caller_saves_and_loads(tmp_path):
    holder = called_cond_module()
    tf.saved_model.save(holder, str(tmp_path / "m"))
    assert not (tmp_path / "m" / "saved_model.json").exists()
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    for x in XS:
        got = loaded.outer(tf.constant(x)).numpy()
        np.testing.assert_allclose(got, holder.outer(tf.constant(x)).numpy(), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(got, _finite_difference(lambda w: _reference("cond_grad", x, w), W0),
                                   rtol=1e-3, atol=1e-5)
