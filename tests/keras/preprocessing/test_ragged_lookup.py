"""StringLookup / IntegerLookup / TextVectorization on RaggedTensors, TextVectorization(ragged=True), adapt on
ragged data and on Datasets: every expected value is Keras 3.15.1's answer on TensorFlow 2.21."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

L = keras.layers


def ragged(rows, dtype=None):
    return tf.ragged.constant(rows, dtype=dtype)


def test_string_lookup_adapts_on_ragged_and_keeps_rows():
    data = ragged([["a", "b", "c"], ["b"], []])
    layer = L.StringLookup()
    layer.adapt(data)
    assert layer.get_vocabulary() == ["[UNK]", "b", "c", "a"]
    out = layer(data)
    assert isinstance(out, tf.RaggedTensor) and out.dtype == tf.int64
    assert out.to_list() == [[3, 1, 2], [1], []]


def test_integer_lookup_adapts_on_ragged():
    data = ragged([[5, 6, 6], [7], [6, 5, 5, 5]], dtype="int64")
    layer = L.IntegerLookup()
    layer.adapt(data)
    assert layer.get_vocabulary() == [-1, 5, 6, 7]
    assert layer(data).to_list() == [[1, 2, 2], [3], [2, 1, 1, 1]]


def test_ragged_input_encoded_per_row_mask_and_invert():
    data = ragged([["a", "b", "c"], ["b"], []])
    assert L.StringLookup(vocabulary=["a", "b"], output_mode="multi_hot")(data).numpy().tolist() == \
        [[1, 1, 1], [0, 0, 1], [0, 0, 0]]
    counted = L.StringLookup(vocabulary=["a", "b"], output_mode="count")(ragged([["a", "a", "b"], []]))
    assert counted.numpy().tolist() == [[0, 2, 1], [0, 0, 0]]
    masked = L.StringLookup(vocabulary=["a", "b"], mask_token="")(ragged([["a", "", "b"], []]))
    assert masked.to_list() == [[2, 0, 3], []]
    inverted = L.StringLookup(vocabulary=["a", "b"], invert=True)(ragged([[1, 2, 0], []], dtype="int64"))
    assert inverted.to_list() == [[b"a", b"b", b"[UNK]"], []]


def test_text_vectorization_ragged_adapted_on_a_dataset():
    layer = L.TextVectorization(ragged=True)
    layer.adapt(tf.data.Dataset.from_tensor_slices(["x y", "y z z", "z"]).batch(2))
    assert layer.get_vocabulary() == ["", "[UNK]", "z", "y", "x"]
    assert layer.get_config()["ragged"] is True and layer.get_config()["vocabulary_size"] == 5
    out = layer(tf.constant(["Z y, x!", "q", ""]))
    assert isinstance(out, tf.RaggedTensor) and out.dtype == tf.int64
    assert out.to_list() == [[2, 3, 4], [1], []]


def test_text_vectorization_ragged_ngrams_cut_and_scalar():
    layer = L.TextVectorization(ragged=True, ngrams=2)
    layer.adapt(["a b a", "b c"])
    assert layer.get_vocabulary() == ["", "[UNK]", "b", "a", "c", "b c", "b a", "a b"]
    assert layer(["a b c", "c"]).to_list() == [[3, 2, 4, 7, 5], [4]]
    cut = L.TextVectorization(ragged=True, output_sequence_length=2, vocabulary=["a", "b", "c"])
    assert cut(["a b c", "c", "a b"]).to_list() == [[2, 3], [4], [2, 3]]  # cut, never padded
    plain = L.TextVectorization(ragged=True, vocabulary=["a", "b", "c"])
    scalar = plain("a b q")
    assert not isinstance(scalar, tf.RaggedTensor) and scalar.numpy().tolist() == [2, 3, 1]
    assert plain([["a b q"], ["c"]]).to_list() == [[2, 3, 1], [4]]


def test_text_vectorization_ragged_tokens_in_padded_out():
    layer = L.TextVectorization(split=None, standardize=None)
    layer.adapt(ragged([["a", "b"], ["b"]]))
    assert layer.get_vocabulary() == ["", "[UNK]", "b", "a"]
    assert layer(ragged([["a", "b"], ["b"]])).numpy().tolist() == [[3, 2], [2, 0]]
    lower = L.TextVectorization(standardize="lower", split=None, vocabulary=["a", "b"])
    assert lower(ragged([["A", "b", "zz"], ["b"]])).numpy().tolist() == [[2, 3, 1], [3, 0, 0]]


def test_ragged_needs_int_mode():
    with pytest.raises(ValueError, match="`ragged` must not be true if `output_mode` is `'int'`. Received: "
                                         "ragged=True and output_mode=multi_hot"):
        L.TextVectorization(ragged=True, output_mode="multi_hot")


def test_adapted_lookups_in_a_functional_model_save_and_reload(tmp_path):
    lookup = L.StringLookup(name="lk")
    lookup.adapt(["a", "b", "b", "c", "c", "c"])
    vectorizer = L.TextVectorization(output_mode="tf_idf", name="tv")
    vectorizer.adapt(["x y", "y z z", "z"])
    words, text = keras.Input(shape=(1,), dtype="string"), keras.Input(shape=(), dtype="string")
    model = keras.Model([words, text], [L.Embedding(5, 2)(lookup(words)), vectorizer(text)])
    path = str(tmp_path / "lookups.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert loaded.get_layer("lk").get_vocabulary() == ["[UNK]", "c", "b", "a"]
    assert loaded.get_layer("tv").get_vocabulary() == ["[UNK]", "z", "y", "x"]
    assert loaded.get_layer("lk").get_config()["vocabulary"] is None  # the vocabulary travels as an asset
    x = [tf.constant([["a"], ["q"], ["c"]]), tf.constant(["z q", "y", "x x"])]
    keras_tf_idf = [[0.7675283551216125, 0.6931471824645996, 0.0, 0.0], [0.0, 0.0, 0.6931471824645996, 0.0],
                    [0.0, 0.0, 0.0, 1.8325815200805664]]
    for before, after in zip(model(x), loaded(x)):
        np.testing.assert_array_equal(before.numpy(), after.numpy())
    np.testing.assert_allclose(loaded.predict(x, verbose=0)[1], keras_tf_idf, rtol=1e-6)


def test_unadapted_lookup_called_eagerly_still_fails():
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
        L.StringLookup()(ragged([["a"]]))


def test_save_and_load_assets_folder(tmp_path):
    layer = L.IntegerLookup()
    layer.adapt([3, 3, 4])
    layer.save_assets(str(tmp_path))
    assert (tmp_path / "vocabulary.txt").read_text() == "-1\n3\n4"
    fresh = L.IntegerLookup()
    fresh.load_assets(str(tmp_path))
    assert fresh.get_vocabulary() == [-1, 3, 4] and fresh(tf.constant([4, 9])).numpy().tolist() == [2, 0]


def test_encoding_lookup_feeding_dense_reloads_with_its_width(tmp_path):
    """The encoding's width comes from the saved vocabulary_size while the model is rebuilt, before the
    vocabulary asset is read."""
    lookup = L.StringLookup(output_mode="tf_idf")
    lookup.adapt(["a", "b", "b", "c"])
    inputs = keras.Input(shape=(1,), dtype="string")
    model = keras.Model(inputs, L.Dense(2)(lookup(inputs)))
    x = tf.constant([["a"], ["c"], ["zz"]])
    path = str(tmp_path / "tf_idf.keras")
    model.save(path)
    np.testing.assert_allclose(keras.models.load_model(path)(x).numpy(), model(x).numpy(), rtol=1e-6)


def test_ragged_paths_run_inside_tf_function():
    vectorize = L.TextVectorization(ragged=True, vocabulary=["a", "b"])
    assert tf.function(lambda x: vectorize(x))(tf.constant(["a b", "b q a", ""])).to_list() == [[2, 3], [3, 1, 2], []]
    lookup = L.StringLookup(vocabulary=["a", "b"])
    assert tf.function(lambda r: lookup(r))(ragged([["a", "x"], ["b"]])).to_list() == [[1, 0], [2]]


def test_vocabulary_of_a_lookup_in_a_nested_sequential_reloads(tmp_path):
    lookup = L.StringLookup(output_mode="tf_idf", name="nested_lookup")
    lookup.adapt(["a", "b", "b"])
    inner = keras.Sequential([keras.Input(shape=(1,), dtype="string"), lookup, L.Dense(2)], name="inner")
    inputs = keras.Input(shape=(1,), dtype="string")
    model = keras.Model(inputs, inner(inputs))
    path = str(tmp_path / "nested.keras")
    model.save(path)
    import zipfile
    # Keras 3.15's place for the vocabulary: the lookup's place in the weights tree (TF 2.21, recorded)
    assert sorted(n for n in zipfile.ZipFile(path).namelist() if n.startswith("assets/")) == [
        "assets/layers/sequential/layers/string_lookup/idf_weights.txt",
        "assets/layers/sequential/layers/string_lookup/vocabulary.txt"]
    x = tf.constant([["a"], ["b"], ["q"]])
    np.testing.assert_allclose(keras.models.load_model(path)(x).numpy(), model(x).numpy(), rtol=1e-6)
