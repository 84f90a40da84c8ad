"""Loops over tf.range, tf.TensorArray loops and Keras RNNs (TensorList ops: Reserve, SetItem, GetItem,
Stack, FromTensor, Length; Range; a StridedSlice at a loop index; ZerosLike and Split from the RNN
cells) exported to ONNX and run in ONNX Runtime, against eagerflow's own results. Skipped only when
onnx/onnxruntime are not installed."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from eagerflow.onnx import export  # noqa: E402

RNG = np.random.default_rng(0)


def _agree(fn, tmp_path, *inputs, atol=1e-5):
    path = tmp_path / "f.onnx"
    export(fn, path)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    got = session.run(None, dict(zip(names, inputs)))
    want = fn(*[tf.constant(x) for x in inputs])
    want = want if isinstance(want, (list, tuple)) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == tuple(w.shape) and g.dtype == w.numpy().dtype
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=atol)
    return onnx.load(str(path))


def _op_types(model):
    found = set()

    def walk(graph):
        for node in graph.node:
            found.add(node.op_type)
            for attr in node.attribute:
                if attr.g is not None and attr.g.node:
                    walk(attr.g)
    walk(model.graph)
    return found


def test_for_over_tf_range(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def running_sum(x):
        s = tf.zeros([3])
        for t in tf.range(tf.shape(x)[0]):
            s = s * 0.5 + x[t]
        return s
    for n in (1, 4, 7):
        model = _agree(running_sum, tmp_path, RNG.standard_normal((n, 3)).astype(np.float32))
    assert "Loop" in _op_types(model)


def test_tensor_array_write_and_stack(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def doubled(x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=n)
        for t in tf.range(n):
            ta = ta.write(t, x[t] * 2.0 + tf.cast(t, tf.float32))
        return ta.stack(), ta.size()
    for n in (1, 5):
        model = _agree(doubled, tmp_path, RNG.standard_normal((n, 3)).astype(np.float32))
    assert {"SequenceInsert", "ConcatFromSequence", "SequenceLength"} <= _op_types(model)


def test_tensor_array_written_backwards(tmp_path):
    """Each write replaces the item at its index, whatever the order."""
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def reversed_cumsum(x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=n, element_shape=[])
        s = tf.constant(0.0)
        for t in tf.range(n - 1, -1, -1):
            s = s + x[t]
            ta = ta.write(t, s)
        return ta.stack()
    _agree(reversed_cumsum, tmp_path, np.arange(1, 6, dtype=np.float32))


def test_tensor_array_unstack_and_read(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def read_back(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(x)
        s = tf.zeros([2])
        for t in tf.range(ta.size()):
            s = s + ta.read(t) * tf.cast(t + 1, tf.float32)
        return s
    model = _agree(read_back, tmp_path, RNG.standard_normal((4, 2)).astype(np.float32))
    assert {"SplitToSequence", "SequenceAt"} <= _op_types(model)


@pytest.mark.parametrize("layer", [
    lambda: keras.layers.SimpleRNN(4), lambda: keras.layers.LSTM(4), lambda: keras.layers.GRU(4),
    lambda: keras.layers.LSTM(4, return_sequences=True), lambda: keras.layers.GRU(3, return_sequences=True),
], ids=["simple_rnn", "lstm", "gru", "lstm_sequences", "gru_sequences"])
def test_keras_rnn(tmp_path, layer):
    model = keras.Sequential([keras.Input((5, 3)), layer()])
    f = tf.function(lambda x: model(x), input_signature=[tf.TensorSpec([None, 5, 3], tf.float32)])
    _agree(f, tmp_path, RNG.standard_normal((2, 5, 3)).astype(np.float32))
