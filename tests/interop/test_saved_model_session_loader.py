"""eagerflow's SavedModels through the loading path TF Serving uses, in TensorFlow 2.21's processes that never
imported eagerflow: the MetaGraphDef's main graph, not the object graph, restored through its SaverDef, the init
op run with the assets' paths fed, and every SignatureDef run in a Session by its tensor names.

Three loaders read each model: TensorFlow's C++ loader (`tensorflow::LoadSavedModel`, which TF Serving links;
reached with ctypes through TensorFlow's C API in a process that imports neither TensorFlow's Python nor
eagerflow: tf_capi_runner.py), TensorFlow 1's Python loader `tf.compat.v1.saved_model.loader.load` with
`Session.run`, and TensorFlow's `saved_model_cli run` (both in tf_session_runner.py). Each output is compared
with what eagerflow's own objects return (float32 within 1e-5 relative; integers and strings exactly).
The TF Serving binary itself is not run: no package index this project can use carries tensorflow_model_server.
"""
import pathlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

from tests.interop.test_parse_example_interop import _batch, _Served
from tests.interop.test_saved_model_tf_loads import _TwoVariables

HERE = pathlib.Path(__file__).resolve().parent  # tf_session_runner.py and tf_capi_runner.py: TensorFlow's scripts

RTOL, ATOL = 1e-5, 1e-6
LOADERS = ("capi", "session", "cli")


def _plain(value):
    value = value.numpy() if hasattr(value, "numpy") else np.asarray(value)
    return value.astype(bytes) if value.dtype == object else value


def _module():
    m = _TwoVariables()  # two variables, two functions; `looped` holds a tf.cond and a tf.while_loop
    m.scaled = tf.function(lambda x, y: x * m.shift + y).get_concrete_function(
        tf.TensorSpec([2], tf.float32, name="x"), tf.TensorSpec([], tf.float32, name="y"))  # a bare ConcreteFunction
    x = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
    runs = {"serving_default": ({"x": x}, m.affine(x)),
            "looped": ({"x": np.float32(2.0), "n": np.int32(3)}, {"output_0": m.looped(2.0, 3)}),
            "looped_else": ({"x": np.float32(-1.0), "n": np.int32(4)}, {"output_0": m.looped(-1.0, 4)})}
    return m, {"serving_default": m.affine, "looped": m.looped, "looped_else": m.looped}, runs


def _seed_model():
    return keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(3)])


def _seed_serving_fn():
    model = _seed_model()

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32)])
    def serving_fn(x):
        return model(x, training=False)

    x = np.random.default_rng(1).normal(size=(5, 6)).astype(np.float32)
    return model, {"serving_default": serving_fn}, {"serving_default": ({"x": x}, {"output_0": model(x)})}


def _seed_concrete_function():
    model = _seed_model()

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32, "input_image")])
    def serve_inference(image):
        return model(image, training=False)

    x = np.random.default_rng(2).normal(size=(5, 6)).astype(np.float32)
    return (model, {"serving_default": serve_inference.get_concrete_function()},
            {"serving_default": ({"input_image": x}, {"output_0": model(x)})})


def _keras(model, x):
    """A Keras model under its default signature (its one input is `inputs`)."""
    return model, None, {"serving_default": ({"inputs": x}, {"output_0": model(x)})}


def _mnist_mlp():
    model = keras.Sequential([keras.Input((28, 28)), keras.layers.Flatten(), keras.layers.Dense(128, activation="relu"),
                              keras.layers.Dropout(0.2), keras.layers.Dense(10, activation="softmax")])
    return _keras(model, np.random.default_rng(0).random((3, 28, 28)).astype(np.float32))


def _cnn():
    model = keras.Sequential([keras.Input((12, 12, 1)), keras.layers.Conv2D(4, 3, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(),
                              keras.layers.Conv2D(6, 3, padding="same", strides=2), keras.layers.Flatten(),
                              keras.layers.Dropout(0.3), keras.layers.Dense(5)])
    model.layers[1].moving_mean.assign(np.linspace(-0.5, 0.5, 4).astype(np.float32))  # restored, not the default
    model.layers[1].moving_variance.assign(np.linspace(0.5, 2.0, 4).astype(np.float32))
    return _keras(model, np.random.default_rng(1).normal(size=(2, 12, 12, 1)).astype(np.float32))


def _embedding_lstm():
    model = keras.Sequential([keras.Input((7,), dtype="int32"), keras.layers.Embedding(30, 8), keras.layers.LSTM(6),
                              keras.layers.Dense(2, activation="sigmoid")])
    return _keras(model, np.random.default_rng(2).integers(0, 30, size=(3, 7)).astype(np.int32))


def _two_inputs_two_outputs():
    a, b = keras.Input((4,), name="a"), keras.Input((3,), name="b")
    merged = keras.layers.Concatenate()([keras.layers.Dense(5, activation="tanh")(a), b])
    model = keras.Model({"a": a, "b": b}, {"score": keras.layers.Dense(1, name="score")(merged),
                                           "label": keras.layers.Dense(3, activation="softmax", name="label")(merged)})
    rng = np.random.default_rng(3)
    xa, xb = rng.normal(size=(2, 4)).astype(np.float32), rng.normal(size=(2, 3)).astype(np.float32)
    # TensorFlow 2.21 with Keras 3 names a dict-input model's inputs `inputs`, `inputs_1` (the model's order)
    return model, None, {"serving_default": ({"inputs": xa, "inputs_1": xb}, model({"a": xa, "b": xb}))}


def _parse_example():
    m = _Served()  # classify and regress signatures parsing serialized tf.train.Example (ParseExampleV2)
    batch = _batch()
    assert not any(s.endswith(b"\0") for s in batch.numpy().tolist())  # bytes arrays keep them whole
    return (m, {"classify": m.classify, "regress": m.regress},
            {"classify": ({"inputs": batch}, m.classify(batch)), "regress": ({"inputs": batch}, m.regress(batch))})


class _Tables(tf.Module):
    """A static hash table, a vocabulary table with hash buckets, a mutable table filled before saving, and a
    table read from a vocabulary file, looked up together."""

    def __init__(self, vocabulary_file):
        super().__init__()
        strings = tf.constant(["a", "b", "c"])
        self.static = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(strings, tf.constant([1, 2, 3], tf.int64)), -1)
        self.vocab = tf.lookup.StaticVocabularyTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant(["x", "y"]), tf.constant([0, 1], tf.int64)), 3)
        self.mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, -1.0)
        self.mutable.insert(tf.constant(["p", "q"]), tf.constant([0.5, 1.5]))
        self.from_file = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocabulary_file, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
            tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="keys")])
    def find(self, keys):
        return {"static": self.static.lookup(keys), "vocab": self.vocab.lookup(keys),
                "mutable": self.mutable.lookup(keys), "from_file": self.from_file.lookup(keys)}


def _tables(folder):
    (folder / "words.txt").write_text("q\nc\nzz\n")
    m = _Tables(str(folder / "words.txt"))
    keys = tf.constant(["a", "x", "p", "zz", "q", "c", "y"])
    return m, {"serving_default": m.find}, {"serving_default": ({"keys": keys}, m.find(keys))}


def _string_lookup():
    inp = keras.Input(shape=(2,), dtype="string", name="color")
    model = keras.Model(inp, keras.layers.StringLookup(vocabulary=["red", "green", "blue"])(inp))
    return _keras(model, tf.constant([["blue", "red"], ["zzz", "green"]]))


def _asset(folder):
    (folder / "note.txt").write_text("first\nsecond\n")
    m = tf.Module()
    m.note = tf.saved_model.Asset(str(folder / "note.txt"))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="prefix")])
    def read(prefix):
        text = tf.io.read_file(m.note.asset_path)
        return {"joined": tf.strings.join([prefix, text]), "length": tf.strings.length(text)}

    m.read = read
    prefix = tf.constant(["a:", "b:"])
    return m, {"serving_default": m.read}, {"serving_default": ({"prefix": prefix}, m.read(prefix))}


def _write(folder):
    """Saves every model under folder/models, its inputs under folder/inputs; {model: {signature:
    {output key: eagerflow's value}}}."""
    makers = {"module": _module, "seed_serving_fn": _seed_serving_fn, "seed_concrete_function": _seed_concrete_function,
              "mnist_mlp": _mnist_mlp, "cnn": _cnn, "embedding_lstm": _embedding_lstm,
              "two_inputs_two_outputs": _two_inputs_two_outputs, "parse_example": _parse_example,
              "tables": lambda: _tables(folder), "string_lookup": _string_lookup, "asset": lambda: _asset(folder)}
    (folder / "inputs").mkdir()
    expected = {}
    for name, make in makers.items():
        obj, signatures, runs = make()
        tf.saved_model.save(obj, str(folder / "models" / name), signatures=signatures)
        expected[name] = {}
        for key, (inputs, outputs) in runs.items():
            np.savez(folder / "inputs" / f"{name}.{key}.npz", **{k: _plain(v) for k, v in inputs.items()})
            expected[name][key] = {k: _plain(v) for k, v in outputs.items()}
    for path in (folder / "note.txt", folder / "words.txt"):
        path.unlink()  # the loaders read the models' copies in assets/
    return expected


@pytest.fixture(scope="module")
def served(run_tf_in_module_folder):
    """(eagerflow's values, the Python loader's and saved_model_cli's report, the C++ loader's report, folder)."""
    folder, run_tf = run_tf_in_module_folder
    expected = _write(folder)
    python_side = run_tf((HERE / "tf_session_runner.py").read_text(), timeout=900)
    c_side = run_tf((HERE / "tf_capi_runner.py").read_text(), timeout=600)
    return expected, python_side, c_side, folder


def _outputs(folder, loader, model, key, names):
    if loader == "cli":  # saved_model_cli run --outdir: one OUTPUT_KEY.npy per output
        return {k: np.load(folder / "cli" / f"{model}.{key}" / f"{k}.npy", allow_pickle=False) for k in names}
    with np.load(folder / loader / f"{model}.{key}.npz", allow_pickle=False) as stored:
        return {k: stored[k] for k in stored.files}


def _check(served, model, show_parts=()):
    expected, python_side, c_side, folder = served
    report = python_side[model]
    assert report["load"] is None, report["load"]
    assert c_side[model]["load"] is None, c_side[model]["load"]
    assert sorted(report["signatures"]) == sorted(expected[model])
    for key, outputs in expected[model].items():
        sig = report["signatures"][key]
        assert sig["method"] == "tensorflow/serving/predict"  # what TensorFlow 2.21's save writes for every key
        assert sorted(sig["outputs"]) == sorted(outputs)
        for loader, errors in (("capi", c_side[model]["runs"]), ("session", report["session"]),
                               ("cli", report["cli"])):
            assert errors[key] is None, f"{loader} {model}/{key}: {errors[key]}"
            got = _outputs(folder, loader, model, key, outputs)
            assert sorted(got) == sorted(outputs), (loader, model, key)
            for name, want in outputs.items():
                where = f"{loader} {model}/{key}/{name}"
                assert got[name].shape == want.shape, where
                if want.dtype.kind == "f":
                    assert got[name].dtype == want.dtype, where
                    np.testing.assert_allclose(got[name], want, rtol=RTOL, atol=ATOL, err_msg=where)
                else:
                    assert got[name].tolist() == want.tolist(), where
    show = report["show"]
    for key in expected[model]:
        assert f"signature_def['{key}']:" in show
    for part in show_parts:
        assert part in show, part
    return report


def test_a_module_with_two_variables_a_cond_and_a_while_loop(served):
    report = _check(served, "module", ["inputs['n'] tensor_info:\n        dtype: DT_INT32\n        shape: ()"])
    assert report["signatures"]["serving_default"]["inputs"]["x"][1:] == ["float32", [-1, 2]]


@pytest.mark.parametrize("model", ["seed_serving_fn", "seed_concrete_function"])
def test_the_seed_programs_exports(served, model):
    report = _check(served, model)
    key = "x" if model == "seed_serving_fn" else "input_image"
    assert report["signatures"]["serving_default"]["inputs"][key][1:] == ["float32", [-1, 6]]


@pytest.mark.parametrize("model", ["mnist_mlp", "cnn", "embedding_lstm"])
def test_keras_models(served, model):
    _check(served, model, ["Method name is: tensorflow/serving/predict"])


def test_two_inputs_and_two_named_outputs(served):
    report = _check(served, "two_inputs_two_outputs")
    assert sorted(report["signatures"]["serving_default"]["inputs"]) == ["inputs", "inputs_1"]


def test_classify_and_regress_signatures_parsing_examples(served):
    report = _check(served, "parse_example")
    assert report["signatures"]["classify"]["inputs"]["inputs"][1:] == ["string", [-1]]
    np.testing.assert_allclose(served[0]["parse_example"]["regress"]["outputs"], [9.0, -3.5, 2.0])  # TF 2.21's


def test_lookup_tables(served):
    _check(served, "tables")
    expected = served[0]["tables"]["serving_default"]  # TensorFlow 2.21's own tables answer the same for these keys
    assert expected["static"].tolist() == [1, -1, -1, -1, -1, 3, -1]
    assert expected["vocab"].tolist() == [2, 0, 4, 3, 4, 3, 1]  # ids 0-1 the vocabulary, 2-4 the hash buckets
    assert expected["from_file"].tolist() == [-1, -1, -1, 2, 0, 1, -1]
    assert expected["mutable"].tolist() == [-1.0, -1.0, 0.5, -1.0, 1.5, -1.0, -1.0]


def test_a_keras_string_lookup_model(served):
    _check(served, "string_lookup")
    assert served[0]["string_lookup"]["serving_default"]["output_0"].tolist() == [[3, 1], [0, 2]]


def test_an_asset_is_fed_its_path_in_the_models_directory(served):
    _check(served, "asset")
    assert served[0]["asset"]["serving_default"]["joined"].tolist() == [b"a:first\nsecond\n", b"b:first\nsecond\n"]
