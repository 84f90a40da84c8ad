"""Keras 3 files exchanged with real Keras 3.15 (TensorFlow 2.21): `.keras` archives and `.weights.h5`
files written by one side and read by the other, for a Sequential MLP with BatchNormalization and
Dropout, a CNN, an Embedding+LSTM+GRU+MultiHeadAttention text model, a model with two inputs and two
named outputs, and a registered subclassed model, each trained a few Adam steps so the archive holds
an optimizer state, and adapted lookup layers. Predictions agree to float32 precision (1e-5 relative),
and both sides file the same groups and shapes."""
import numpy as np
import pytest

from eagerflow import keras
from tests.interop.keras_file_models import MODEL_NAMES, SOURCE, namespace

h5py = pytest.importorskip("h5py")

RTOL, ATOL = 1e-5, 1e-6
STEPS = 4  # two epochs of two batches: the optimizer's iterations after training

TF_PRELUDE = f"""
import json
import numpy as np
import keras
SCOPE = {{"keras": keras}}
exec({SOURCE!r}, SCOPE)
build, predictions = SCOPE["build"], SCOPE["predictions"]
NAMES = {MODEL_NAMES!r}
"""


def _listing(path):
    """{dataset path: shape} of an HDF5 file."""
    out = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda n, o: out.__setitem__(n, o.shape) if isinstance(o, h5py.Dataset) else None)
    return out


def _train(model, x, y):
    model.fit(x, y, epochs=2, batch_size=4, verbose=0)


def _assert_close(got, want, what):
    assert sorted(got) == sorted(want), what
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=RTOL, atol=ATOL, err_msg=f"{what}: output {key}")


def test_eagerflow_reads_what_keras_writes(run_tf, tmp_path):
    written = run_tf(TF_PRELUDE + """
        out = {}
        for name in NAMES:
            keras.utils.set_random_seed(0)
            model, x, y = build(name)
            model.fit(x, y, epochs=2, batch_size=4, verbose=0)
            model.save(name + ".keras")
            model.save_weights(name + ".weights.h5")
            np.savez(name + ".predictions.npz", **predictions(model, x))
            out[name] = int(model.optimizer.iterations.numpy())
        print(json.dumps(out))
    """.replace("\n        ", "\n"))
    assert written == {name: STEPS for name in MODEL_NAMES}
    scope = namespace(keras)  # registers the subclassed model's class, as the loading program would
    for name in MODEL_NAMES:
        expected = dict(np.load(tmp_path / f"{name}.predictions.npz"))
        _, x, _ = scope["build"](name)
        loaded = keras.models.load_model(tmp_path / f"{name}.keras")
        _assert_close(scope["predictions"](loaded, x), expected, f"{name}.keras")
        assert int(loaded.optimizer.iterations) == STEPS, name
        with h5py.File(tmp_path / f"{name}.weights.h5", "r") as f:  # the file's optimizer slots, read directly
            stored = [f[f"optimizer/vars/{i}"][()] for i in range(len(f["optimizer/vars"]))]
        assert len(stored) == len(loaded.optimizer.variables) > 2, name
        for value, variable in zip(stored, loaded.optimizer.variables):
            np.testing.assert_allclose(variable.numpy(), value, rtol=RTOL, atol=ATOL, err_msg=name)
        fresh, x, _ = scope["build"](name)
        with pytest.warns(UserWarning, match="Skipping variable loading for optimizer"):  # as Keras: unbuilt
            fresh.load_weights(tmp_path / f"{name}.weights.h5")
        _assert_close(scope["predictions"](fresh, x), expected, f"{name}.weights.h5")
        # the same architecture trained by eagerflow lists the same groups and shapes as Keras' file
        _train(fresh, x, scope["build"](name)[2])
        fresh.save_weights(tmp_path / f"ef_{name}.weights.h5")
        assert _listing(tmp_path / f"ef_{name}.weights.h5") == _listing(tmp_path / f"{name}.weights.h5"), name
    keras_text = _listing(tmp_path / "text.weights.h5")
    assert {"layers/lstm/cell/vars/0", "layers/gru/cell/vars/2", "layers/multi_head_attention/query_dense/vars/0",
            "layers/multi_head_attention/output_dense/vars/1"} <= set(keras_text)
    # a list attribute's entries by class name; a sublayer first reached through Model.layers filed there
    assert {"blocks/dense/vars/0", "blocks/dense_1/vars/0", "layers/batch_normalization/vars/3"} <= set(
        _listing(tmp_path / "subclassed.weights.h5"))


def test_keras_reads_what_eagerflow_writes(run_tf, tmp_path):
    scope = namespace(keras)
    for name in MODEL_NAMES:
        keras.utils.set_random_seed(0)
        model, x, y = scope["build"](name)
        _train(model, x, y)
        model.save(tmp_path / f"{name}.keras")
        model.save_weights(tmp_path / f"{name}.weights.h5")
        np.savez(tmp_path / f"{name}.predictions.npz", **scope["predictions"](model, x))
    answers = run_tf(TF_PRELUDE + """
        def worst(got, want):
            assert sorted(got) == sorted(want), (sorted(got), sorted(want))
            return max(float(np.max(np.abs(got[k] - want[k]) / (np.abs(want[k]) + 1e-1))) for k in want)
        out = {}
        for name in NAMES:
            want = dict(np.load(name + ".predictions.npz"))
            _, x, _ = build(name)
            loaded = keras.models.load_model(name + ".keras")
            fresh, x, _ = build(name)
            fresh.load_weights(name + ".weights.h5")
            close = all(np.allclose(predictions(m, x)[k], want[k], rtol=%r, atol=%r)
                        for m in (loaded, fresh) for k in want)
            out[name] = {"close": close, "worst": max(worst(predictions(loaded, x), want),
                                                      worst(predictions(fresh, x), want)),
                         "iterations": int(loaded.optimizer.iterations.numpy()),
                         "class": type(loaded).__name__,
                         "optimizer_variables": len(loaded.optimizer.variables)}
        print(json.dumps(out))
    """.replace("\n        ", "\n") % (RTOL, ATOL))
    for name in MODEL_NAMES:
        answer = answers[name]
        assert answer["close"], (name, answer)
        assert answer["iterations"] == STEPS, (name, answer)
        assert answer["optimizer_variables"] > 2, (name, answer)
    assert answers["subclassed"]["class"] == "Residual"
    assert answers["mlp"]["class"] == "Sequential" and answers["cnn"]["class"] == "Functional"


LOOKUP_MODEL = """
import numpy as np
def lookup_model(keras):
    inputs = keras.Input((1,), dtype="string")
    strings = keras.layers.StringLookup()
    strings.adapt(np.array([["a"], ["b"], ["b"], ["c"]]))
    words = keras.layers.TextVectorization(max_tokens=10, output_sequence_length=3)
    words.adapt(np.array(["x y", "y z", "z z w"]))
    weighted = keras.layers.StringLookup(output_mode="tf_idf")
    weighted.adapt(np.array(["a", "b", "b", "c"]))
    weighted_words = keras.layers.TextVectorization(output_mode="tf_idf")
    weighted_words.adapt(np.array(["x y", "y z", "y"]))
    sentences = keras.layers.Reshape(())(inputs)
    return keras.Model(inputs, [strings(inputs), words(sentences), weighted(inputs), weighted_words(sentences)])
X = np.array([["b"], ["x y"], ["c"], ["w q z"]])
"""


def test_adapted_vocabularies_travel_both_ways(run_tf, tmp_path):
    """Lookup layers' vocabularies (assets/<place>/vocabulary.txt) and tf-idf weights (an `idf_weights`
    dataset in the layer's group of the HDF5 file)."""
    scope = {}
    exec(LOOKUP_MODEL, scope)  # noqa: S102 - the test's own source
    mine = scope["lookup_model"](keras)
    mine.save(tmp_path / "ef_lookup.keras")
    answer = run_tf(LOOKUP_MODEL + """
        import json, keras
        theirs = lookup_model(keras)
        theirs.save("tf_lookup.keras")
        loaded = keras.models.load_model("ef_lookup.keras")
        import tensorflow as tf
        strings = tf.constant(X)  # Keras 3 takes strings as a TensorFlow tensor
        print(json.dumps({"theirs": [o.numpy().tolist() for o in theirs(strings)],
                          "loaded": [o.numpy().tolist() for o in loaded(strings)]}))
    """.replace("\n        ", "\n"))
    for outputs in (answer["loaded"], mine.predict(scope["X"], verbose=0),
                    keras.models.load_model(tmp_path / "tf_lookup.keras").predict(scope["X"], verbose=0)):
        assert len(outputs) == len(answer["theirs"]) == 4
        for got, want in zip(outputs, answer["theirs"]):  # indices exactly, tf-idf values to float32 precision
            np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=RTOL, atol=ATOL)
