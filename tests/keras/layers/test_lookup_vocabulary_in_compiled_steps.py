"""A lookup layer's new vocabulary (set_vocabulary, adapt again) and the compiled steps a model keeps.
Keras 3.15 on TensorFlow 2.21 (recorded): a direct call sees the new table at once; predict/evaluate
keep the step they traced, with the old table, until make_predict_function(force=True) /
make_test_function(force=True) (or compile) traces them again; a model first run after the change
uses the new table."""
import eagerflow as tf
from eagerflow import keras

X = [["a", "c"], ["d", "b"]]
OLD, NEW = [[1, 3], [0, 2]], [[3, 1], [4, 2]]


def _string_model():
    layer = keras.layers.StringLookup(vocabulary=["a", "b", "c"])
    inp = keras.Input((2,), dtype="string")
    return layer, keras.Model(inp, layer(inp))


def test_string_lookup_new_vocabulary_in_calls_and_predict():
    layer, model = _string_model()
    x = tf.constant(X)
    assert model.predict(x, verbose=0).tolist() == OLD
    layer.set_vocabulary(["c", "b", "a", "d"])
    assert model(x).numpy().tolist() == NEW
    assert layer(x).numpy().tolist() == NEW
    assert model.predict(x, verbose=0).tolist() == OLD  # the kept predict step, as in Keras
    model.make_predict_function(force=True)
    assert model.predict(x, verbose=0).tolist() == NEW
    assert model.predict_on_batch(x).tolist() == NEW


def test_compile_or_first_predict_after_the_change_use_the_new_table():
    layer, model = _string_model()
    x = tf.constant(X)
    model.predict(x, verbose=0)
    layer.set_vocabulary(["c", "b", "a", "d"])
    model.compile()
    assert model.predict(x, verbose=0).tolist() == NEW
    fresh_layer, fresh = _string_model()
    fresh_layer.set_vocabulary(["c", "b", "a", "d"])
    assert fresh.predict(x, verbose=0).tolist() == NEW


def test_adapted_string_lookup_and_text_vectorization():
    tv = keras.layers.TextVectorization(output_mode="int", output_sequence_length=3)
    tv.adapt(tf.constant(["x y", "y z"]))
    inp = keras.Input((), dtype="string")
    model = keras.Model(inp, tv(inp))
    x = tf.constant(["x y z", "z q"])
    assert model.predict(x, verbose=0).tolist() == [[4, 2, 3], [3, 1, 0]]
    tv.adapt(tf.constant(["q q q z", "z"]))
    assert model.predict(x, verbose=0).tolist() == [[4, 2, 3], [3, 1, 0]]
    assert model.make_predict_function(force=True) is not None
    assert model.predict(x, verbose=0).tolist() == [[1, 1, 3], [3, 2, 0]]


def test_integer_lookup_predict_and_evaluate_steps():
    layer = keras.layers.IntegerLookup(vocabulary=[5, 7])
    inp = keras.Input((2,), dtype="int64")
    model = keras.Model(inp, layer(inp))
    x = tf.constant([[5, 7], [9, 5]], tf.int64)
    y = tf.constant([[3.0, 2.0], [1.0, 3.0]])
    assert model.predict(x, verbose=0).tolist() == [[1, 2], [0, 1]]
    layer.set_vocabulary([9, 7, 5])
    assert model.predict(x, verbose=0).tolist() == [[1, 2], [0, 1]]
    model.make_predict_function(force=True)
    assert model.predict(x, verbose=0).tolist() == [[3, 2], [1, 3]]
    model.compile(loss="mse")
    assert model.evaluate(x, y, verbose=0) == 0.0
    layer.set_vocabulary([5, 7, 9])
    assert model.evaluate(x, y, verbose=0) == 0.0
    model.make_test_function(force=True)
    assert model.evaluate(x, y, verbose=0) == 3.0
