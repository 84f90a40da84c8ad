"""keras.utils against Keras 3.15 (TensorFlow 2.21): values and messages below are Keras', written in."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
U = keras.utils
SEQS = [[1, 2, 3], [4, 5], [6], []]


def test_pad_sequences():
    out = U.pad_sequences(SEQS)
    assert out.dtype == np.int32 and out.tolist() == [[1, 2, 3], [0, 4, 5], [0, 0, 6], [0, 0, 0]]
    assert U.pad_sequences(SEQS, padding="post", truncating="post", maxlen=2, value=-1).tolist() == [
        [1, 2], [4, 5], [6, -1], [-1, -1]]
    assert U.pad_sequences(SEQS, maxlen=2).tolist() == [[2, 3], [4, 5], [0, 6], [0, 0]]
    floats = U.pad_sequences([[1.5, 2.5], [3.0]], dtype="float32")
    assert floats.dtype == np.float32 and floats.tolist() == [[1.5, 2.5], [0.0, 3.0]]
    assert U.pad_sequences([[[1, 2], [3, 4]], [[5, 6]]]).tolist() == [[[1, 2], [3, 4]], [[0, 0], [5, 6]]]
    assert U.pad_sequences([["a", "b"], ["c"]], dtype="str", value=0).tolist() == [["a", "b"], ["0", "c"]]
    with pytest.raises(ValueError, match='Padding type "mid" not understood'):
        U.pad_sequences(SEQS, padding="mid")
    with pytest.raises(ValueError, match='Truncating type "mid" not understood'):
        U.pad_sequences(SEQS, truncating="mid")
    with pytest.raises(ValueError, match="`dtype` object is not compatible with `value`'s type: <class 'str'>"):
        U.pad_sequences([["a", "b"], ["c"]], dtype="object", value="x")


def test_normalize_and_to_categorical():
    np.testing.assert_allclose(U.normalize(np.array([[3.0, 4.0], [1.0, 0.0]])), [[0.6, 0.8], [1.0, 0.0]])
    np.testing.assert_allclose(U.normalize(np.array([[3.0, 4.0]]), order=1), [[0.42857143, 0.57142857]])
    np.testing.assert_allclose(U.normalize(np.array([[3.0, 4.0], [4.0, 3.0]]), axis=0), [[0.6, 0.8], [0.8, 0.6]])
    np.testing.assert_array_equal(U.to_categorical([0, 2], 3), [[1, 0, 0], [0, 0, 1]])


def test_pack_and_unpack():
    assert U.pack_x_y_sample_weight(1, 2) == (1, 2)
    assert U.pack_x_y_sample_weight(1) == 1
    assert U.pack_x_y_sample_weight((1, 2)) == ((1, 2),)
    assert U.unpack_x_y_sample_weight((1, 2, 3)) == (1, 2, 3)
    assert U.unpack_x_y_sample_weight(1) == (1, None, None)
    assert U.unpack_x_y_sample_weight([1, 2]) == (1, 2, None)
    with pytest.raises(ValueError, match=r"Data is expected to be in format `x`, `\(x,\)`, `\(x, y\)`, or "
                                         r"`\(x, y, sample_weight\)`, found: \(1, 2, 3, 4\)"):
        U.unpack_x_y_sample_weight((1, 2, 3, 4))


def test_timeseries_dataset_from_array():
    ds = U.timeseries_dataset_from_array(np.arange(10), np.arange(10) * 10, sequence_length=3, sequence_stride=2,
                                         batch_size=2)
    got = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in ds]
    assert got == [([[0, 1, 2], [2, 3, 4]], [0, 20]), ([[4, 5, 6], [6, 7, 8]], [40, 60])]
    ds = U.timeseries_dataset_from_array(np.arange(10), None, sequence_length=3, sampling_rate=2, batch_size=4,
                                         start_index=1, end_index=9)
    assert [x.numpy().tolist() for x in ds] == [[[1, 3, 5], [2, 4, 6], [3, 5, 7], [4, 6, 8]]]
    shuffled = U.timeseries_dataset_from_array(np.arange(20), None, sequence_length=2, batch_size=None, shuffle=True,
                                               seed=3)
    windows = sorted(x.numpy().tolist() for x in shuffled)
    assert windows == [[i, i + 1] for i in range(19)]


def test_split_dataset():
    left, right = U.split_dataset(np.arange(10), left_size=0.8)
    assert [int(v) for v in left] == list(range(8)) and [int(v) for v in right] == [8, 9]
    left, right = U.split_dataset(tf.data.Dataset.range(10), left_size=3)
    assert len(list(left)) == 3 and len(list(right)) == 7
    x, y = np.arange(6).reshape(3, 2), np.arange(3)
    left, right = U.split_dataset((x, y), right_size=1)
    assert [(a.numpy().tolist(), int(b)) for a, b in right] == [([4, 5], 2)]


def test_keras_tensor_helpers_and_serialization():
    inp = keras.Input((2,))
    out = keras.layers.Dense(1)(keras.layers.Dense(3)(inp))
    assert U.is_keras_tensor(inp) and not U.is_keras_tensor(tf.constant(1))
    assert U.get_source_inputs(out) == [inp]
    config = U.serialize_keras_object(keras.layers.Dense(2))
    assert config["module"] == "keras.layers" and config["class_name"] == "Dense" and config["config"]["units"] == 2
    assert U.serialize_keras_object(keras.initializers.Zeros()) == {
        "module": "keras.initializers", "class_name": "Zeros", "config": {}, "registered_name": None}
    layer = U.deserialize_keras_object({"class_name": "Dense", "config": {"units": 3}, "module": "keras.layers",
                                        "registered_name": None})
    assert isinstance(layer, keras.layers.Dense) and layer.units == 3
    with U.CustomObjectScope({"MyDense": keras.layers.Dense}):
        assert isinstance(U.deserialize_keras_object({"class_name": "MyDense", "config": {"units": 1}}),
                          keras.layers.Dense)


class _Batches(U.PyDataset):
    def __init__(self, log, **kwargs):
        super().__init__(**kwargs)
        self.log = log

    def __len__(self):
        return 3

    def __getitem__(self, i):
        self.log.append(f"get{i}")
        x = np.full((4, 2), i, np.float32)
        return x, x.sum(1, keepdims=True)

    def on_epoch_begin(self):
        self.log.append("begin")

    def on_epoch_end(self):
        self.log.append("end")


def _model():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile("sgd", "mse")
    return m


def test_py_dataset_in_fit_evaluate_predict():
    m, log = _model(), []
    data = _Batches(log)
    assert data.num_batches == 3 and data.workers == 1 and not data.use_multiprocessing and data.max_queue_size == 10
    assert U.Sequence is U.PyDataset
    history = m.fit(data, epochs=2, verbose=0)
    assert history.history == {"loss": [0.0, 0.0]}  # Keras 3.15: the ones-kernel fits x.sum exactly
    assert log.count("begin") == 2 and log.count("end") == 2 and sorted(log[1:4]) == ["get0", "get1", "get2"]
    log.clear()
    assert m.evaluate(data, verbose=0) == 0.0
    assert log == ["begin", "get0", "get1", "get2", "end"]  # in order: no shuffling outside fit
    np.testing.assert_array_equal(m.predict(data, verbose=0), np.repeat([[0.0], [2.0], [4.0]], 4, axis=0))
    with pytest.raises(ValueError, match="When providing `x` as a PyDataset, `y` should not be passed"):
        m.fit(data, np.zeros(3), verbose=0)


def test_py_dataset_with_weights_infinite_and_bad_batches():
    m = _model()

    class Weighted(U.PyDataset):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return 1

        def __getitem__(self, i):
            return np.ones((2, 2), np.float32), np.ones((2, 1), np.float32), np.array([1.0, 0.0], np.float32)
    # Keras 3.15: loss = sum(w * (2 - 1)^2) / batch = 0.5
    assert m.evaluate(Weighted(), verbose=0) == pytest.approx(0.5)

    class Endless(U.PyDataset):
        def __init__(self):
            super().__init__()
            self.calls = 0

        @property
        def num_batches(self):
            return None

        def __getitem__(self, i):
            self.calls += 1
            return np.ones((2, 2), np.float32), np.ones((2, 1), np.float32)
    endless = Endless()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m.fit(endless, steps_per_epoch=2, epochs=2, verbose=0)
    assert endless.calls == 4
    assert any("infinite PyDataset" in str(w.message) for w in caught)

    class NoSuper(U.PyDataset):
        def __init__(self):
            pass

        def __len__(self):
            return 1

        def __getitem__(self, i):
            return np.ones((2, 2), np.float32), np.ones((2, 1), np.float32)
    with pytest.warns(UserWarning, match=r"should call `super\(\).__init__\(\*\*kwargs\)`"):
        m.fit(NoSuper(), verbose=0)

    class Scalar(U.PyDataset):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return 1

        def __getitem__(self, i):
            return 1, 2
    with pytest.raises(ValueError, match="the arrays must be at least rank 1. Received: 1 of rank 0"):
        m.fit(Scalar(), verbose=0)
