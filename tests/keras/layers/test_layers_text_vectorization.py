"""keras.layers.TextVectorization against TensorFlow 2.21's Keras 3.15: vocabularies, indices, encodings,
configs and errors below were printed by Keras for the same calls (tests never import it)."""
import numpy as np
import pytest

import eagerflow as tf

L = tf.keras.layers
TEXTS = ["The Cat sat, on the mat!", "the dog... ate my HOMEWORK", "cat & dog"]
VOCAB = ["", "[UNK]", "the", "dog", "cat", "sat", "on", "my", "mat", "homework", "ate"]


def adapted(**kwargs):
    layer = L.TextVectorization(**kwargs)
    layer.adapt(TEXTS)
    return layer


def check(out, expected, dtype=tf.int64):
    assert out.dtype == dtype
    if dtype == tf.float32:
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    else:
        assert out.numpy().tolist() == expected


def test_adapt_and_int_output_padding():
    layer = adapted()
    assert layer.get_vocabulary() == VOCAB and layer.vocabulary_size() == 11
    check(layer(tf.constant(TEXTS)), [[2, 4, 5, 6, 2, 8], [2, 3, 10, 7, 9, 0], [4, 3, 0, 0, 0, 0]])
    check(adapted(output_sequence_length=4)(tf.constant(TEXTS)), [[2, 4, 5, 6], [2, 3, 10, 7], [4, 3, 0, 0]])
    check(adapted(output_sequence_length=8)(tf.constant(TEXTS)),
          [[2, 4, 5, 6, 2, 8, 0, 0], [2, 3, 10, 7, 9, 0, 0, 0], [4, 3, 0, 0, 0, 0, 0, 0]])
    check(layer(tf.constant("the cat")), [2, 4])
    check(layer(tf.constant([["the cat"], ["dog"]])), [[2, 4], [3, 0]])
    check(layer(["the cat", "dog dog dog"]), [[2, 4, 0], [3, 3, 3]])
    check(layer(tf.constant(["zebra  the"])), [[1, 2]])
    check(adapted(output_sequence_length=2)(tf.constant([["the cat sat"], ["dog"]])), [[2, 4], [3, 0]])
    assert adapted(max_tokens=5).get_vocabulary() == ["", "[UNK]", "the", "dog", "cat"]


def test_adapt_sources():
    for data in (tf.data.Dataset.from_tensor_slices(TEXTS).batch(2), tf.data.Dataset.from_tensor_slices(TEXTS),
                 np.array(TEXTS), tf.constant(TEXTS)):
        layer = L.TextVectorization()
        layer.adapt(data)
        assert layer.get_vocabulary() == VOCAB


def test_standardize_modes():
    assert adapted(standardize="lower").get_vocabulary() == [
        "", "[UNK]", "the", "cat", "sat,", "on", "my", "mat!", "homework", "dog...", "dog", "ate", "&"]
    assert adapted(standardize="strip_punctuation").get_vocabulary() == [
        "", "[UNK]", "the", "dog", "sat", "on", "my", "mat", "cat", "ate", "The", "HOMEWORK", "Cat"]
    assert adapted(standardize=None).get_vocabulary() == [
        "", "[UNK]", "the", "sat,", "on", "my", "mat!", "dog...", "dog", "cat", "ate", "The", "HOMEWORK", "Cat", "&"]
    assert adapted(standardize=tf.strings.upper).get_vocabulary() == [
        "", "[UNK]", "THE", "CAT", "SAT,", "ON", "MY", "MAT!", "HOMEWORK", "DOG...", "DOG", "ATE", "&"]
    layer = L.TextVectorization()  # ASCII punctuation and ASCII case only, as Keras
    layer.adapt(["\u00bfQu\u00e9? [x] {y} 'z' ~w~ a_b a-b \u00c9 \u00fc"])
    assert layer.get_vocabulary() == ["", "[UNK]", "ab", "\u00fc", "\u00c9", "\u00bfqu\u00e9", "z", "y", "x", "w"]
    spaces = L.TextVectorization()
    spaces.adapt(["a  b\tc\nd "])
    assert spaces.get_vocabulary() == ["", "[UNK]", "d", "c", "b", "a"]


def test_split_modes_and_ngrams():
    chars = adapted(split="character", max_tokens=8)
    assert chars.get_vocabulary() == ["", "[UNK]", " ", "t", "o", "e", "a", "h"]
    check(chars(tf.constant(["ab c"])), [[6, 1, 2, 1]])
    whole = L.TextVectorization(split=None)
    whole.adapt(tf.constant([["a b"], ["c"]]))
    assert whole.get_vocabulary() == ["", "[UNK]", "c", "a b"]
    check(whole(tf.constant([["a b"], ["z"]])), [[3], [1]])
    assert adapted(split=lambda x: tf.strings.split(x, sep=",")).get_vocabulary() == [
        "", "[UNK]", "the dog ate my homework", "the cat sat on the mat", "cat  dog"]
    bigrams = adapted(ngrams=2)
    assert bigrams.get_vocabulary() == [
        "", "[UNK]", "the", "dog", "cat", "the mat", "the dog", "the cat", "sat on", "sat", "on the", "on",
        "my homework", "my", "mat", "homework", "dog ate", "cat sat", "cat dog", "ate my", "ate"]
    check(bigrams(tf.constant(["the cat sat"])), [[2, 4, 9, 7, 17]])
    assert adapted(ngrams=(1, 3), max_tokens=12).get_vocabulary() == [
        "", "[UNK]", "the", "dog", "cat", "the dog ate", "the cat sat", "sat on the", "sat", "on the mat", "on", "my"]


def test_encoded_output_modes():
    check(adapted(output_mode="multi_hot")(tf.constant(["the cat the zebra"])), [[1, 1, 0, 1, 0, 0, 0, 0, 0, 0]])
    check(adapted(output_mode="count")(tf.constant(["the cat the zebra", "dog"])),
          [[1, 2, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]])
    check(adapted(output_mode="tf_idf")(tf.constant(["the cat the zebra"])),
          [[0.8419095873832703, 1.3862943649291992, 0.0, 0.6931471824645996, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
          tf.float32)
    check(adapted(output_mode="multi_hot", max_tokens=20, pad_to_max_tokens=True)(tf.constant(["the cat"])),
          [[0, 1, 0, 1] + [0] * 16])


def test_given_vocabulary_and_config():
    layer = L.TextVectorization(vocabulary=["cat", "the", "dog"])
    check(layer(tf.constant(["The cat ate a dog."])), [[3, 2, 1, 1, 4]])
    assert layer.get_vocabulary() == ["", "[UNK]", "cat", "the", "dog"]
    config = adapted(output_sequence_length=4).get_config()
    assert config.pop("name").startswith("text_vectorization")
    assert config == {"trainable": True, "dtype": {"module": "keras", "class_name": "DTypePolicy",
                                                   "config": {"name": "float32"}, "registered_name": None},
                      "max_tokens": None, "standardize": "lower_and_strip_punctuation", "split": "whitespace",
                      "ngrams": None, "output_mode": "int", "output_sequence_length": 4, "pad_to_max_tokens": False,
                      "sparse": False, "ragged": False, "vocabulary": None, "idf_weights": None, "encoding": "utf-8",
                      "vocabulary_size": 11}
    given = L.TextVectorization(vocabulary=["cat", "the"]).get_config()
    assert given["vocabulary"] == ["cat", "the"] and given["vocabulary_size"] == 4
    again = L.TextVectorization.from_config(given)
    check(again(tf.constant(["the cat"])), [[3, 2]])


@pytest.mark.parametrize("kwargs, message", [
    ({"standardize": "foo"}, "Unknown value for `standardize` argument of TextVectorization. Allowed values are: "
                             "('lower_and_strip_punctuation', 'lower', 'strip_punctuation'). Received: standardize=foo"),
    ({"split": "foo"}, "Unknown value for `split` argument of TextVectorization. Allowed values are: ('whitespace', "
                       "'character'). Received: split=foo"),
    ({"output_mode": "multi_hot", "output_sequence_length": 3},
     "`output_sequence_length` must not be set if `output_mode` is not 'int'. Received output_sequence_length=3."),
    ({"max_tokens": 1}, "If set, `max_tokens` must be greater than 1. Received: max_tokens=1"),
])
def test_errors(kwargs, message):
    with pytest.raises(ValueError) as info:
        L.TextVectorization(**kwargs)
    assert str(info.value) == message


def test_tf_function_dataset_map_and_model():
    layer = adapted(output_sequence_length=3)
    check(tf.function(layer)(tf.constant(["the dog", "cat"])), [[2, 3, 0], [4, 0, 0]])
    traced = tf.function(layer, input_signature=[tf.TensorSpec([None], tf.string)])
    check(traced(tf.constant(["my homework", "the cat sat on"])), [[7, 9, 0], [2, 4, 5]])
    batches = tf.data.Dataset.from_tensor_slices(["the dog", "cat"]).batch(2).map(layer)
    assert [b.tolist() for b in batches.as_numpy_iterator()] == [[[2, 3, 0], [4, 0, 0]]]
    inputs = tf.keras.Input(shape=(1,), dtype="string")
    model = tf.keras.Model(inputs, adapted(output_mode="multi_hot")(inputs))
    assert model.predict(np.array([["the cat"], ["dog"]]), verbose=0).tolist() == [
        [0, 1, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]]
