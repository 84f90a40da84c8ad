"""keras.layers.StringLookup and IntegerLookup against TensorFlow 2.21's Keras 3.15: the expected indices,
dtypes, vocabularies, configs and error messages below were printed by Keras (tests never import it)."""
import numpy as np
import pytest

import eagerflow as tf

L = tf.keras.layers
VOCAB = ["a", "b", "c", "d"]
DATA = [["a", "c", "d"], ["d", "z", "b"]]
INTS = [12, 36, 1138, 42]


def check(out, expected, dtype):
    assert out.dtype == dtype
    if dtype == tf.float32:
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    else:
        assert out.numpy().tolist() == expected


def test_string_lookup_int_mode_and_vocabulary():
    layer = L.StringLookup(vocabulary=VOCAB)
    check(layer(tf.constant(DATA)), [[1, 3, 4], [4, 0, 2]], tf.int64)
    check(layer(tf.constant("b")), 2, tf.int64)
    assert layer.get_vocabulary() == ["[UNK]", "a", "b", "c", "d"]
    assert layer.get_vocabulary(include_special_tokens=False) == VOCAB
    assert layer.vocabulary_size() == 5
    masked = L.StringLookup(vocabulary=VOCAB, mask_token="")
    check(masked(tf.constant([["a", "", "z"]])), [[2, 0, 1]], tf.int64)
    assert masked.get_vocabulary() == ["", "[UNK]", "a", "b", "c", "d"]


def test_several_and_no_oov_indices():
    check(L.StringLookup(vocabulary=VOCAB, num_oov_indices=2)(tf.constant(["a", "z", "y", "q", "b"])),
          [2, 1, 1, 1, 3], tf.int64)
    assert L.StringLookup(vocabulary=VOCAB, num_oov_indices=2).get_vocabulary()[:3] == ["[UNK]", "[UNK]", "a"]
    check(L.StringLookup(vocabulary=VOCAB, num_oov_indices=3, mask_token="")(
        tf.constant(["a", "q", "r", "s", "t", "", "d"])), [4, 3, 2, 2, 2, 0, 7], tf.int64)
    check(L.IntegerLookup(vocabulary=[12, 36], num_oov_indices=3)(tf.constant([12, 7, 8, 9, -4, 36])),
          [3, 1, 2, 0, 2, 4], tf.int64)
    check(L.IntegerLookup(vocabulary=[12, 36], num_oov_indices=3, mask_token=0)(tf.constant([12, 7, 8, 9, 0, 36])),
          [4, 2, 3, 1, 0, 5], tf.int64)
    none = L.StringLookup(vocabulary=VOCAB, num_oov_indices=0)
    check(none(tf.constant(["a", "b"])), [0, 1], tf.int64)
    for call in (none, tf.function(none)):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values"):
            call(tf.constant(["a", "z"]))


def test_encoded_output_modes():
    check(L.StringLookup(vocabulary=VOCAB, output_mode="one_hot")(tf.constant(["a", "b", "z"])),
          [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 0, 0, 0, 0]], tf.int64)
    check(L.StringLookup(vocabulary=VOCAB, output_mode="one_hot")(tf.constant([["b"], ["c"]])),
          [[0, 0, 1, 0, 0], [0, 0, 0, 1, 0]], tf.int64)
    check(L.StringLookup(vocabulary=VOCAB, output_mode="multi_hot")(tf.constant(DATA)),
          [[0, 1, 0, 1, 1], [1, 0, 1, 0, 1]], tf.int64)
    check(L.StringLookup(vocabulary=VOCAB, output_mode="multi_hot")(tf.constant("b")), [0, 0, 1, 0, 0], tf.int64)
    check(L.StringLookup(vocabulary=VOCAB, output_mode="count")(tf.constant([["a", "a", "z"], ["d", "d", "d"]])),
          [[1, 2, 0, 0, 0], [0, 0, 0, 0, 3]], tf.int64)
    check(L.StringLookup(vocabulary=VOCAB, output_mode="multi_hot", max_tokens=8, pad_to_max_tokens=True)(
        tf.constant(DATA)), [[0, 1, 0, 1, 1, 0, 0, 0], [1, 0, 1, 0, 1, 0, 0, 0]], tf.int64)
    check(L.StringLookup(vocabulary=VOCAB, mask_token="", output_mode="multi_hot")(tf.constant([["a", "", "z"]])),
          [[1, 1, 0, 0, 0]], tf.int64)
    assert L.StringLookup(vocabulary=VOCAB, mask_token="", output_mode="multi_hot").vocabulary_size() == 5
    check(L.IntegerLookup(vocabulary=INTS, output_mode="multi_hot")(tf.constant([[12, 1138, 42], [42, 1000, 36]])),
          [[0, 1, 0, 1, 1], [1, 0, 1, 0, 1]], tf.int64)


def test_tf_idf_given_and_adapted():
    layer = L.StringLookup(vocabulary=VOCAB, output_mode="tf_idf", idf_weights=[0.25, 0.75, 0.6, 0.4])
    check(layer(tf.constant([["a", "c", "d", "d"], ["d", "z", "b", "z"]])),
          [[0.0, 0.25, 0.0, 0.6000000238418579, 0.800000011920929], [1.0, 0.0, 0.75, 0.0, 0.4000000059604645]],
          tf.float32)
    check(L.StringLookup(vocabulary=["a", "b"], num_oov_indices=2, output_mode="tf_idf", idf_weights=[1.0, 3.0])(
        tf.constant([["a", "q", "b"]])), [[0.0, 2.0, 1.0, 3.0]], tf.float32)
    adapted = L.StringLookup(output_mode="tf_idf")
    adapted.adapt(tf.constant([["a", "b"], ["a", "c"], ["a", "a"]]))
    assert adapted.get_vocabulary() == ["[UNK]", "a", "c", "b"]
    check(adapted.idf_weights, [0.79739910364151, 0.5596157908439636, 0.9162907600402832, 0.9162907600402832],
          tf.float32)
    check(adapted(tf.constant([["a", "b", "z"]])), [[0.79739910364151, 0.5596157908439636, 0.0, 0.9162907600402832]],
          tf.float32)
    padded = L.StringLookup(max_tokens=6, pad_to_max_tokens=True, output_mode="tf_idf")
    padded.adapt(tf.constant([["a", "b"], ["a", "c"], ["a", "a"]]))
    check(padded.idf_weights, [0.79739910364151, 0.5596157908439636, 0.9162907600402832, 0.9162907600402832, 0, 0],
          tf.float32)
    masked = L.StringLookup(output_mode="tf_idf", mask_token="")
    masked.adapt(tf.constant([["a", "b"], ["a", ""], ["a", "a"]]))
    assert masked.get_vocabulary() == ["[UNK]", "a", "b"]
    check(masked(tf.constant([["a", "b", "", "z"]])), [[0.7379533052444458, 0.5596157908439636, 0.9162907600402832]],
          tf.float32)
    rows = L.StringLookup(output_mode="tf_idf")
    rows.adapt(tf.constant(["a", "b", "a"]))  # a 1-D batch: each element is a document
    check(rows.idf_weights, [0.8047189712524414, 0.6931471824645996, 0.9162907600402832], tf.float32)


def test_invert():
    check(L.StringLookup(vocabulary=VOCAB, invert=True)(tf.constant([[1, 3, 4], [4, 0, 2], [9, 9, 9]])),
          [[b"a", b"c", b"d"], [b"d", b"[UNK]", b"b"], [b"[UNK]"] * 3], tf.string)
    check(L.StringLookup(vocabulary=VOCAB, invert=True, mask_token="")(tf.constant([[2, 0, 5], [1, 3, 4]])),
          [[b"a", b"", b"d"], [b"[UNK]", b"b", b"c"]], tf.string)
    check(L.StringLookup(vocabulary=VOCAB, num_oov_indices=2, invert=True)(tf.constant([0, 1, 2, 5, 6])),
          [b"[UNK]", b"[UNK]", b"a", b"d", b"[UNK]"], tf.string)
    check(L.IntegerLookup(vocabulary=INTS, invert=True)(tf.constant([[1, 3, 4], [4, 0, 2]])),
          [[12, 1138, 42], [42, -1, 36]], tf.int64)
    check(L.IntegerLookup(vocabulary=INTS, invert=True, mask_token=0)(tf.constant([[2, 0, 5]])), [[12, 0, 42]],
          tf.int64)


def test_adapt_orders_by_count_then_larger_token():
    layer = L.StringLookup()
    layer.adapt(["b", "a", "c", "b", "c", "b", "d", "d", "d", "e", "a", "a", "b"])
    assert layer.get_vocabulary() == ["[UNK]", "b", "d", "a", "c", "e"]
    capped = L.StringLookup(max_tokens=4)
    capped.adapt(tf.constant([["x", "y"], ["y", "z"], ["w", "w"]]))
    assert capped.get_vocabulary() == ["[UNK]", "y", "w", "z"]
    batches = L.StringLookup()
    batches.adapt(tf.data.Dataset.from_tensor_slices(["q", "r", "r", "s", "q", "r"]).batch(2))
    assert batches.get_vocabulary() == ["[UNK]", "r", "q", "s"]
    special = L.StringLookup(mask_token="")
    special.adapt(tf.constant(["a", "", "", "[UNK]", "[UNK]", "[UNK]", "b", "a"]))
    assert special.get_vocabulary() == ["", "[UNK]", "a", "b"]
    ints = L.IntegerLookup()
    ints.adapt(np.array([[12, 1138, 42], [42, 1000, 36], [42, 12, 7]]))
    assert ints.get_vocabulary() == [-1, 42, 12, 1138, 1000, 36, 7]
    config = L.StringLookup()
    config.adapt(["x", "y", "y"])
    assert config.get_config()["vocabulary"] is None and config.get_config()["vocabulary_size"] == 3


def test_vocabulary_file_set_vocabulary_and_inputs(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("a\nb\nc\n")
    check(L.StringLookup(vocabulary=str(path))(tf.constant(["c", "q"])), [3, 0], tf.int64)
    assert L.StringLookup(vocabulary=str(path)).get_config()["vocabulary"] is None
    layer = L.StringLookup(vocabulary=VOCAB)
    layer.set_vocabulary(["x", "y"])
    check(layer(tf.constant(["y", "a"])), [2, 0], tf.int64)
    check(L.StringLookup(vocabulary=[b"a", b"b"])(tf.constant(["b"])), [2], tf.int64)
    assert L.StringLookup(vocabulary=np.array(["a", "b"])).get_config()["vocabulary"] == ["a", "b"]
    check(L.IntegerLookup(vocabulary=INTS)(tf.constant([12.0])), [1], tf.int64)
    check(L.IntegerLookup(vocabulary=INTS)(tf.constant([12, 7], tf.int32)), [1, 0], tf.int64)
    assert L.StringLookup().vocabulary_size() == 1 and L.StringLookup().get_vocabulary() == ["[UNK]"]
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
        L.StringLookup()(tf.constant(["a"]))


STRING_CONFIG = {"trainable": True, "dtype": {"module": "keras", "class_name": "DTypePolicy",
                                              "config": {"name": "float32"}, "registered_name": None},
                 "invert": False, "max_tokens": None, "num_oov_indices": 1, "oov_token": "[UNK]", "mask_token": None,
                 "output_mode": "int", "sparse": False, "pad_to_max_tokens": False, "idf_weights": None,
                 "vocabulary": ["a", "b", "c", "d"], "vocabulary_size": 5, "oov_method": "floormod", "salt": None,
                 "encoding": "utf-8"}


def test_configs_and_round_trip():
    config = L.StringLookup(vocabulary=VOCAB).get_config()
    assert config.pop("name").startswith("string_lookup") and config == STRING_CONFIG
    unset = L.StringLookup(max_tokens=5).get_config()
    assert unset["vocabulary"] is None and unset["vocabulary_size"] is None and unset["max_tokens"] == 5
    ints = L.IntegerLookup(vocabulary=INTS).get_config()
    ints.pop("name")
    expected = {**STRING_CONFIG, "oov_token": -1, "vocabulary_dtype": "int64", "vocabulary": INTS}
    del expected["encoding"]
    assert ints == expected
    again = L.StringLookup.from_config(L.StringLookup(vocabulary=VOCAB, mask_token="").get_config())
    check(again(tf.constant(["c", ""])), [4, 0], tf.int64)


@pytest.mark.parametrize("make, message", [
    (lambda: L.StringLookup(vocabulary=VOCAB, output_mode="tf_idf"),
     "When specifying the `vocabulary` argument, in TF-IDF output mode, the `idf_weights` argument must also be "
     "provided."),
    (lambda: L.StringLookup(vocabulary=VOCAB, output_mode="foo"),
     "Unknown value for `output_mode` argument of StringLookup. Allowed values are: ('int', 'one_hot', 'multi_hot', "
     "'count', 'tf_idf'). Received: output_mode=foo"),
    (lambda: L.StringLookup(vocabulary=["a", "b", "a"]),
     "The passed vocabulary has at least one repeated term. Please uniquify your dataset. The repeated terms are: "),
    (lambda: L.StringLookup(vocabulary=["", "a"], mask_token=""),
     "Found reserved mask token at unexpected location in `vocabulary`. Note that passed `vocabulary` does not need "
     "to include the OOV and mask tokens. Either remove all mask and OOV tokens, or include them only at the start "
     "of the vocabulary in precisely this order: ['', '[UNK]']. Received: mask_token= at vocabulary index [0]"),
    (lambda: L.StringLookup(num_oov_indices=-1),
     "`num_oov_indices` must be greater than or equal to 0. Received: num_oov_indices=-1"),
    (lambda: L.StringLookup(max_tokens=1), "If set, `max_tokens` must be greater than 1. Received: max_tokens=1"),
    (lambda: L.StringLookup(output_mode="multi_hot", pad_to_max_tokens=True),
     "If pad_to_max_tokens is True, must set `max_tokens`. Received: max_tokens=None"),
    (lambda: L.StringLookup(vocabulary=VOCAB, invert=True, output_mode="one_hot"),
     "`output_mode` must be `'int'` when `invert` is true. Received: output_mode=one_hot"),
    (lambda: L.StringLookup(vocabulary=VOCAB, max_tokens=3),
     "Attempted to set a vocabulary larger than the maximum vocab size. Received vocabulary size is 5; "
     "`max_tokens` is 3."),
    (lambda: L.StringLookup(vocabulary=VOCAB, output_mode="multi_hot").set_vocabulary(VOCAB, idf_weights=[1.0] * 4),
     "`idf_weights` should only be set if output_mode is `'tf_idf'`. Received: output_mode=multi_hot and "
     "idf_weights=[1.0, 1.0, 1.0, 1.0]"),
    (lambda: L.IntegerLookup(vocabulary_dtype="int32"),
     "Only `vocabulary_dtype='int64'` is supported at this time. Received: vocabulary_dtype=int32"),
    (lambda: L.IntegerLookup(max_tokens=0),
     "If `max_tokens` is set for `IntegerLookup`, it must be greater than 1. Received: max_tokens=0"),
])
def test_errors(make, message):
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value).startswith(message)


def test_tf_function_dataset_map_and_model():
    layer = L.StringLookup(vocabulary=VOCAB)
    mapped = tf.data.Dataset.from_tensor_slices(["a", "z", "d"]).map(layer)
    assert [int(v) for v in mapped.as_numpy_iterator()] == [1, 0, 4]
    traced = tf.function(layer)
    check(traced(tf.constant(["d", "q"])), [4, 0], tf.int64)
    layer.set_vocabulary(["q", "d"])
    check(layer(tf.constant(["d", "q"])), [2, 1], tf.int64)
    inputs = tf.keras.Input(shape=(2,), dtype="string")
    hot = L.StringLookup(vocabulary=VOCAB, output_mode="multi_hot")(inputs)
    model = tf.keras.Model(inputs, hot)
    assert model.predict(np.array([["a", "b"], ["z", "d"]]), verbose=0).tolist() == [[0, 1, 1, 0, 0],
                                                                                     [1, 0, 0, 0, 1]]


def test_model_fit_on_string_inputs():
    inputs = tf.keras.Input(shape=(1,), dtype="string")
    ids = L.StringLookup(vocabulary=VOCAB)(inputs)
    outputs = L.Dense(1)(L.Flatten()(L.Embedding(5, 4)(ids)))
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer="sgd", loss="mse")
    x = np.array([["a"], ["b"], ["c"], ["z"]] * 4)
    y = np.array([[0.0], [1.0], [2.0], [3.0]] * 4, np.float32)
    history = model.fit(x, y, epochs=3, batch_size=4, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.predict(x[:4], verbose=0).shape == (4, 1)


def test_traced_calls_keep_the_vocabulary_of_their_trace_and_layers_have_no_weights():
    """Keras 3.15 on TF: a new vocabulary (set_vocabulary or a second adapt) makes a new table, which
    eager calls see and an already traced function does not; the lookup layers own no weights."""
    layer = L.StringLookup(vocabulary=VOCAB)
    traced = tf.function(lambda x: layer(x))
    check(traced(tf.constant(["d", "q"])), [4, 0], tf.int64)
    layer.set_vocabulary(["q", "d"])
    check(traced(tf.constant(["d", "q"])), [4, 0], tf.int64)
    check(layer(tf.constant(["d", "q"])), [2, 1], tf.int64)
    adapted = L.StringLookup()
    traced = tf.function(lambda x: adapted(x))
    adapted.adapt(["x", "y", "y"])
    check(traced(tf.constant(["y"])), [1], tf.int64)
    adapted.adapt(["z", "z", "y"])
    check(traced(tf.constant(["y"])), [1], tf.int64)
    assert layer.weights == [] and len(layer.variables) == 0
    text = L.TextVectorization()
    text.adapt(["a b b"])
    assert text.weights == []
