"""SavedModels real TensorFlow 2.21 wrote (fixtures/tf_written/, made by fixtures/make_tf_written.py from
the differential suite's script) load and give TensorFlow's outputs without TensorFlow: Keras
preprocessing (StringLookup, TextVectorization and Normalization: hash tables, a mutable table restored
from the checkpoint, ragged string splits), IntegerLookup/Hashing/CategoryEncoding/Discretization, a
tf.lookup.StaticHashTable, tf.cond/tf.while_loop/TensorArray/tf.switch_case, and a training step that
differentiates itself (TensorFlow's gradient ops); and two saved `@tf.custom_gradient`s (a Keras
activation's, which reads forward values, and a clipping one) whose gradients are TensorFlow's. Floats
within rtol 1e-5, the rest exactly."""
from pathlib import Path

import numpy as np
import pytest

import eagerflow as tf
from tests.interop.tf_savedmodel_compare import call_loaded, compare, recorded_files

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tf_written"
MODELS = ["preprocessing", "control_flow", "train_step", "keras_lookups", "hash_table", "identity_n", "activations"]


@pytest.mark.parametrize("name", MODELS)
def test_a_tensorflow_written_model_gives_tensorflows_outputs(name):
    folder = FIXTURES / name
    loaded = tf.saved_model.load(str(folder / "model"))
    stored = recorded_files(folder / "expected.npz", folder / "expected.strings.json")
    assert stored, "no recorded calls"
    problems = []
    for call, (inputs, expected) in stored.items():
        problems += compare(name, call, call_loaded(loaded, call, inputs), expected)
    assert not problems, "\n".join(problems)


def test_the_tables_of_a_keras_preprocessing_model_are_their_contents():
    loaded = tf.saved_model.load(str(FIXTURES / "preprocessing" / "model"))
    out = loaded.signatures["serving_default"](numbers=tf.zeros([1, 3]), color=tf.constant([["blue"]]),
                                               text=tf.constant([["the cat the"]]))
    assert out["color"].numpy().tolist() == [[3]]  # [UNK] 0, red 1, green 2, blue 3
    tokens = out["text"].numpy().tolist()[0]
    assert tokens[0] == tokens[2] and tokens[3:] == [0, 0]  # padded to the output sequence length


def test_a_saved_custom_gradient_is_the_gradient():
    loaded = tf.saved_model.load(str(FIXTURES / "identity_n" / "model"))
    stored = np.load(FIXTURES / "identity_n" / "expected.gradients.npz")
    x = tf.constant(stored["x"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(loaded.serve(x)["y"] * 10.0)
    gx, gv = tape.gradient(loss, [x, loaded.v])
    # y = 2 * (x * v) with the gradient 20 of y clipped to 1 by the saved function: d/dx is v itself
    np.testing.assert_allclose(stored["gx"], np.broadcast_to(loaded.v.numpy(), stored["gx"].shape), rtol=1e-6)
    np.testing.assert_allclose(gx.numpy(), stored["gx"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gv.numpy(), stored["gv"], rtol=1e-5, atol=1e-6)


def test_a_keras_activations_saved_gradient_reads_the_forward_values():
    loaded = tf.saved_model.load(str(FIXTURES / "activations" / "model"))
    stored = np.load(FIXTURES / "activations" / "expected.gradients.npz")
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(tf.square(loaded.serve(tf.constant(stored["x"]))))
    grads = tape.gradient(total, loaded.trainable_variables)
    np.testing.assert_allclose(float(total), stored["total"], rtol=1e-5)
    assert len(grads) == len([k for k in stored.files if k.startswith("g")])
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g.numpy(), stored[f"g{i}"], rtol=1e-4, atol=1e-5)
