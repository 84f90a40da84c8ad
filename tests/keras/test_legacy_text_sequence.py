"""keras.preprocessing.text (Tokenizer and helpers) and keras.preprocessing.sequence's legacy helpers
(TimeseriesGenerator, skipgrams, make_sampling_table), against TensorFlow 2.21's tf.keras (Keras 3.15):
every expected value below is what it printed for the same calls."""
import json

import numpy as np
import pytest

import eagerflow as tf

T = tf.keras.preprocessing.text
S = tf.keras.preprocessing.sequence
TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "Cat and dog: friends?", "the THE the"]


@pytest.fixture
def fitted():
    tokenizer = T.Tokenizer(num_words=6, oov_token="<OOV>")
    tokenizer.fit_on_texts(TEXTS)
    return tokenizer


def test_the_word_index_ranks_words_by_count_with_the_oov_token_first(fitted):
    assert fitted.word_index == {"<OOV>": 1, "the": 2, "cat": 3, "dog": 4, "sat": 5, "on": 6, "mat": 7, "ate": 8,
                                 "my": 9, "homework": 10, "and": 11, "friends": 12}
    assert list(fitted.word_counts.items()) == [("the", 6), ("cat", 2), ("sat", 1), ("on", 1), ("mat", 1),
                                                ("dog", 2), ("ate", 1), ("my", 1), ("homework", 1), ("and", 1),
                                                ("friends", 1)]
    assert dict(fitted.word_docs) == {"the": 3, "sat": 1, "mat": 1, "cat": 2, "on": 1, "my": 1, "homework": 1,
                                      "dog": 2, "ate": 1, "friends": 1, "and": 1}
    assert dict(fitted.index_docs) == {2: 3, 5: 1, 7: 1, 3: 2, 6: 1, 9: 1, 10: 1, 4: 2, 8: 1, 12: 1, 11: 1}
    assert fitted.document_count == 4
    assert fitted.index_word[3] == "cat"


def test_sequences_keep_indices_below_num_words_and_map_the_rest_to_oov(fitted):
    assert fitted.texts_to_sequences(["the cat ate a bird", "dog dog"]) == [[2, 3, 1, 1, 1], [4, 4]]
    assert fitted.sequences_to_texts([[1, 2, 3, 7, 9], [5]]) == ["<OOV> the cat <OOV> <OOV>", "sat"]
    plain = T.Tokenizer()
    plain.fit_on_texts(TEXTS)
    assert plain.texts_to_sequences(["the cat ate zzz"]) == [[1, 2, 7]]  # no OOV token: unknown words dropped
    assert plain.texts_to_matrix(["cat"]).shape == (1, 12)  # no num_words: the whole index plus 0


@pytest.mark.parametrize("mode, first_row", [
    ("binary", [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]),
    ("count", [0.0, 0.0, 2.0, 1.0, 0.0, 0.0]),
    ("freq", [0.0, 0.0, 0.6667, 0.3333, 0.0, 0.0]),
    ("tfidf", [0.0, 0.0, 1.1736, 0.8473, 0.0, 0.0]),
])
def test_matrix_modes(fitted, mode, first_row):
    matrix = fitted.texts_to_matrix(["the cat the", ""], mode=mode)
    assert matrix.round(4).tolist() == [first_row, [0.0] * 6]


def test_character_level_and_token_lists():
    tokenizer = T.Tokenizer(char_level=True, lower=False)
    tokenizer.fit_on_texts(["abca", ["x", "Y", "x"]])
    assert tokenizer.word_index == {"a": 1, "x": 2, "b": 3, "c": 4, "Y": 5}
    assert tokenizer.texts_to_sequences(["aaxY"]) == [[1, 1, 2, 5]]


def test_json_round_trip_and_config(fitted):
    text = fitted.to_json()
    assert sorted(json.loads(text)["config"]) == ["char_level", "document_count", "filters", "index_docs",
                                                 "index_word", "lower", "num_words", "oov_token", "split",
                                                 "word_counts", "word_docs", "word_index"]
    again = T.tokenizer_from_json(text)
    assert again.word_index == fitted.word_index and again.index_word == fitted.index_word
    assert again.texts_to_sequences(["the cat ate a bird"]) == [[2, 3, 1, 1, 1]]
    assert again.texts_to_matrix(["the cat the"], mode="tfidf").round(4).tolist() == [[0.0, 0.0, 1.1736, 0.8473, 0.0, 0.0]]
    config = fitted.get_config()
    assert {k: config[k] for k in ("num_words", "filters", "lower", "split", "char_level", "oov_token",
                                   "document_count")} == {
        "num_words": 6, "filters": '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n', "lower": True, "split": " ",
        "char_level": False, "oov_token": "<OOV>", "document_count": 4}


def test_word_sequences_hashing_and_fit_on_sequences():
    assert T.text_to_word_sequence("Hello, World!  Foo--bar") == ["hello", "world", "foo", "bar"]
    assert T.text_to_word_sequence("A;b", filters=";", lower=False, split=" ") == ["A", "b"]
    assert T.hashing_trick("the cat the", 10, hash_function="md5") == [6, 3, 6]
    indices = T.one_hot("the cat the", 10)
    assert len(indices) == 3 and indices[0] == indices[2] and all(1 <= i < 10 for i in indices)
    tokenizer = T.Tokenizer()
    tokenizer.fit_on_sequences([[1, 2, 2], [2, 3]])
    assert tokenizer.document_count == 2 and dict(tokenizer.index_docs) == {1: 1, 2: 2, 3: 1}


def test_errors_name_what_is_missing(fitted):
    with pytest.raises(ValueError, match=r"Specify a dimension \(`num_words` argument\), or fit on some text data first"):
        T.Tokenizer().texts_to_matrix(["a"])
    with pytest.raises(ValueError, match="Unknown vectorization mode"):
        fitted.texts_to_matrix(["a"], mode="bad")
    with pytest.raises(ValueError, match="Fit the Tokenizer on some data before using tfidf mode"):
        T.Tokenizer(num_words=3).texts_to_matrix(["a"], mode="tfidf")


def test_the_legacy_tutorial_pipeline_trains():
    """Tokenizer -> pad_sequences -> Embedding model, as older text-classification tutorials write it."""
    tokenizer = T.Tokenizer(num_words=20, oov_token="<OOV>")
    tokenizer.fit_on_texts(TEXTS)
    padded = S.pad_sequences(tokenizer.texts_to_sequences(TEXTS), maxlen=6, padding="post")
    assert padded.shape == (4, 6) and padded[0].tolist() == [2, 3, 5, 6, 2, 7]
    model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Embedding(20, 4),
                                 tf.keras.layers.GlobalAveragePooling1D(), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile("adam", "binary_crossentropy")
    history = model.fit(padded, np.array([1, 0, 1, 0]), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_sampling_table_and_skipgrams():
    np.testing.assert_allclose(S.make_sampling_table(5, 0.01), [0.099683, 0.099683, 0.173165, 0.234501, 0.288658],
                               atol=1e-6)
    couples, labels = S.skipgrams([1, 2, 3], 4, window_size=1, negative_samples=0.0, shuffle=False)
    assert couples == [[1, 2], [2, 1], [2, 3], [3, 2]] and labels == [1, 1, 1, 1]
    couples, labels = S.skipgrams([1, 2, 3], 4, window_size=1, negative_samples=0.0, shuffle=False, categorical=True)
    assert labels == [[0, 1]] * 4
    couples, labels = S.skipgrams([1, 2, 3, 0], 5, window_size=2, negative_samples=1.0, seed=3)
    assert len(couples) == 12 and sorted(labels) == [0] * 6 + [1] * 6
    assert all(0 <= a < 5 and 0 <= b < 5 for a, b in couples)
    positives = sorted(tuple(c) for c, label in zip(couples, labels) if label == 1)
    assert positives == [(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2)]  # word 0 (padding) pairs with nothing
    assert S.skipgrams([1, 2, 3, 0], 5, window_size=2, seed=3) == (couples, labels)  # the seed repeats it


def test_timeseries_generator_windows_and_errors():
    g = S.TimeseriesGenerator(np.arange(20).reshape(10, 2), np.arange(10), length=3, stride=2, batch_size=2)
    assert len(g) == 2
    assert g[0][0].tolist() == [[[0, 1], [2, 3], [4, 5]], [[4, 5], [6, 7], [8, 9]]] and g[0][1].tolist() == [3, 5]
    assert g[1][1].tolist() == [7, 9]
    g = S.TimeseriesGenerator(np.arange(10), np.arange(10), length=4, sampling_rate=2, batch_size=3, reverse=True,
                              start_index=1, end_index=8)
    assert len(g) == 2
    assert [x.tolist() for x in g[0]] == [[[3, 1], [4, 2], [5, 3]], [5, 6, 7]]
    assert [x.tolist() for x in g[1]] == [[[6, 4]], [8]]
    with pytest.raises(ValueError, match=r"`start_index\+length=5 > end_index=2` is disallowed"):
        S.TimeseriesGenerator(np.arange(3), np.arange(3), length=5)
    shuffled = S.TimeseriesGenerator(np.arange(30.0)[:, None], np.arange(30.0), length=5, shuffle=True, batch_size=4)
    x, y = shuffled[0]
    assert x.shape == (4, 5, 1) and (x[:, -1, 0] + 1 == y).all()  # each window ends right before its target


def test_a_timeseries_generator_feeds_fit():
    series = np.sin(np.arange(60.0)).astype("float32")[:, None]
    g = S.TimeseriesGenerator(series, series, length=6, batch_size=8)
    model = tf.keras.Sequential([tf.keras.Input((6, 1)), tf.keras.layers.LSTM(4), tf.keras.layers.Dense(1)])
    model.compile("adam", "mse")
    history = model.fit(g, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and len(g) == 7


def test_the_legacy_namespace_is_tensorflows():
    names = [n for n in dir(tf.keras.preprocessing) if not n.startswith("_")]
    assert {"image", "image_dataset_from_directory", "sequence", "text", "text_dataset_from_directory",
            "timeseries_dataset_from_array"} <= set(names)
