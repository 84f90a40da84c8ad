"""Values recorded from TensorFlow 2.21's Keras 3.15 by make_layers2_oracle.py (keras3_layers2_oracle.json) for
the attention, normalization, RNN cell, preprocessing and 1-D/3-D shape layer tests, and the helpers those
tests share: oracle arrays, weights, configs, and a finite-difference gradient check."""
import json
import os

import numpy as np

import eagerflow as tf

with open(os.path.join(os.path.dirname(__file__), "keras3_layers2_oracle.json")) as _f:
    ORACLE = json.load(_f)


def arr(key):
    return np.asarray(ORACLE[key], np.float32)


def weights(key):
    """The weights Keras was given (set_weights) for the layer recorded under `key`."""
    return [np.asarray(w, np.float32) for w in ORACLE[key + "_w"]]


def paths(layer):
    return [[w.path, list(w.shape)] for w in layer.weights]


def error(key):
    """(exception class name, message) that Keras raised."""
    return tuple(ORACLE[key])


def config_matches(layer, key):
    """Keras' get_config (keys in order, values), initializers compared by class name (Keras 3.15 writes
    input_axes/output_axes into GlorotUniform's config, which eagerflow's initializers do not)."""
    ours, theirs = layer.get_config(), ORACLE[key]
    assert list(ours) == list(theirs)
    for k, v in theirs.items():
        if k.endswith("initializer") and isinstance(v, dict):
            assert ours[k]["class_name"] == v["class_name"], k
        else:
            assert ours[k] == v, k


def assert_gradients_match_finite_differences(loss_fn, variables, eps=1e-6, rtol=1e-5, atol=1e-7):
    """loss_fn() -> scalar; the tape's gradient for each variable against central differences (float64)."""
    with tf.GradientTape() as tape:
        loss = loss_fn()
    grads = tape.gradient(loss, variables)
    for var, grad in zip(variables, grads):
        v0 = np.array(var.numpy())
        numeric = np.zeros_like(v0)
        for idx in np.ndindex(*v0.shape):
            values = []
            for sign in (1, -1):
                v = v0.copy()
                v[idx] += sign * eps
                var.assign(v)
                values.append(float(loss_fn()))
            numeric[idx] = (values[0] - values[1]) / (2 * eps)
        var.assign(v0)
        np.testing.assert_allclose(np.asarray(grad), numeric, rtol=rtol, atol=atol)
