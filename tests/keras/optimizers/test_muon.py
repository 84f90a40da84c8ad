"""keras.optimizers.Muon against Keras 3.15: weights after several steps of each rule (Muon on wide
and tall matrices, AdamW on vectors, embeddings and excluded layers), the slots made, get_config and
the serialization names, from muon_keras_3_15.json (make_muon_oracle.py ran the same muon_cases.py
on TensorFlow 2.21's Keras). Plus what the Newton-Schulz step is for, checked with NumPy's SVD."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf

from .muon_cases import RUNS, run

keras = tf.keras

with open(os.path.join(os.path.dirname(__file__), "muon_keras_3_15.json")) as _f:
    ORACLE = json.load(_f)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_weights_after_steps_match_keras(name):
    arguments, steps = RUNS[name]
    values, slots = run(keras, tf, arguments, steps)
    expected = ORACLE["runs"][name]
    assert slots == expected["optimizer_variables"]
    assert sorted(values) == sorted(expected["values"])
    for path, want in expected["values"].items():
        np.testing.assert_allclose(values[path], want, rtol=1e-5, atol=1e-6, err_msg=path)


def test_slots_follow_the_rule_each_weight_gets():
    # Muon weights keep a momentum only; AdamW ones a momentum and a velocity (Keras' names and order)
    assert ORACLE["runs"]["default"]["optimizer_variables"] == [
        "iteration", "learning_rate", "dense_kernel_momentum", "dense_bias_momentum", "dense_bias_velocity",
        "token_embedding_embeddings_momentum", "token_embedding_embeddings_velocity", "tall_kernel_momentum",
        "wide_kernel_momentum"]


def test_get_config_and_serialization_names_match_keras():
    assert keras.optimizers.Muon(learning_rate=0.01, name="mu").get_config() == ORACLE["config"]
    assert type(keras.optimizers.get("muon")).__name__ == "Muon"
    assert keras.optimizers.get("muon").name.startswith("muon")
    s = keras.optimizers.serialize(keras.optimizers.Muon(exclude_layers=["head"]))
    assert (s["module"], s["class_name"], s["registered_name"]) == ("keras.optimizers", "Muon", None)
    assert keras.optimizers.deserialize(s).exclude_layers == ["head"]
    with pytest.raises(ValueError, match=r"Argument\(s\) not recognized: \{'foo': 1\}"):
        keras.optimizers.Muon(foo=1)


@pytest.mark.parametrize("shape", [(4, 7), (9, 3)])
def test_newton_schulz_step_is_close_to_the_polar_factor(shape):
    """Muon's direction approximates U V^T of the momentum's SVD: every singular value lands near 1
    (the quintic's coefficients trade exactness for speed: roughly 0.7 to 1.2) and the singular
    vectors are kept."""
    g = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    out = keras.optimizers.Muon()._orthogonalize(tf.constant(g)).numpy()
    u, s, vt = np.linalg.svd(g, full_matrices=False)
    s_out = np.linalg.svd(out, compute_uv=False)
    assert np.all((s_out > 0.6) & (s_out < 1.25)), s_out
    np.testing.assert_allclose(u.T @ out @ vt.T, np.diag(np.diag(u.T @ out @ vt.T)), atol=1e-4)


def test_a_step_inside_tf_function_equals_the_eager_step():
    init = np.random.default_rng(1).standard_normal((3, 5)).astype(np.float32)
    grad = tf.constant(np.random.default_rng(2).standard_normal((3, 5)).astype(np.float32))
    eager_w, graph_w = tf.Variable(init), tf.Variable(init)
    eager_opt, graph_opt = keras.optimizers.Muon(0.02), keras.optimizers.Muon(0.02)
    step = tf.function(lambda: graph_opt.apply_gradients([(grad, graph_w)]))
    for _ in range(2):
        eager_opt.apply_gradients([(grad, eager_w)])
        step()
    np.testing.assert_allclose(graph_w.numpy(), eager_w.numpy(), rtol=1e-6, atol=1e-7)
    assert not np.allclose(eager_w.numpy(), init)
