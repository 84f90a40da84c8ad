"""keras.utils.FeatureSpace against Keras 3.15.1's recorded answers (TensorFlow 2.21) on a fixed table of
eight rows, and the structured-data tutorial's pattern end to end."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

FS = keras.utils.FeatureSpace
ROWS = {"age": [22.0, 38.0, 26.0, 35.0, 54.0, 2.0, 27.0, 14.0],
        "fare": [7.25, 71.28, 7.92, 53.1, 51.86, 21.07, 11.13, 30.07],
        "score": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        "sex": ["m", "f", "f", "f", "m", "m", "f", "f"],
        "cls": [3, 1, 3, 1, 1, 3, 3, 2],
        "city": ["S", "C", "S", "S", "S", "S", "Q", "C"],
        "code": [10, 20, 10, 30, 40, 10, 20, 50],
        "raw": [0.5, -0.5, 1.5, 0.0, 2.0, 1.0, -1.0, 3.0]}
QUERY = {**{k: v[:3] for k, v in ROWS.items()}, "sex": ["m", "x", "f"], "cls": [3, 7, 2]}
# Keras' concat output for QUERY: age | city (4) | cls (4) | code (4) | fare (3) | raw | score | sex (3) | sex_X_cls (8)
KERAS_CONCAT = [
    [-0.35665, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0.5, 1.5, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0],
    [0.730284, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, -0.5, 2.0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
    [-0.084917, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1.5, 2.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0]]
KERAS_DICT_INT = {"cls": [[1], [0], [3]], "sex": [[2], [0], [1]], "sex_X_cls": [[4], [0], [3]],
                  "fare": [[1, 0, 0], [0, 0, 1], [1, 0, 0]], "city": [[1, 0, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]],
                  "code": [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 1, 0]], "raw": [[0.5], [-0.5], [1.5]],
                  "score": [[1.5], [2.0], [2.5]]}


def make(output_mode, encoding="one_hot"):
    return FS(features={"age": FS.float_normalized(), "fare": FS.float_discretized(num_bins=3),
                        "score": FS.float_rescaled(scale=0.5, offset=1.0),
                        "sex": FS.string_categorical(output_mode=encoding),
                        "cls": FS.integer_categorical(output_mode=encoding), "city": FS.string_hashed(num_bins=4),
                        "code": FS.integer_hashed(num_bins=4), "raw": "float"},
              crosses=[FS.cross(("sex", "cls"), crossing_dim=8, output_mode=encoding)], output_mode=output_mode)


@pytest.fixture(scope="module")
def adapted():
    space = make("concat")
    space.adapt(tf.data.Dataset.from_tensor_slices(ROWS).batch(3))
    return space


def test_adapt_fits_each_preprocessor(adapted):
    assert adapted.preprocessors["sex"].get_vocabulary() == ["[UNK]", "f", "m"]
    assert adapted.preprocessors["cls"].get_vocabulary() == [-1, 3, 1, 2]
    np.testing.assert_allclose(adapted.preprocessors["fare"].bin_boundaries, [10.0600004196167, 37.33333206176758])
    np.testing.assert_allclose(adapted.preprocessors["age"].mean.numpy(), [[27.25]])
    np.testing.assert_allclose(adapted.preprocessors["age"].variance.numpy(), [[216.6875]])


def test_concat_output_is_keras(adapted):
    out = adapted(QUERY)
    assert out.dtype == tf.float32 and tuple(out.shape) == (3, 29)
    np.testing.assert_allclose(out.numpy(), KERAS_CONCAT, atol=1e-5)
    single = adapted({k: v[0] for k, v in QUERY.items()})  # one sample of scalars: no batch axis
    assert tuple(single.shape) == (29,)
    np.testing.assert_allclose(single.numpy(), KERAS_CONCAT[0], atol=1e-5)


def test_dict_output_with_int_encodings_is_keras():
    space = make("dict", encoding="int")
    space.adapt(ROWS)  # a dict of lists: sliced into rows
    out = space(QUERY)
    assert sorted(out) == ["age", "city", "cls", "code", "fare", "raw", "score", "sex", "sex_X_cls"]
    for name, expected in KERAS_DICT_INT.items():
        np.testing.assert_allclose(out[name].numpy(), expected, atol=1e-6, err_msg=name)
    assert out["cls"].dtype == tf.int64 and out["sex_X_cls"].dtype == tf.int64 and out["city"].dtype == tf.float32
    np.testing.assert_allclose(out["age"].numpy().ravel(), [-0.35665, 0.730284, -0.084917], atol=1e-5)


def test_inputs_encoded_features_dataset_map_and_model(adapted):
    inputs = adapted.get_inputs()
    assert {k: (tuple(v.shape), v.dtype.name, v.name) for k, v in inputs.items()} == {
        "age": ((None, 1), "float32", "age"), "fare": ((None, 1), "float32", "fare"),
        "score": ((None, 1), "float32", "score"), "sex": ((None, 1), "string", "sex"),
        "cls": ((None, 1), "int32", "cls"), "city": ((None, 1), "string", "city"),
        "code": ((None, 1), "int32", "code"), "raw": ((None, 1), "float32", "raw")}
    encoded = adapted.get_encoded_features()
    assert tuple(encoded.shape) == (None, 29) and encoded.dtype == tf.float32
    mapped = tf.data.Dataset.from_tensor_slices(ROWS).batch(3).map(adapted)
    assert tuple(next(iter(mapped)).shape) == (3, 29)
    model = keras.Model(inputs, keras.layers.Dense(1)(encoded))
    assert model.count_params() == 33  # as Keras: Dense(1) on 29 features (30) + Normalization mean, variance, count
    assert adapted.crossers["sex_X_cls"].num_bins == 8


def test_errors_are_keras():
    cases = [(lambda: FS(features={}), "The `features` argument cannot be None or empty."),
             (lambda: FS(features={"a": "bogus"}), "Invalid feature type: bogus"),
             (lambda: FS(features={"a": "float"}, output_mode="x"),
              "Invalid value for argument `output_mode`. Expected one of {'dict', 'concat'}. Received: output_mode=x"),
             (lambda: FS(features={"a": "float"}, crosses=[("a", "b")]),
              "All features referenced in the `crosses` argument should be present in the `features` dict. "
              "Received unknown features: ('a', 'b')"),
             (lambda: FS(features={"a": "float"})(3),
              "A FeatureSpace can only be called with a dict. Received: data=3 (of type <class 'int'>"),
             (lambda: FS(features={"a": "float_normalized"}).get_encoded_features(),
              "You need to call `.adapt(dataset)` on the FeatureSpace before you can start using it."),
             (lambda: FS(features={"a": "float"}).adapt([1, 2]),
              "`adapt()` can only be called on a tf.data.Dataset or a dict of arrays/lists. Received instead: "
              "[1, 2] (of type <class 'list'>)")]
    for make_error, message in cases:
        with pytest.raises(ValueError) as info:
            make_error()
        assert str(info.value) == message


def test_structured_data_tutorial_end_to_end():
    """The tutorial's flow in miniature: labelled rows -> FeatureSpace adapted on the features -> a Dense
    model trained two epochs on the encoded batches -> an end-to-end model taking raw dicts."""
    rng = np.random.default_rng(0)
    n = 96
    raw = {"age": rng.uniform(20, 70, n).astype("float32"), "sex": rng.choice(["m", "f"], n),
           "cp": rng.integers(0, 4, n).astype("int32"), "thal": rng.choice(["normal", "fixed", "rev"], n),
           "chol": rng.uniform(150, 300, n).astype("float32")}
    labels = ((raw["age"] > 45) & (raw["cp"] > 1)).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices((raw, labels)).shuffle(n, seed=1).batch(16)
    space = FS(features={"age": "float_discretized", "chol": "float_normalized", "sex": "string_categorical",
                         "cp": "integer_categorical", "thal": "string_categorical"},
               crosses=[FS.cross(("sex", "cp"), crossing_dim=16), FS.cross(("thal", "cp"), crossing_dim=16)],
               output_mode="concat")
    space.adapt(ds.map(lambda x, _: x))
    encoded_ds = ds.map(lambda x, y: (space(x), y))
    width = 32 + 1 + 3 + 5 + 4 + 16 + 16  # age bins, chol, sex, cp, thal, two crosses
    assert tuple(space.get_encoded_features().shape) == (None, width)
    inner_in = keras.Input(shape=(width,))
    hidden = keras.layers.Dense(16, activation="relu")(inner_in)
    inner = keras.Model(inner_in, keras.layers.Dense(1, activation="sigmoid")(hidden))
    inner.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    history = inner.fit(encoded_ds, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and np.all(np.isfinite(history.history["loss"]))
    end_to_end = keras.Model(space.get_inputs(), inner(space.get_encoded_features()))
    sample = {"age": [60.0], "sex": ["m"], "cp": [3], "thal": ["fixed"], "chol": [200.0]}
    direct = inner(space(sample)).numpy()
    through = end_to_end.predict({k: np.asarray(v) for k, v in sample.items()}, verbose=0)
    np.testing.assert_allclose(through, direct, rtol=1e-5)
    assert 0.0 < float(direct[0, 0]) < 1.0


def test_save_and_reload_keeps_the_adapted_state(adapted, tmp_path):
    path = str(tmp_path / "space.keras")
    adapted.save(path)
    reloaded = keras.models.load_model(path)
    assert isinstance(reloaded, FS)
    assert reloaded.preprocessors["cls"].get_vocabulary() == [-1, 3, 1, 2]
    np.testing.assert_allclose(reloaded(QUERY).numpy(), KERAS_CONCAT, atol=1e-5)


def test_adapted_discretization_config_round_trips():
    layer = keras.layers.Discretization(num_bins=3)
    layer.adapt(np.array([1.0, 2, 3, 4, 5, 6]))
    config = layer.get_config()
    assert config["bin_boundaries"] == [2.0, 4.0] and config["num_bins"] == 3  # Keras' config
    again = keras.layers.Discretization.from_config(config)
    assert again.bin_boundaries == [2.0, 4.0] and again(np.array([1.0, 3.5, 6])).numpy().tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match=r"Both `num_bins` and `bin_boundaries` should not be set. Received: "
                                         r"`num_bins=3` and `bin_boundaries=\[1.0, 2.0\]`"):
        keras.layers.Discretization(num_bins=3, bin_boundaries=[1.0, 2.0])


def test_unencodable_concat_fails_at_adapt_and_dict_keeps_ids():
    data = {"n": [1, 2, 3]}
    with pytest.raises(ValueError, match=r"Cannot concatenate features because feature 'n' has not been encoded \(it "
                                         r"has dtype int64\). Consider using `output_mode='dict'`."):
        FS(features={"n": FS.integer_categorical(output_mode="int")}, output_mode="concat").adapt(data)
    space = FS(features={"n": FS.integer_categorical(output_mode="int"), "m": "float"}, output_mode="dict")
    space.adapt(data)
    out = space({"n": [1, 9], "m": [0.5, 1]})
    assert (out["m"].dtype, out["m"].numpy().tolist()) == (tf.float32, [[0.5], [1.0]])
    assert (out["n"].dtype, out["n"].numpy().tolist()) == (tf.int64, [[3], [0]])
    single = space({"n": 2, "m": 0.5})
    assert single["m"].numpy().tolist() == [0.5] and single["n"].numpy().tolist() == [2]


def test_model_on_encoded_features_saves_and_reloads(adapted, tmp_path):
    model = keras.Model(adapted.get_inputs(), keras.layers.Dense(2)(adapted.get_encoded_features()))
    query = {k: np.asarray(v) for k, v in QUERY.items()}
    before = model.predict(query, verbose=0)
    path = str(tmp_path / "model.keras")
    model.save(path)
    np.testing.assert_allclose(keras.models.load_model(path).predict(query, verbose=0), before, rtol=1e-6)
