"""Keras models saved by eagerflow's tf.saved_model.save, served by real TensorFlow 2.21: the signature runs and
returns eagerflow's values, `saved_model_cli show --all` lists it with eagerflow's names, dtypes and shapes, and
for the models TFLite supports, TFLiteConverter.from_saved_model converts and the interpreter agrees."""
import numpy as np
import pytest

from eagerflow import keras

RTOL, ATOL = 1e-5, 1e-5

# Runs in TensorFlow's process, in the test's folder: the SavedModel is ./m, the inputs inputs.npz.
_SERVE = """
    import contextlib, io, json, sys
    import numpy as np
    import tensorflow as tf
    from tensorflow.python.tools import saved_model_cli
    inputs = dict(np.load("inputs.npz"))
    sig = tf.saved_model.load("m").signatures["serving_default"]
    served = {k: v.numpy().tolist() for k, v in sig(**{k: tf.constant(v) for k, v in inputs.items()}).items()}
    # `saved_model_cli show --all --dir m`, the tool's own main in this process (not a second TensorFlow start)
    sys.argv = ["saved_model_cli", "show", "--all", "--dir", "m"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            saved_model_cli.main()
        except SystemExit as done:  # absl's app.run ends with it
            assert not done.code, done.code
    cli = printed.getvalue()
    lite = None
    if TFLITE:
        converter = tf.lite.TFLiteConverter.from_saved_model("m")
        interpreter = tf.lite.Interpreter(model_content=converter.convert())
        runner = interpreter.get_signature_runner("serving_default")
        lite = {k: np.asarray(v).tolist() for k, v in runner(**inputs).items()}
    print(json.dumps({"served": served, "cli": cli, "lite": lite}))
"""


def _serve(run_tf, tmp_path, model, inputs, tflite):
    import eagerflow as tf
    tf.saved_model.save(model, str(tmp_path / "m"))
    np.savez(tmp_path / "inputs.npz", **inputs)
    return run_tf(f"TFLITE = {tflite!r}\n" + _dedent(_SERVE), timeout=600)


def _dedent(text):
    import textwrap
    return textwrap.dedent(text)


def _check(answer, expected, tflite):
    assert sorted(answer["served"]) == sorted(expected)
    for key, value in expected.items():
        np.testing.assert_allclose(answer["served"][key], value, rtol=RTOL, atol=ATOL)
        if tflite:
            np.testing.assert_allclose(answer["lite"][key], value, rtol=1e-4, atol=1e-5)


def _mnist_mlp():
    return keras.Sequential([keras.Input((28, 28)), keras.layers.Flatten(), keras.layers.Dense(128, activation="relu"),
                             keras.layers.Dropout(0.2), keras.layers.Dense(10, activation="softmax")])


def test_the_mnist_mlp_serves_and_converts_to_tflite(tmp_path, run_tf):
    model = _mnist_mlp()
    x = np.random.default_rng(0).random((3, 28, 28)).astype(np.float32)
    answer = _serve(run_tf, tmp_path, model, {"inputs": x}, tflite=True)
    _check(answer, {"output_0": model(x).numpy()}, tflite=True)
    cli = answer["cli"]
    assert "signature_def['serving_default']:" in cli
    assert "inputs['inputs'] tensor_info:\n        dtype: DT_FLOAT\n        shape: (-1, 28, 28)" in cli
    assert "outputs['output_0'] tensor_info:\n        dtype: DT_FLOAT\n        shape: (-1, 10)" in cli
    assert "Method name is: tensorflow/serving/predict" in cli


def test_a_cnn_with_batch_norm_and_dropout_serves_and_converts_to_tflite(tmp_path, run_tf):
    model = keras.Sequential([keras.Input((12, 12, 1)), keras.layers.Conv2D(4, 3, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(),
                              keras.layers.Conv2D(6, 3, padding="same", strides=2), keras.layers.Flatten(),
                              keras.layers.Dropout(0.3), keras.layers.Dense(5)])
    x = np.random.default_rng(1).normal(size=(2, 12, 12, 1)).astype(np.float32)
    model.layers[1].moving_mean.assign(np.linspace(-0.5, 0.5, 4).astype(np.float32))  # not the identity
    answer = _serve(run_tf, tmp_path, model, {"inputs": x}, tflite=True)
    _check(answer, {"output_0": model(x).numpy()}, tflite=True)
    assert "shape: (-1, 12, 12, 1)" in answer["cli"]


def test_an_embedding_lstm_text_model_serves_and_converts_to_tflite(tmp_path, run_tf):
    # TFLite converts eagerflow's LSTM loop (a StatelessWhile over the time steps) with its builtin WHILE op.
    model = keras.Sequential([keras.Input((7,), dtype="int32"), keras.layers.Embedding(30, 8), keras.layers.LSTM(6),
                              keras.layers.Dense(2, activation="sigmoid")])
    x = np.random.default_rng(2).integers(0, 30, size=(3, 7)).astype(np.int32)
    answer = _serve(run_tf, tmp_path, model, {"inputs": x}, tflite=True)
    _check(answer, {"output_0": model(x).numpy()}, tflite=True)
    assert "dtype: DT_INT32\n        shape: (-1, 7)" in answer["cli"]


def test_two_inputs_and_two_named_outputs(tmp_path, run_tf):
    a = keras.Input((4,), name="a")
    b = keras.Input((3,), name="b")
    merged = keras.layers.Concatenate()([keras.layers.Dense(5, activation="tanh")(a), b])
    model = keras.Model({"a": a, "b": b}, {"score": keras.layers.Dense(1, name="score")(merged),
                                           "label": keras.layers.Dense(3, activation="softmax", name="label")(merged)})
    rng = np.random.default_rng(3)
    inputs = {"a": rng.normal(size=(2, 4)).astype(np.float32), "b": rng.normal(size=(2, 3)).astype(np.float32)}
    # TensorFlow 2.21 with Keras 3 names a dict-input model's signature inputs `inputs`, `inputs_1` (in the
    # order of the model's inputs) and its outputs by the output dict's keys.
    answer = _serve(run_tf, tmp_path, model, {"inputs": inputs["a"], "inputs_1": inputs["b"]}, tflite=False)
    out = model(inputs)
    _check(answer, {"score": out["score"].numpy(), "label": out["label"].numpy()}, tflite=False)
    assert "inputs['inputs_1'] tensor_info:\n        dtype: DT_FLOAT\n        shape: (-1, 3)" in answer["cli"]
    assert "outputs['label'] tensor_info" in answer["cli"]


