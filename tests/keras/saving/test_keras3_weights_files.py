"""Keras 3's HDF5 weights layout (model.weights.h5 in a .keras archive, .weights.h5 files): the groups
Keras 3.15 writes for the same models (keras3_weights_layouts.json, recorded by
make_keras3_weights_layouts.py), round trips, the formats load_weights still reads (eagerflow's
earlier .npz, Keras 2's .h5), and hostile files refused with a ValueError naming the file."""
import json
import os
import sys
import warnings
import zipfile

import numpy as np
import pytest

from eagerflow import keras
from tests.interop.keras_file_models import MODEL_NAMES, namespace

h5py = pytest.importorskip("h5py")

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "keras3_weights_layouts.json")) as _f:
    KERAS_LAYOUTS = json.load(_f)


def _listing(path):
    out = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda n, o: out.__setitem__(n, list(o.shape)) if isinstance(o, h5py.Dataset)
                     else out.__setitem__(n, "group") if n.endswith("vars") else None)
    return out


@pytest.fixture(scope="module")
def scope():
    return namespace(keras)


def _trained(scope, name):
    model, x, y = scope["build"](name)
    model.fit(x, y, epochs=2, batch_size=4, verbose=0)
    return model, x


def _outputs(scope, model, x):
    return scope["predictions"](model, x)


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_weights_file_lists_the_groups_keras_writes(tmp_path, scope, name):
    model, _ = _trained(scope, name)
    model.save_weights(tmp_path / "w.weights.h5")
    assert _listing(tmp_path / "w.weights.h5") == KERAS_LAYOUTS[name]
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as zf:
        assert sorted(zf.namelist()) == ["config.json", "metadata.json", "model.weights.h5"]
        (tmp_path / "inner.h5").write_bytes(zf.read("model.weights.h5"))
    assert _listing(tmp_path / "inner.h5") == KERAS_LAYOUTS[name]


@pytest.mark.parametrize("name", ["text", "subclassed", "two_io"])
def test_round_trips_restore_predictions_and_the_optimizer(tmp_path, scope, name):
    model, x = _trained(scope, name)
    model.save(tmp_path / "m.keras")
    model.save_weights(tmp_path / "w.weights.h5")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    want = _outputs(scope, model, x)
    for key, value in _outputs(scope, loaded, x).items():
        np.testing.assert_array_equal(value, want[key])
    assert int(loaded.optimizer.iterations) == 4
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    fresh, _, _ = scope["build"](name)
    with pytest.warns(UserWarning, match="Skipping variable loading for optimizer"):
        fresh.load_weights(tmp_path / "m.keras")  # a .keras archive's weights, as Keras' load_weights reads them
    fresh2, _, _ = scope["build"](name)
    with pytest.warns(UserWarning, match=r"^Skipping variable loading for optimizer '\w+', because it has 2 "
                                         r"variables whereas the saved optimizer has \d+ variables"):
        fresh2.load_weights(tmp_path / "w.weights.h5")  # Keras' warning: the fresh optimizer is not built
    for m in (fresh, fresh2):
        for key, value in _outputs(scope, m, x).items():
            np.testing.assert_array_equal(value, want[key])


def test_load_weights_restores_a_built_optimizer_and_trains_on(tmp_path, scope):
    model, x = _trained(scope, "mlp")
    model.save_weights(tmp_path / "w.weights.h5")
    other, x, y = scope["build"]("mlp")
    other.optimizer.build(other.trainable_variables)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        other.load_weights(tmp_path / "w.weights.h5")
    assert int(other.optimizer.iterations) == 4
    for a, b in zip(other.optimizer.variables, model.optimizer.variables, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_earlier_npz_files_still_load(tmp_path, monkeypatch, scope):
    from eagerflow.keras.saving import h5_weights, model_saving
    model, x = _trained(scope, "cnn")
    monkeypatch.setattr(h5_weights, "h5py_or_none", lambda: None)
    monkeypatch.setattr(model_saving, "h5py_or_none", lambda: None)
    import eagerflow.keras.saving.saving_api  # noqa: F401 - save_weights imports h5py_or_none when called
    model.save(tmp_path / "old.keras")
    model.save_weights(tmp_path / "old.weights.h5")  # what eagerflow wrote under this name before
    model.save_weights(tmp_path / "old.weights.npz")
    monkeypatch.undo()
    assert zipfile.ZipFile(tmp_path / "old.keras").namelist()[-1] == "model.weights.npz"
    assert (tmp_path / "old.weights.h5").read_bytes()[:2] == b"PK"  # a NumPy archive, not HDF5
    want = _outputs(scope, model, x)["output"]
    np.testing.assert_array_equal(keras.models.load_model(tmp_path / "old.keras").predict(x, verbose=0), want)
    for name in ("old.weights.h5", "old.weights.npz", "old.keras"):
        fresh, _, _ = scope["build"]("cnn")
        fresh.load_weights(tmp_path / name)
        np.testing.assert_array_equal(fresh.predict(x, verbose=0), want)


def test_a_legacy_keras2_h5_weights_file_loads(tmp_path):
    """Keras 2's layout: the root lists layer_names, each layer group its weight_names."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d"), keras.layers.Dropout(0.1),
                              keras.layers.Dense(1, name="e")])
    rng = np.random.default_rng(3)
    values = [rng.random(tuple(w.shape)).astype("float32") for w in model.weights]
    with h5py.File(tmp_path / "legacy.h5", "w") as f:
        f.attrs["layer_names"] = [b"d", b"dropout", b"e"]
        for layer, arrays in (("d", values[:2]), ("dropout", []), ("e", values[2:])):
            group = f.create_group(layer)
            group.attrs["weight_names"] = [f"{layer}/w{i}:0".encode() for i in range(len(arrays))]
            for i, a in enumerate(arrays):
                group.create_dataset(f"{layer}/w{i}:0", data=a)
    model.load_weights(tmp_path / "legacy.h5")
    for w, v in zip(model.weights, values, strict=True):
        np.testing.assert_array_equal(w.numpy(), v)


def _small_model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])
    return model


def _hostile(tmp_path, edit):
    path = tmp_path / "w.weights.h5"
    _small_model().save_weights(path)
    with h5py.File(path, "a") as f:
        edit(f, tmp_path)
    return path


def _external_link(f, tmp_path):
    with h5py.File(tmp_path / "secret.h5", "w") as g:
        g["k"] = np.zeros((3, 2), "float32")
    del f["layers/dense/vars/0"]
    f["layers/dense/vars/0"] = h5py.ExternalLink(str(tmp_path / "secret.h5"), "k")


def _external_storage(f, tmp_path):
    (tmp_path / "raw.bin").write_bytes(b"\0" * 24)
    del f["layers/dense/vars/0"]
    f.create_dataset("layers/dense/vars/0", shape=(3, 2), dtype="float32", external=[(str(tmp_path / "raw.bin"), 0, 24)])


def _soft_link(f, tmp_path):
    del f["layers/dense/vars/0"]
    f["layers/dense/vars/0"] = h5py.SoftLink("/layers/dense_1/vars/0")


def _string_value(f, tmp_path):
    del f["layers/dense/vars/1"]
    f["layers/dense/vars/1"] = np.array([b"ab", b"cd"])


def _huge_shape(f, tmp_path):
    del f["layers/dense/vars/0"]
    f.create_dataset("layers/dense/vars/0", shape=(10 ** 6, 10 ** 6), dtype="float32", chunks=(1, 16))


def _extra_value(f, tmp_path):
    f["layers/dense/vars/2"] = np.zeros((2,), "float32")


def _missing_group(f, tmp_path):
    del f["layers/dense_1"]


@pytest.mark.parametrize("edit, problem", [
    (_external_link, "layers/dense/vars/0 is missing or is a link, not a stored value."),
    (_external_storage, "layers/dense/vars/0 is not a dataset stored in the file."),
    (_soft_link, "layers/dense/vars/0 is missing or is a link, not a stored value."),
    (_string_value, "weight layers/dense/vars/1 has shape (2,) and dtype |S2; the model's variable"),
    (_huge_shape, "weight layers/dense/vars/0 has shape (1000000, 1000000) and dtype float32; the model's variable"),
    (_extra_value, "layers/dense/vars holds 3 values and the model's layers/dense has 2 variables."),
    (_missing_group, "it has no layers/dense_1/vars for the 2 variables of 'dense"),
])
def test_hostile_weights_files_are_refused_naming_the_file(tmp_path, edit, problem):
    path = _hostile(tmp_path, edit)
    model = _small_model()
    before = [w.numpy() for w in model.weights]
    with pytest.raises(ValueError) as info:
        model.load_weights(path)
    assert str(info.value).startswith(f"Cannot load the weights file {path}: "), str(info.value)
    assert problem in str(info.value), str(info.value)
    for w, b in zip(model.weights, before):  # checked before any assignment: nothing half-loaded
        np.testing.assert_array_equal(w.numpy(), b)


def test_unreadable_and_missing_files(tmp_path):
    model = _small_model()
    for name, data in (("junk.weights.h5", b"not a weights file at all"),
                       ("trunc.weights.h5", b"\x89HDF\r\n\x1a\n" + b"\0" * 40)):
        (tmp_path / name).write_bytes(data)
        with pytest.raises(ValueError, match=f"^Cannot load the weights file {tmp_path / name}: "):
            model.load_weights(tmp_path / name)
    with pytest.raises(FileNotFoundError, match="absent.weights.h5"):
        model.load_weights(tmp_path / "absent.weights.h5")


def test_a_failed_save_keeps_the_previous_file(tmp_path, monkeypatch):
    from eagerflow.keras.saving import h5_weights
    model = _small_model()
    model.save_weights(tmp_path / "w.weights.h5")
    model.save(tmp_path / "m.keras")
    before = {p: p.read_bytes() for p in (tmp_path / "w.weights.h5", tmp_path / "m.keras")}

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(h5_weights.np, "asarray", broken)  # the values cannot be read out while writing
    with pytest.raises(OSError, match="disk full"):
        model.save_weights(tmp_path / "w.weights.h5")
    with pytest.raises(OSError, match="disk full"):
        model.save(tmp_path / "m.keras")
    monkeypatch.undo()
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(os.listdir(tmp_path)) == ["m.keras", "w.weights.h5"]  # no temporary left behind


def test_without_h5py_reading_hdf5_says_what_to_install(tmp_path, monkeypatch):
    from eagerflow.keras.saving import h5_weights
    model = _small_model()
    model.save_weights(tmp_path / "w.weights.h5")
    monkeypatch.setitem(sys.modules, "h5py", None)
    assert h5_weights.h5py_or_none() is None
    with pytest.raises(ImportError, match=r"needs h5py: pip install 'eagerflow\[h5\]'"):
        model.load_weights(tmp_path / "w.weights.h5")


class _HalfPrecision(keras.Model):
    def __init__(self):
        super().__init__()
        self.d = keras.layers.Dense(2, dtype="bfloat16")
        self.e = keras.layers.Dense(2, dtype="float16")

    def call(self, x):
        return self.e(self.d(x))


def test_bfloat16_and_float16_weights_as_keras_stores_them(tmp_path):
    model = _HalfPrecision()
    model(np.ones((1, 3), "float32"))
    model.save_weights(tmp_path / "w.weights.h5")
    with h5py.File(tmp_path / "w.weights.h5", "r") as f:
        # Keras 3.15 (TF 2.21): HDF5 has no bfloat16, so 2 opaque bytes with the attribute dtype='bfloat16'
        assert (f["d/vars/0"].dtype.str, dict(f["d/vars/0"].attrs)) == ("|V2", {"dtype": "bfloat16"})
        assert (f["e/vars/0"].dtype.str, dict(f["e/vars/0"].attrs)) == ("<f2", {})
    other = _HalfPrecision()
    other(np.ones((1, 3), "float32"))
    other.load_weights(tmp_path / "w.weights.h5")
    for a, b in zip(other.weights, model.weights, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def _lookup_model():
    inputs = keras.Input((1,), dtype="string")
    strings = keras.layers.StringLookup()
    strings.adapt(np.array([["a"], ["b"], ["b"]]))
    words = keras.layers.TextVectorization(max_tokens=10, output_sequence_length=3)
    words.adapt(np.array(["x y", "y z"]))
    return keras.Model(inputs, [strings(inputs), words(keras.layers.Reshape(())(inputs))])


LOOKUP_X = np.array([["b"], ["x y"]])
# Keras 3.15 (TF 2.21) on the same model: its predictions and the archive's asset members
KERAS_LOOKUP_OUTPUTS = [[[1], [0]], [[1, 0, 0], [4, 2, 0]]]
KERAS_LOOKUP_ASSETS = {"assets/layers/string_lookup/vocabulary.txt": b"[UNK]\nb\na",
                       "assets/layers/text_vectorization/_lookup_layer/vocabulary.txt": b"\n[UNK]\ny\nz\nx",
                       "assets/layers/text_vectorization/vocabulary.txt": b"\n[UNK]\ny\nz\nx"}


def test_vocabularies_live_where_keras_puts_them(tmp_path):
    model = _lookup_model()
    assert [o.tolist() for o in model.predict(LOOKUP_X, verbose=0)] == KERAS_LOOKUP_OUTPUTS
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as zf:
        assets = {n: zf.read(n) for n in zf.namelist() if n.startswith("assets/")}
    assert assets == KERAS_LOOKUP_ASSETS
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert [o.tolist() for o in loaded.predict(LOOKUP_X, verbose=0)] == KERAS_LOOKUP_OUTPUTS


def test_vocabularies_of_earlier_archives_still_load(tmp_path):
    """eagerflow's earlier archives kept a layer's files under the path of layer names."""
    model = _lookup_model()
    model.save(tmp_path / "m.keras")
    by_class = {type(layer).__name__: layer.name for layer in model.layers}
    names = {"assets/layers/string_lookup/": f"assets/{by_class['StringLookup']}/",
             "assets/layers/text_vectorization/": f"assets/{by_class['TextVectorization']}/"}
    with zipfile.ZipFile(tmp_path / "m.keras") as src, zipfile.ZipFile(tmp_path / "old.keras", "w") as dst:
        for member in src.namelist():
            if "_lookup_layer" in member:
                continue
            renamed = next((member.replace(a, b) for a, b in names.items() if member.startswith(a)), member)
            dst.writestr(renamed, src.read(member))
    assert sum(n.startswith("assets/layers/") for n in zipfile.ZipFile(tmp_path / "old.keras").namelist()) == 0
    loaded = keras.models.load_model(tmp_path / "old.keras")
    assert [o.tolist() for o in loaded.predict(LOOKUP_X, verbose=0)] == KERAS_LOOKUP_OUTPUTS


def _tf_idf_model(strings=("a", "b", "b", "c"), sentences=("x y", "y z", "y")):
    lookup = keras.layers.StringLookup(output_mode="tf_idf")
    lookup.adapt(np.array(strings))
    words = keras.layers.TextVectorization(output_mode="tf_idf")
    words.adapt(np.array(sentences))
    inputs = keras.Input(shape=(1,), dtype="string")
    return keras.Model(inputs, [lookup(inputs), words(keras.layers.Reshape(())(inputs))])


TF_IDF_X = np.array([["a"], ["b y"], ["c"]])
# Keras 3.15 (TF 2.21) on the same model
KERAS_TF_IDF_OUTPUTS = [
    [[0.0, 0.0, 0.0, 1.0986123085021973], [1.014840841293335, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0986123085021973, 0.0]],
    [[0.79739910364151, 0.0, 0.0, 0.0], [0.79739910364151, 0.5596157908439636, 0.0, 0.0],
     [0.79739910364151, 0.0, 0.0, 0.0]]]


def test_tf_idf_weights_live_in_the_weights_file_as_in_keras(tmp_path):
    model = _tf_idf_model()
    for got, want in zip(model.predict(TF_IDF_X, verbose=0), KERAS_TF_IDF_OUTPUTS, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    model.save(tmp_path / "m.keras")
    model.save_weights(tmp_path / "w.weights.h5")
    listing = _listing(tmp_path / "w.weights.h5")
    # where Keras 3.15 files the idf weights (the OOV slot first): TextVectorization's twice
    for group in ("layers/string_lookup", "layers/text_vectorization", "layers/text_vectorization/_lookup_layer"):
        assert listing[f"{group}/vars/idf_weights"] == [4], group
    with h5py.File(tmp_path / "w.weights.h5", "r") as f:  # Keras 3.15's values (TF 2.21, recorded)
        np.testing.assert_allclose(f["layers/string_lookup/vars/idf_weights"][()],
                                   [1.014840841293335, 0.8472978472709656, 1.0986123085021973, 1.0986123085021973],
                                   rtol=1e-6)
        np.testing.assert_allclose(f["layers/text_vectorization/vars/idf_weights"][()],
                                   [0.79739910364151, 0.5596157908439636, 0.9162907600402832, 0.9162907600402832],
                                   rtol=1e-6)
    with zipfile.ZipFile(tmp_path / "m.keras") as src, zipfile.ZipFile(tmp_path / "keras.keras", "w") as dst:
        for member in src.namelist():  # Keras' archives have no idf_weights.txt: the HDF5 file must serve
            if not member.endswith("idf_weights.txt"):
                dst.writestr(member, src.read(member))
    for path in (tmp_path / "m.keras", tmp_path / "keras.keras"):
        loaded = keras.models.load_model(path)
        for got, want in zip(loaded.predict(TF_IDF_X, verbose=0), KERAS_TF_IDF_OUTPUTS, strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-6)
    other = _tf_idf_model(strings=("a", "b", "c", "c"), sentences=("x y", "y z", "z"))  # other idf weights
    assert not np.allclose(other.predict(TF_IDF_X, verbose=0)[0], KERAS_TF_IDF_OUTPUTS[0])
    other = _tf_idf_model()
    lookup = next(layer for layer in other.layers if type(layer).__name__ == "StringLookup")
    tokens = lookup.get_vocabulary()[1:]  # the same vocabulary with other weights: load_weights brings Keras'
    lookup.set_vocabulary(tokens, idf_weights=[1.0] * len(tokens))
    assert np.asarray(lookup.idf_weights).tolist() == [1.0] * 4
    other.load_weights(tmp_path / "w.weights.h5")
    np.testing.assert_allclose(other.predict(TF_IDF_X, verbose=0)[0], KERAS_TF_IDF_OUTPUTS[0], rtol=1e-6)


def test_an_absurd_idf_weights_dataset_is_refused_before_reading(tmp_path):
    model = _tf_idf_model()
    path = tmp_path / "w.weights.h5"
    model.save_weights(path)
    with h5py.File(path, "a") as f:  # declares 4 GB, stores nothing
        del f["layers/string_lookup/vars/idf_weights"]
        f.create_dataset("layers/string_lookup/vars/idf_weights", shape=(10 ** 9,), dtype="float32", chunks=(1024,))
    with pytest.raises(ValueError, match=f"^Cannot load the weights file {path}: layers/string_lookup/vars/idf_weights "
                                         r"is not the layer's idf weights \(a stored 1-D float array\)"):
        _tf_idf_model().load_weights(path)
