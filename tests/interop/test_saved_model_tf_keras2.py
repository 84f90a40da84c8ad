"""SavedModels written the Keras 2 way (tf_keras, TensorFlow 2.21's tf.keras): `model.save(dir,
save_format="tf")` and `tf.saved_model.save(model, dir)` of an MLP, a small CNN with BatchNormalization, an
Embedding + LSTM text model and a model with two inputs and named outputs. Such directories hold what Keras 3
exports do not: keras_metadata.pb, layer objects named `layer-0` / `layer_with_weights-0` with `keras_api`
children, `__call__` and `call_and_return_all_conditional_losses` traced with training=True and False, and
Keras 2's Embedding reads its table with ResourceGather. eagerflow loads each one and its `serving_default`,
the restored `__call__` (both training modes) and the gradients through it match what TensorFlow computed."""
import numpy as np
import pytest

import eagerflow as tf

RTOL, ATOL = 1e-5, 1e-5
MODELS = ["mlp", "cnn", "lstm", "two_inputs"]
WAYS = ["model_save", "tf_save"]

# Runs under TensorFlow 2.21 with tf_keras, in the module's folder: models/NAME_WAY, io/NAME_WAY.npz with
# serving_default's inputs ("in/KEY") and outputs ("out/KEY"); for model_save also the restored __call__'s
# outputs in both training modes and the gradients of sum(square(call(x))) for every trainable variable.
_WRITE = r'''
import json, os
import numpy as np
import tensorflow as tf
import tf_keras as k2

k2.utils.set_random_seed(0)
rng = np.random.default_rng(0)
os.makedirs("io", exist_ok=True)


def mlp():
    return k2.Sequential([k2.layers.Dense(16, activation="relu", input_shape=(8,)), k2.layers.Dropout(0.2),
                          k2.layers.Dense(3, activation="softmax")]), [rng.normal(size=(4, 8))]


def cnn():
    model = k2.Sequential([k2.layers.Conv2D(4, 3, activation="relu", input_shape=(10, 10, 2)),
                           k2.layers.BatchNormalization(), k2.layers.MaxPooling2D(), k2.layers.Flatten(),
                           k2.layers.Dense(5)])
    norm = model.layers[1]  # moving statistics that are not the identity
    norm.moving_mean.assign(np.linspace(-0.5, 0.5, 4))
    norm.moving_variance.assign(np.linspace(0.5, 2.0, 4))
    return model, [rng.normal(size=(3, 10, 10, 2))]


def lstm():
    return k2.Sequential([k2.layers.Embedding(20, 6, input_length=7), k2.layers.LSTM(5),
                          k2.layers.Dense(2, activation="sigmoid")]), [rng.integers(0, 20, size=(3, 7))]


def two_inputs():
    a, b = k2.Input((4,), name="a"), k2.Input((3,), name="b")
    h = k2.layers.Concatenate()([k2.layers.Dense(5, activation="tanh")(a), b])
    model = k2.Model([a, b], {"score": k2.layers.Dense(1, name="score")(h),
                              "label": k2.layers.Dense(3, activation="softmax", name="label")(h)})
    return model, [rng.normal(size=(2, 4)), rng.normal(size=(2, 3))]


manifest = {}
for name, build in [("mlp", mlp), ("cnn", cnn), ("lstm", lstm), ("two_inputs", two_inputs)]:
    model, inputs = build()
    for way in ("model_save", "tf_save"):
        path = f"models/{name}_{way}"
        if way == "model_save":
            model.save(path, save_format="tf")
        else:
            tf.saved_model.save(model, path)
        assert os.path.exists(f"{path}/keras_metadata.pb") == (way == "model_save")
        loaded = tf.saved_model.load(path)
        signature = loaded.signatures["serving_default"]
        specs = signature.structured_input_signature[1]
        feed = {key: tf.constant(np.asarray(value).astype(specs[key].dtype.as_numpy_dtype))
                for key, value in zip(sorted(specs), inputs)}  # Keras 2 names them after the Input layers
        arrays = {f"in/{k}": v.numpy() for k, v in feed.items()}
        arrays.update({f"out/{k}": v.numpy() for k, v in signature(**feed).items()})
        if way == "model_save" and name != "two_inputs":
            x = feed[sorted(feed)[0]]
            arrays["call/inference"] = loaded(x, training=False).numpy()
            if name == "cnn":  # batch statistics in training mode
                arrays["call/training"] = loaded(x, training=True).numpy()
            with tf.GradientTape() as tape:
                total = tf.reduce_sum(tf.square(loaded(x, training=False)))
            grads = tape.gradient(total, loaded.trainable_variables)
            for i, (v, g) in enumerate(zip(loaded.trainable_variables, grads)):
                arrays[f"grad/{i}"] = tf.convert_to_tensor(g).numpy()
            manifest[f"{name}_{way}"] = [[v.name, v.shape.as_list(), bool(v.trainable)] for v in loaded.variables]
        np.savez(f"io/{name}_{way}.npz", **arrays)
print(json.dumps(manifest))
'''


@pytest.fixture(scope="module")
def written(run_tf_in_module_folder):
    folder, run_tf = run_tf_in_module_folder
    if not run_tf("import importlib.util, json; print(json.dumps(importlib.util.find_spec('tf_keras') is not None))"):
        pytest.skip("needs tf_keras (Keras 2) beside TensorFlow: .ci/run's interop stage installs it")
    return folder, run_tf(_WRITE, timeout=900)


def _stored(folder, model):
    return dict(np.load(folder / "io" / f"{model}.npz"))


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", MODELS)
def test_serving_default_returns_tensorflows_outputs(written, name, way):
    folder, _ = written
    model = f"{name}_{way}"
    stored = _stored(folder, model)
    loaded = tf.saved_model.load(str(folder / "models" / model))
    feed = {k[len("in/"):]: tf.constant(v) for k, v in stored.items() if k.startswith("in/")}
    out = loaded.signatures["serving_default"](**feed)
    expected = {k[len("out/"):]: v for k, v in stored.items() if k.startswith("out/")}
    assert sorted(out) == sorted(expected)
    for key, value in expected.items():
        np.testing.assert_allclose(out[key].numpy(), value, rtol=RTOL, atol=ATOL, err_msg=key)


@pytest.mark.parametrize("name", ["mlp", "cnn", "lstm"])
def test_the_restored_call_and_its_gradients_are_tensorflows(written, name):
    folder, manifest = written
    model = f"{name}_model_save"
    stored = _stored(folder, model)
    loaded = tf.saved_model.load(str(folder / "models" / model))
    assert [[v.name, v.shape.as_list(), bool(v.trainable)] for v in loaded.variables] == manifest[model]
    x = tf.constant(next(v for k, v in stored.items() if k.startswith("in/")))
    np.testing.assert_allclose(loaded(x, training=False).numpy(), stored["call/inference"], rtol=RTOL, atol=ATOL)
    if "call/training" in stored:
        np.testing.assert_allclose(loaded(x, training=True).numpy(), stored["call/training"], rtol=1e-4, atol=1e-5)
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(tf.square(loaded(x, training=False)))
    grads = tape.gradient(total, loaded.trainable_variables)
    assert len(grads) == sum(k.startswith("grad/") for k in stored)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), stored[f"grad/{i}"], rtol=1e-4, atol=1e-5,
                                   err_msg=loaded.trainable_variables[i].name)


def test_keras_2_layer_objects_load_under_tensorflows_names(written):
    folder, _ = written
    loaded = tf.saved_model.load(str(folder / "models" / "lstm_model_save"))
    embedding = getattr(loaded, "layer_with_weights-0")  # Keras 2's checkpoint names, as TensorFlow's setattr
    assert getattr(loaded, "layer-0") is embedding
    assert embedding.embeddings.shape.as_list() == [20, 6]
    assert hasattr(embedding, "keras_api") and hasattr(embedding, "call_and_return_all_conditional_losses")
