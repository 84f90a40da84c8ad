"""Whole-model saving (`model.save('m.keras')`, `keras.models.load_model`) against Keras 3.15's
layout and messages (TF 2.21): config.json/metadata.json/weights in a zip, configs by class name,
optimizer state restored, custom classes only through custom_objects or the registry, and clean
ValueErrors naming the file for paths and damaged files."""
import json
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
X = np.random.default_rng(0).random((6, 3)).astype(np.float32)
Y = np.array([0, 1, 0, 1, 1, 0])


def _sequential():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu", kernel_regularizer="l2"),
                          keras.layers.Dropout(0.2), keras.layers.BatchNormalization(), keras.layers.Dense(2)],
                         name="seq")
    m.compile(keras.optimizers.Adam(0.01), keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    m.fit(X, Y, epochs=2, batch_size=3, verbose=0)
    return m


def _functional():
    inp = keras.Input((3,), name="x")
    a = keras.layers.Dense(4, name="d1")(inp)
    b = keras.layers.Dense(4, name="d2", kernel_constraint=keras.constraints.NonNeg())(inp)
    o = keras.layers.Concatenate()([keras.layers.Add()([a, b]), a])
    return keras.Model(inp, keras.layers.Dense(2, activation="softmax")(o), name="fun")


KERAS_SEQUENTIAL_LISTING = {
    'layers/batch_normalization/vars': 'batch_normalization', 'layers/batch_normalization/vars/0': (4,),
    'layers/batch_normalization/vars/1': (4,), 'layers/batch_normalization/vars/2': (4,),
    'layers/batch_normalization/vars/3': (4,), 'layers/dense/vars': 'dense', 'layers/dense/vars/0': (3, 4),
    'layers/dense/vars/1': (4,), 'layers/dense_1/vars': 'dense_1', 'layers/dense_1/vars/0': (4, 2),
    'layers/dense_1/vars/1': (2,), 'layers/dropout/vars': 'dropout', 'optimizer/vars': 'adam',
    'optimizer/vars/0': (), 'optimizer/vars/1': (), 'optimizer/vars/10': (4, 2), 'optimizer/vars/11': (4, 2),
    'optimizer/vars/12': (2,), 'optimizer/vars/13': (2,), 'optimizer/vars/2': (3, 4), 'optimizer/vars/3': (3, 4),
    'optimizer/vars/4': (4,), 'optimizer/vars/5': (4,), 'optimizer/vars/6': (4,), 'optimizer/vars/7': (4,),
    'optimizer/vars/8': (4,), 'optimizer/vars/9': (4,), 'vars': 'seq'}


def _h5_listing(data):
    """{dataset path: shape, `vars` group path: its name attribute} of an HDF5 file's bytes."""
    import io
    h5py = pytest.importorskip("h5py")
    out = {}
    with h5py.File(io.BytesIO(data), "r") as f:
        f.visititems(lambda n, o: out.__setitem__(n, tuple(o.shape) if isinstance(o, h5py.Dataset)
                                                  else o.attrs.get("name")))
    return {k: (v.decode() if isinstance(v, bytes) else v) for k, v in out.items() if v is not None}


def test_keras_file_layout_and_config_match_keras(tmp_path):
    m = _sequential()
    path = str(tmp_path / "m.keras")
    m.save(path)
    with zipfile.ZipFile(path) as zf:
        assert sorted(zf.namelist()) == ["config.json", "metadata.json", "model.weights.h5"]
        config = json.loads(zf.read("config.json"))
        weights = zf.read("model.weights.h5")
    # the groups and shapes Keras 3.15 writes for this model (TF 2.21, recorded); each `vars` group's
    # name attribute is its owner's name (automatic names are numbered per process)
    names = {"layers/dense/vars": m.layers[0].name, "layers/dropout/vars": m.layers[1].name,
             "layers/batch_normalization/vars": m.layers[2].name, "layers/dense_1/vars": m.layers[3].name,
             "optimizer/vars": m.optimizer.name}
    assert _h5_listing(weights) == {**KERAS_SEQUENTIAL_LISTING, **names}
    assert (config["module"], config["class_name"], config["registered_name"]) == ("keras", "Sequential", None)
    layers = config["config"]["layers"]
    assert [l["class_name"] for l in layers] == ["InputLayer", "Dense", "Dropout", "BatchNormalization", "Dense"]
    assert layers[0]["config"] == {"batch_shape": [None, 3], "dtype": "float32", "sparse": False, "ragged": False,
                                   "name": layers[0]["config"]["name"], "optional": False}
    dense = layers[1]
    assert dense["module"] == "keras.layers" and dense["build_config"] == {"input_shape": [None, 3]}
    assert dense["config"]["kernel_regularizer"] == {"module": "keras.regularizers", "class_name": "L2",
                                                     "config": {"l2": 0.01}, "registered_name": None}
    assert dense["config"]["kernel_initializer"]["class_name"] == "GlorotUniform"
    assert dense["config"]["activation"] == "relu" and layers[4]["config"]["activation"] == "linear"
    assert layers[2]["config"]["rate"] == 0.2
    compile_config = config["compile_config"]
    assert compile_config["optimizer"]["class_name"] == "Adam"
    assert compile_config["optimizer"]["config"]["learning_rate"] == pytest.approx(0.01)
    assert compile_config["loss"]["class_name"] == "SparseCategoricalCrossentropy"
    assert compile_config["loss"]["config"]["from_logits"] is True
    assert compile_config["metrics"] == ["accuracy"]


def test_sequential_round_trip_restores_weights_compile_and_optimizer_state(tmp_path):
    m = _sequential()
    path = tmp_path / "m.keras"
    keras.saving.save_model(m, path)
    loaded = keras.models.load_model(path)
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), m.predict(X, verbose=0))
    assert loaded.compiled and type(loaded.optimizer).__name__ == "Adam"
    assert int(loaded.optimizer.iterations) == int(m.optimizer.iterations) == 4
    for a, b in zip(loaded.optimizer.variables, m.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    # training continues from the same state: one more step gives the same weights in both (dropout off: random)
    m.layers[1].rate = loaded.layers[1].rate = 0.0
    m.train_on_batch(X, Y)
    loaded.train_on_batch(X, Y)
    for a, b in zip(loaded.weights, m.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)
    assert not keras.models.load_model(path, compile=False).compiled


def test_functional_round_trip(tmp_path):
    f = _functional()
    f.save(tmp_path / "f.keras")
    config = json.loads(zipfile.ZipFile(tmp_path / "f.keras").read("config.json"))
    assert (config["module"], config["class_name"], config["registered_name"]) == (
        "keras.src.models.functional", "Functional", "Functional")
    assert config["config"]["input_layers"] == ["x", 0, 0]
    add = next(l for l in config["config"]["layers"] if l["class_name"] == "Add")
    assert add["inbound_nodes"][0]["args"][0][0] == {
        "class_name": "__keras_tensor__", "config": {"shape": [None, 4], "dtype": "float32",
                                                     "keras_history": ["d1", 0, 0]}}
    g = keras.models.load_model(tmp_path / "f.keras")
    np.testing.assert_array_equal(g.predict(X, verbose=0), f.predict(X, verbose=0))
    assert [l.name for l in g.layers] == [l.name for l in f.layers]
    assert isinstance(g.get_layer("d2").kernel.constraint, keras.constraints.NonNeg)
    rebuilt = keras.Model.from_config(f.get_config())
    assert len(rebuilt.weights) == len(f.weights)


def test_saved_model_loads_in_a_fresh_process_without_the_defining_code(tmp_path):
    m, f = _sequential(), _functional()
    m.save(tmp_path / "m.keras")
    f.save(tmp_path / "f.keras")
    np.save(tmp_path / "x.npy", X)
    np.save(tmp_path / "m.npy", m.predict(X, verbose=0))
    np.save(tmp_path / "f.npy", f.predict(X, verbose=0))
    code = ("import sys, numpy as np\nfrom eagerflow import keras\nd = sys.argv[1]\nx = np.load(d + '/x.npy')\n"
            "for name in ('m', 'f'):\n"
            "    model = keras.models.load_model(d + f'/{name}.keras')\n"
            "    assert np.array_equal(model.predict(x, verbose=0), np.load(d + f'/{name}.npy')), name\n"
            "print('ok', int(keras.models.load_model(d + '/m.keras').optimizer.iterations))\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["ok", "4"]


class Scale(keras.layers.Layer):
    def __init__(self, k=2.0, **kwargs):
        super().__init__(**kwargs)
        self.k = k

    def call(self, x):
        return x * self.k

    def get_config(self):
        return {**super().get_config(), "k": self.k}


def test_custom_layer_needs_custom_objects_or_registration(tmp_path):
    s = keras.Sequential([keras.Input((2,)), Scale(3.0)])
    s.save(tmp_path / "c.keras")
    entry = json.loads(zipfile.ZipFile(tmp_path / "c.keras").read("config.json"))["config"]["layers"][1]
    assert (entry["module"], entry["class_name"], entry["registered_name"]) == (None, "Scale", "Scale")
    with pytest.raises(TypeError, match=r"^Could not locate class 'Scale'\. Make sure custom classes and functions are "
                                        r"decorated with `@keras\.saving\.register_keras_serializable\(\)`\. If they "
                                        r"are already decorated"):
        keras.models.load_model(tmp_path / "c.keras")
    loaded = keras.models.load_model(tmp_path / "c.keras", custom_objects={"Scale": Scale})
    np.testing.assert_allclose(loaded.predict(np.ones((1, 2), np.float32), verbose=0), [[3.0, 3.0]])
    with keras.saving.custom_object_scope({"Scale": Scale}):
        assert keras.models.load_model(tmp_path / "c.keras").layers[0].k == 3.0


def test_registered_custom_layer_loads_by_its_registered_name(tmp_path):
    @keras.saving.register_keras_serializable(package="my_tests")
    class Offset(keras.layers.Layer):
        def __init__(self, b=1.0, **kwargs):
            super().__init__(**kwargs)
            self.b = b

        def call(self, x):
            return x + self.b

        def get_config(self):
            return {**super().get_config(), "b": self.b}

    s = keras.Sequential([keras.Input((2,)), Offset(5.0)])
    s.save(tmp_path / "r.keras")
    entry = json.loads(zipfile.ZipFile(tmp_path / "r.keras").read("config.json"))["config"]["layers"][1]
    assert entry["registered_name"] == "my_tests>Offset"  # as Keras 3 writes it
    assert keras.saving.get_registered_name(Offset) == "my_tests>Offset"
    loaded = keras.models.load_model(tmp_path / "r.keras")
    np.testing.assert_allclose(loaded.predict(np.zeros((1, 2), np.float32), verbose=0), [[5.0, 5.0]])


class Sub(keras.Model):
    def __init__(self, units=3, **kw):
        super().__init__(**kw)
        self.d = keras.layers.Dense(units)

    def call(self, x):
        return self.d(x)


class NoConfig(keras.Model):
    def __init__(self, obj):
        super().__init__()
        self.obj = obj
        self.d = keras.layers.Dense(2)

    def call(self, x):
        return self.d(x)


def test_subclassed_models_follow_keras_auto_config(tmp_path):
    m = Sub()
    m(np.ones((1, 2), np.float32))
    m.save(tmp_path / "s.keras")
    config = json.loads(zipfile.ZipFile(tmp_path / "s.keras").read("config.json"))
    # Keras 3: __init__'s plain arguments, 'name' dropped (**kw is not named kwargs), the first call's shape
    assert config["module"] is None and config["class_name"] == "Sub" and config["registered_name"] == "Sub"
    assert config["config"] == {"units": 3, "trainable": True, "dtype": {
        "module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": None}}
    assert config["build_config"] == {"input_shape": [1, 2]} and config["compile_config"] == {}
    with pytest.raises(TypeError, match="Could not locate class 'Sub'"):
        keras.models.load_model(tmp_path / "s.keras")
    loaded = keras.models.load_model(tmp_path / "s.keras", custom_objects={"Sub": Sub})
    np.testing.assert_array_equal(loaded(np.ones((2, 2), np.float32)).numpy(), m(np.ones((2, 2), np.float32)).numpy())
    n = NoConfig(object())
    n(np.ones((1, 2), np.float32))
    with pytest.raises(NotImplementedError, match="Object NoConfig was created by passing\nnon-serializable argument "
                                                  "values in `__init__\\(\\)`"):
        n.save(tmp_path / "n.keras")
    assert not (tmp_path / "n.keras").exists()


def test_path_errors_match_keras(tmp_path):
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError) as e:
        m.save(str(tmp_path / "m"))
    assert str(e.value) == ("Invalid filepath extension for saving. Please add either a `.keras` extension for the "
                            "native Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if you "
                            "want to export a SavedModel for use with TFLite/TFServing/etc. Received: "
                            f"filepath={tmp_path / 'm'}.")
    m.save(str(tmp_path / "m.h5"))  # Keras 3.15 writes its legacy HDF5 file here (tests/keras/saving/test_legacy_h5.py)
    assert type(keras.models.load_model(str(tmp_path / "m.h5"))).__name__ == "Sequential"
    missing = str(tmp_path / "nope.keras")
    with pytest.raises(ValueError) as e:
        keras.models.load_model(missing)
    assert str(e.value) == f"File not found: filepath={missing}. Please ensure the file is an accessible `.keras` zip file."
    with pytest.raises(ValueError, match=r"^File format not supported: filepath=m\.zip\. Keras 3 only supports V3 "
                                         r"`\.keras` files"):
        keras.models.load_model("m.zip")


@pytest.mark.parametrize("weights_name", ["model.weights.npz", "model.weights.h5"])
def test_damaged_files_raise_value_error_naming_the_file(tmp_path, monkeypatch, weights_name):
    m = _sequential()
    good = tmp_path / "m.keras"
    if weights_name == "model.weights.npz":  # eagerflow's earlier archives (still written without h5py)
        from eagerflow.keras.saving import model_saving
        monkeypatch.setattr(model_saving, "h5py_or_none", lambda: None)
    m.save(good)
    monkeypatch.undo()
    data = good.read_bytes()
    # a truncated file or one that is not a zip: Keras 3's message (it calls these "not found")
    for name, content in [("trunc.keras", data[:100]), ("notzip.keras", b"hello")]:
        bad = tmp_path / name
        bad.write_bytes(content)
        with pytest.raises(ValueError, match=f"^File not found: filepath={bad}"):
            keras.models.load_model(bad)

    def rewrite(name, replace):
        bad = tmp_path / name
        with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as dst:
            for member in src.namelist():
                content = replace(member, src.read(member))
                if content is not None:
                    dst.writestr(member, content)
        return bad

    config = json.loads(zipfile.ZipFile(good).read("config.json"))
    wrong_units = json.loads(json.dumps(config))
    wrong_units["config"]["layers"][4]["config"]["units"] = 3
    huge = json.loads(json.dumps(config))
    huge["config"]["layers"][4]["config"]["units"] = 10 ** 12
    hostile = {"module": "os", "class_name": "system", "config": {"command": "touch pwned"}, "registered_name": None}
    cases = [
        (rewrite("badjson.keras", lambda n, c: b"{not json" if n == "config.json" else c), "config.json is not valid JSON"),
        (rewrite("noweights.keras", lambda n, c: None if n == weights_name else c), "has no model.weights.h5"),
        (rewrite("badweights.keras", lambda n, c: c[:50] if n == weights_name else c), weights_name),
        (rewrite("shape.keras", lambda n, c: json.dumps(wrong_units).encode() if n == "config.json" else c),
         "has shape (4, 2) and dtype float32; the model" if weights_name.endswith("npz") else
         "layers/dense_1/vars/0 has shape (4, 2) and dtype float32; the model's variable"),
        (rewrite("huge.keras", lambda n, c: json.dumps(huge).encode() if n == "config.json" else c),
         "more than the weights file stores"),  # refused before allocating 16 TB
        (rewrite("badkwargs.keras", lambda n, c: c.replace(b'"rate"', b'"rat"') if n == "config.json" else c),
         "missing 1 required positional argument: 'rate'"),
    ]
    for bad, problem in cases:
        with pytest.raises(ValueError) as e:
            keras.models.load_model(bad)
        assert str(bad) in str(e.value) and problem in str(e.value), str(e.value)
    bad = rewrite("hostile.keras", lambda n, c: json.dumps(hostile).encode() if n == "config.json" else c)
    with pytest.raises(TypeError, match="Could not locate class 'system'"):
        keras.models.load_model(bad)
    assert not os.path.exists("pwned")


def test_multi_input_output_model_with_a_shared_layer_and_a_schedule_round_trip(tmp_path):
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    shared = keras.layers.Dense(4, name="shared")
    h1 = shared(keras.layers.Dense(4)(a))
    h2 = shared(keras.layers.Dense(4)(b))  # the shared layer's second call: keras_history node index 1
    m = keras.Model([a, b], [keras.layers.Dense(1, name="o1")(h1), keras.layers.Add()([h1, h2])])
    m.compile(keras.optimizers.SGD(keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)), "mse")
    x = [np.random.default_rng(1).random((5, 3)).astype("f4"), np.random.default_rng(2).random((5, 2)).astype("f4")]
    m.save(tmp_path / "mm.keras")
    config = json.loads(zipfile.ZipFile(tmp_path / "mm.keras").read("config.json"))["config"]
    assert config["input_layers"] == [["a", 0, 0], ["b", 0, 0]]
    add = next(l for l in config["layers"] if l["class_name"] == "Add")
    assert [arg["config"]["keras_history"] for arg in add["inbound_nodes"][0]["args"][0]] == [["shared", 0, 0],
                                                                                              ["shared", 1, 0]]
    loaded = keras.models.load_model(tmp_path / "mm.keras")
    for p, q in zip(m.predict(x, verbose=0), loaded.predict(x, verbose=0)):
        np.testing.assert_array_equal(p, q)
    schedule = loaded.optimizer._schedule
    assert type(schedule).__name__ == "ExponentialDecay" and schedule.get_config()["decay_steps"] == 10


def test_fuzzed_files_load_or_raise_value_error_naming_the_file(tmp_path):
    """Byte flips, truncations, zeroed runs and mutated numbers in config.json: every load either
    succeeds or raises ValueError naming the file, or Keras' TypeError for a class name that became
    unknown (an "L2" regularizer turned "L-7"); never another exception."""
    import io
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, kernel_regularizer="l2"), keras.layers.Dense(2)])
    m.compile("adam", "mse")
    m.train_on_batch(np.ones((2, 3), "f4"), np.ones((2, 2), "f4"))
    m.save(tmp_path / "m.keras")
    data = (tmp_path / "m.keras").read_bytes()
    rng = np.random.default_rng(0)
    target = str(tmp_path / "f.keras")
    outcomes = {"loaded": 0, "refused": 0, "unknown class": 0}
    for i in range(160):
        b = bytearray(data)
        kind = i % 4
        if kind == 0:
            for _ in range(rng.integers(1, 4)):
                b[rng.integers(len(b))] ^= 1 << int(rng.integers(8))
        elif kind == 1:
            b = b[:rng.integers(len(b))]
        elif kind == 2:
            start = int(rng.integers(len(b)))
            b[start:start + 8] = b"\0" * len(b[start:start + 8])
        else:
            out = io.BytesIO()
            with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
                for name in src.namelist():
                    content = src.read(name)
                    if name == "config.json":
                        text = content.decode()
                        digits = [j for j, ch in enumerate(text) if ch.isdigit()]
                        j = digits[rng.integers(len(digits))]
                        text = text[:j] + str(rng.choice(["-7", "99999999999", "0", "1e308", "-1"])) + text[j + 1:]
                        content = text.encode()
                    dst.writestr(name, content)
            b = out.getvalue()
        with open(target, "wb") as f:
            f.write(bytes(b))
        try:
            keras.models.load_model(target)
            outcomes["loaded"] += 1
        except ValueError as e:
            assert target in str(e), (i, str(e))
            outcomes["refused"] += 1
        except TypeError as e:  # a class name damaged into an unknown one: Keras 3's TypeError
            assert str(e).startswith("Could not locate class"), (i, str(e))
            outcomes["unknown class"] += 1
    # Both outcomes happen: the mutations reach the archive (a fuzz loop loading an undamaged copy
    # would pass with no refusals), and some damaged numbers still make a loadable model.
    assert outcomes["refused"] > 80 and outcomes["loaded"] > 0, outcomes


def test_tf_keras_utils_reaches_the_registry_as_in_tf_2_21(tmp_path):
    # TF 2.21's tf.keras has no `saving` module: programs use keras.utils for the registry
    @keras.utils.register_keras_serializable(package="utils_tests")
    class Twice(keras.layers.Layer):
        def call(self, x):
            return x * 2.0

    assert keras.utils.get_registered_name(Twice) == "utils_tests>Twice"
    assert keras.utils.get_registered_object("utils_tests>Twice") is Twice
    assert keras.utils.get_custom_objects()["utils_tests>Twice"] is Twice
    assert keras.utils.get_registered_name(keras.layers.Dense) == "Dense"
    s = keras.Sequential([keras.Input((1,)), Twice()])
    s.save(tmp_path / "t.keras")
    np.testing.assert_array_equal(keras.models.load_model(tmp_path / "t.keras").predict(np.ones((1, 1), "f4"),
                                                                                     verbose=0), [[2.0]])
