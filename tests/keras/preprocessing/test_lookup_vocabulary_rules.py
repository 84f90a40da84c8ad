"""When a lookup layer's vocabulary may change, as Keras 3.15 rules (messages recorded from Keras 3.15.1 on
TensorFlow 2.21): a layer built with a `vocabulary` cannot adapt; an encoding output ("one_hot",
"multi_hot", "count", "tf_idf" without pad_to_max_tokens) keeps the width of its first vocabulary (given,
set, adapted, or the config's `vocabulary_size`) and must have one before it is called; and CategoryEncoding
takes plain Python ids."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

_ADAPT = re.escape("after setting a static vocabulary via `vocabulary` argument or `set_vocabulary()` method.")


def _size_changed(mode, old, new):
    return re.escape(f"When using `output_mode={mode}` and `pad_to_max_tokens=False`, the vocabulary size cannot "
                     f"be changed after the layer is called. Old vocab size is {old}, new vocab size is {new}")


def test_a_layer_given_a_vocabulary_cannot_adapt():
    layer = keras.layers.StringLookup(vocabulary=["a", "b"], name="words")
    with pytest.raises(ValueError, match="Cannot adapt layer 'words' " + _ADAPT):
        layer.adapt(["a", "c", "c"])
    assert layer.get_vocabulary() == ["[UNK]", "a", "b"]
    with pytest.raises(ValueError, match="Cannot adapt layer 'ids' " + _ADAPT):
        keras.layers.IntegerLookup(vocabulary=[1, 2], name="ids").adapt([1, 3, 3])
    with pytest.raises(ValueError, match=r"Cannot adapt layer '\w+' " + _ADAPT):  # (its inner StringLookup's name)
        keras.layers.TextVectorization(vocabulary=["a", "b"]).adapt(["a b c"])
    restored = keras.layers.StringLookup.from_config(keras.layers.StringLookup(vocabulary=["a"]).get_config())
    with pytest.raises(ValueError, match="Cannot adapt layer"):
        restored.adapt(["z"])


def test_set_vocabulary_then_adapt_and_adapting_again_are_allowed():
    layer = keras.layers.StringLookup()
    layer.set_vocabulary(["a", "b"])
    layer.adapt(["a", "c", "c"])
    assert layer.get_vocabulary() == ["[UNK]", "c", "a"]  # Keras 3.15
    layer.adapt(["d"])
    assert layer.get_vocabulary() == ["[UNK]", "d"]


@pytest.mark.parametrize("change, mode, old, new", [
    (lambda: _adapted("multi_hot").adapt(["a", "b", "c", "d"]), "multi_hot", 3, 5),
    (lambda: _adapted("tf_idf").adapt(["a", "b", "c"]), "tf_idf", 3, 4),
    (lambda: _given("multi_hot").set_vocabulary(["a", "b", "c"]), "multi_hot", 3, 4),
    (lambda: _set_twice("multi_hot", ["a"], ["a", "b"]), "multi_hot", 2, 3),
    (lambda: _int_lookup_one_hot().set_vocabulary([1, 2, 3]), "one_hot", 3, 4),
    (lambda: _text("multi_hot").adapt(["a b c d"]), "multi_hot", 3, 5),
    (lambda: _text("multi_hot").set_vocabulary(["a"]), "multi_hot", 3, 2),
    (lambda: _restored_multi_hot().set_vocabulary(["a", "b", "c"]), "multi_hot", 3, 4),
])
def test_an_encodings_width_is_fixed_by_its_first_vocabulary(change, mode, old, new):
    with pytest.raises(RuntimeError, match=_size_changed(mode, old, new)):
        change()


def _adapted(mode):
    layer = keras.layers.StringLookup(output_mode=mode)
    layer.adapt(["a", "b"])
    return layer


def _given(mode):
    layer = keras.layers.StringLookup(vocabulary=["a", "b"], output_mode=mode)
    layer(["a"])
    return layer


def _set_twice(mode, first, second):
    layer = keras.layers.StringLookup(output_mode=mode)
    layer.set_vocabulary(first)
    layer.set_vocabulary(second)


def _int_lookup_one_hot():
    layer = keras.layers.IntegerLookup(output_mode="one_hot", vocabulary=[1, 2])
    layer([1])
    return layer


def _text(mode):
    layer = keras.layers.TextVectorization(output_mode=mode)
    layer.adapt(["a b"])
    return layer


def _restored_multi_hot():
    return keras.layers.StringLookup.from_config(_adapted("multi_hot").get_config())  # vocabulary_size 3


def test_changes_that_keep_the_width_apply():
    layer = _adapted("multi_hot")
    np.testing.assert_array_equal(layer(["a"]).numpy(), [0, 0, 1])  # Keras 3.15: [UNK], b, a
    layer.adapt(["c", "d"])  # the same size: allowed
    np.testing.assert_array_equal(layer(["c"]).numpy(), [0, 0, 1])
    ints = keras.layers.StringLookup(vocabulary=["a"])
    ints(["a"])
    ints.set_vocabulary(["a", "b", "c"])  # "int" output has no width to keep
    np.testing.assert_array_equal(ints(["c"]).numpy(), [3])
    padded = keras.layers.StringLookup(output_mode="count", pad_to_max_tokens=True, max_tokens=10)
    padded.set_vocabulary(["a"])
    padded.set_vocabulary(["a", "b"])
    np.testing.assert_array_equal(padded(["b"]).numpy(), [0, 0, 1, 0, 0, 0, 0, 0, 0, 0])


def test_an_encoding_needs_a_vocabulary_before_it_is_called():
    message = re.escape("When using `output_mode=multi_hot` and `pad_to_max_tokens=False`, you must set the layer's "
                        "vocabulary before calling it. Either pass a `vocabulary` argument to the layer, or call "
                        "`adapt` with some sample data.")
    with pytest.raises(RuntimeError, match=message):
        keras.layers.StringLookup(output_mode="multi_hot")(["a"])
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
        keras.layers.StringLookup(output_mode="int")(["a"])


# Keras 3.15: CategoryEncoding(num_tokens=4) on Python ids; a scalar id is a sample of one
@pytest.mark.parametrize("mode, ids, expected", [
    ("multi_hot", [[0, 1], [3, 3]], [[1, 1, 0, 0], [0, 0, 0, 1]]),
    ("multi_hot", [1, 2], [0, 1, 1, 0]),
    ("multi_hot", 2, [0, 0, 1, 0]),
    ("one_hot", [[0, 1], [3, 3]], [[[1, 0, 0, 0], [0, 1, 0, 0]], [[0, 0, 0, 1], [0, 0, 0, 1]]]),
    ("one_hot", [1, 2], [[0, 1, 0, 0], [0, 0, 1, 0]]),
    ("one_hot", 2, [[0, 0, 1, 0]]),
    ("count", [[0, 1], [3, 3]], [[1, 1, 0, 0], [0, 0, 0, 2]]),
    ("count", 2, [0, 0, 1, 0]),
])
def test_category_encoding_takes_python_ids(mode, ids, expected):
    out = keras.layers.CategoryEncoding(num_tokens=4, output_mode=mode)(ids)
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), np.array(expected, np.float32))


def test_category_encoding_width_follows_num_tokens_when_it_changes():
    layer = keras.layers.CategoryEncoding(num_tokens=3, output_mode="multi_hot")
    layer([[0, 1]])
    layer.num_tokens = 5  # Keras 3.15 allows it: the next call is 5 wide
    np.testing.assert_array_equal(layer([[0, 4]]).numpy(), [[1, 0, 0, 0, 1]])
