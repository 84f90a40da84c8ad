"""keras.layers.Hashing against Keras 3.15 (TF 2.21 backend): the bins below are what Keras gave
for the same inputs (FarmHash Fingerprint64 of the text, or SipHash-2-4 with a salt)."""
import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
H = keras.layers.Hashing
LETTERS = [["A"], ["B"], ["C"], ["D"], ["E"]]


def test_bins_match_keras3():
    assert H(num_bins=3)(LETTERS).numpy().tolist() == [[1], [0], [1], [1], [2]]
    assert H(num_bins=3, mask_value="")(np.array([["A"], [""], ["C"]])).numpy().tolist() == [[1], [0], [2]]
    assert H(num_bins=5)(np.array([[1], [22], [-3], [1000000007]])).numpy().tolist() == [[4], [0], [4], [0]]
    assert H(num_bins=5, mask_value=0)(np.array([[1, 0], [22, 0]])).numpy().tolist() == [[2, 0], [1, 0]]
    assert H(num_bins=5)(np.array([1.5, 2.7, -0.5], np.float32)).numpy().tolist() == [4, 4, 0]
    assert H(num_bins=3)("A").numpy().tolist() == 1


def test_salted_bins_match_keras3():
    assert H(num_bins=7, salt=133)(LETTERS).numpy().tolist() == [[4], [5], [4], [0], [3]]
    assert H(num_bins=1000003, salt=[1, 2])(np.array(["", "a", "hello world", "x" * 100])).numpy().tolist() == [
        383377, 332029, 598105, 755313]


def test_encoded_outputs_match_keras3():
    out = H(num_bins=4, output_mode="one_hot")(np.array([["A"], ["B"], ["Z"]]))
    assert out.dtype == tf.float32
    assert out.numpy().tolist() == [[1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]]
    assert H(num_bins=4, output_mode="multi_hot")(np.array([["A", "B"], ["Z", "Z"]])).numpy().tolist() == [
        [1, 0, 0, 0], [0, 0, 1, 0]]
    assert H(num_bins=4, output_mode="count")(np.array([["A", "B", "A"], ["Z", "Z", "q"]])).numpy().tolist() == [
        [3, 0, 0, 0], [0, 1, 2, 0]]
    assert H(num_bins=4)(np.array([["A"]])).dtype == tf.int64
    assert H(num_bins=4, dtype="int32")(np.array([["A"]])).dtype == tf.int32
    assert H(num_bins=3, output_mode="one_hot").compute_output_shape((None, 1)) == (None, 3)


def test_config_round_trip():
    layer = H(num_bins=3, mask_value="", salt=5, name="h")
    config = layer.get_config()
    assert config == {"name": "h", "trainable": True,
                      "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "int64"},
                                "registered_name": None},
                      "num_bins": 3, "salt": [5, 5], "mask_value": "", "output_mode": "int", "sparse": False}
    clone = H.from_config(config)
    x = np.array([["A"], [""], ["q"]])
    np.testing.assert_array_equal(clone(x).numpy(), layer(x).numpy())


def test_in_a_model_and_under_tf_function():
    inputs = keras.Input(shape=(1,), dtype="string")
    model = keras.Model(inputs, H(num_bins=3)(inputs))
    np.testing.assert_array_equal(model.predict(np.array(LETTERS), verbose=0), [[1], [0], [1], [1], [2]])
    layer = H(num_bins=3)
    fn = tf.function(lambda x: layer(x))
    np.testing.assert_array_equal(fn(tf.constant(LETTERS)).numpy(), [[1], [0], [1], [1], [2]])


@pytest.mark.parametrize("kwargs,message", [
    (dict(num_bins=0), "The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: num_bins=0."),
    (dict(num_bins=None), "cannot be `None` or non-positive values. Received: num_bins=None."),
    (dict(num_bins=3, output_mode="bogus"), "Invalid value for argument `output_mode`. Expected one of ('int', "
                                            "'one_hot', 'multi_hot', 'count'). Received: output_mode=bogus"),
    (dict(num_bins=3, sparse=True), '`sparse` may only be true if `output_mode` is `"one_hot"`, `"multi_hot"`, or '
                                    '`"count"`. Received: sparse=True and output_mode=int'),
    (dict(num_bins=3, salt="x"), "The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a "
                                 "single integer. Received: salt=x."),
    (dict(num_bins=3, dtype="float32"), "When `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' or "
                                        "'in64'. Received: dtype=float32"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError) as info:
        H(**kwargs)
    assert message in str(info.value)
