"""HashedCrossing against Keras 3.15.1 on TensorFlow 2.21 (whose bins are tf.sparse.cross_hashed's):
the recorded bins for string/integer crosses of two and three features, shapes, one-hot output, config
and Keras' messages."""
import numpy as np
import pytest

from eagerflow import keras

L = keras.layers
A = np.array(["A", "B", "A", "B", "C", "hello", "x", "yz"])
B = np.array([1, 2, 1, 3, 2, -5, 7, 123456789012])
C = np.array(["p", "q", "r", "s", "t", "u", "v", "w"])


def test_bins_equal_tensorflow_cross_hashed():
    # recorded from keras.layers.HashedCrossing in TensorFlow 2.21's Keras 3.15.1
    assert np.asarray(L.HashedCrossing(num_bins=5)((A, B))).tolist() == [0, 1, 0, 1, 1, 0, 3, 2]
    assert np.asarray(L.HashedCrossing(num_bins=100)((A, B, C))).tolist() == [97, 76, 37, 69, 49, 51, 83, 31]
    column = L.HashedCrossing(num_bins=7)((A[:, None], B[:, None]))
    assert np.asarray(column).tolist() == [[0], [5], [0], [3], [2], [1], [6], [0]]
    assert int(np.asarray(L.HashedCrossing(num_bins=1000)(("A", 1)))) == 115
    ints = L.HashedCrossing(num_bins=1000)((np.array([3, 4], np.int32), np.array([5, 6], np.int32)))
    assert np.asarray(ints).tolist() == [412, 479] and ints.dtype.name == "int64"


def test_one_hot_output():
    hot = np.asarray(L.HashedCrossing(num_bins=4, output_mode="one_hot")((A, B)))
    assert hot.dtype == np.float32 and hot.shape == (8, 4)
    np.testing.assert_array_equal(hot.argmax(-1), [3, 2, 3, 0, 2, 3, 3, 1])
    assert np.asarray(L.HashedCrossing(4, output_mode="one_hot")((A[:, None], B[:, None]))).shape == (8, 4)


def test_config():
    layer = L.HashedCrossing(3, output_mode="one_hot", name="cross")
    assert layer.get_config() == {"num_bins": 3, "output_mode": "one_hot", "sparse": False, "name": "cross",
                                  "dtype": "float32"}
    assert L.HashedCrossing.from_config(layer.get_config()).get_config() == layer.get_config()
    assert L.HashedCrossing(3).get_config()["dtype"] == "int64"


@pytest.mark.parametrize("call, message", [
    (lambda: L.HashedCrossing(3)(A), "`HashedCrossing` should be called on a list or tuple of inputs."),
    (lambda: L.HashedCrossing(3)([A]), "`HashedCrossing` should be called on at least two inputs."),
    (lambda: L.HashedCrossing(3)((A, B[:3])), "All `HashedCrossing` inputs should have equal shape."),
    (lambda: L.HashedCrossing(3)((np.zeros((2, 2), np.int64), np.zeros((2, 2), np.int64))),
     "All `HashedCrossing` inputs should have shape `()`, `(batch_size)` or `(batch_size, 1)`."),
    (lambda: L.HashedCrossing(3, output_mode="multi_hot"),
     "Unknown value for `output_mode` argument of HashedCrossing. Allowed values are: ('int', 'one_hot'). "
     "Received: output_mode=multi_hot"),
])
def test_keras_messages(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert message in str(info.value)
