"""tf.cond / tf.while_loop (and AutoGraph's tensor if/while) exported as ONNX If / Loop, checked
in ONNX Runtime against eagerflow. Skipped only when onnx/onnxruntime are not installed."""
import numpy as np
import pytest

import eagerflow as tf

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from eagerflow.onnx import export  # noqa: E402


def _session(fn, tmp_path):
    path = tmp_path / "f.onnx"
    export(fn, path)
    onnx.checker.check_model(onnx.load(str(path)), full_check=True)
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def _agree(session, fn, feeds):
    got = session.run(None, {k: np.asarray(v) for k, v in feeds.items()})  # ORT wants arrays, not NumPy scalars
    want = fn(**{k: tf.constant(v) for k, v in feeds.items()})
    want = want if isinstance(want, (list, tuple)) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.numpy().dtype
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-6)


def test_cond_and_while_loop(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x"), tf.TensorSpec([None], tf.float32, name="v")])
    def f(x, v):
        y = tf.cond(x > 0, lambda: x * 2.0 + tf.reduce_sum(v), lambda: -x)
        i, s = tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s * 0.5 + tf.reduce_mean(v) * x),
                             (tf.constant(0), y))
        return y, s, i
    session = _session(f, tmp_path)
    for x in (2.0, -3.0, 0.0):
        _agree(session, f, {"x": np.float32(x), "v": np.arange(4, dtype=np.float32)})


def test_a_loop_that_never_runs_and_one_that_depends_on_its_input(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32, name="n"), tf.TensorSpec([3], tf.float32, name="x")])
    def f(n, x):
        def body(i, acc):
            return i + 1, acc * 1.5 - x
        return tf.while_loop(lambda i, acc: i < n, body, (tf.constant(0), x))
    session = _session(f, tmp_path)
    for n in (0, 1, 7):
        _agree(session, f, {"n": np.int32(n), "x": np.array([1.0, -2.0, 0.5], np.float32)})


def test_a_cond_nested_in_a_loop_body(tmp_path):
    w = tf.Variable([[0.5, -1.0], [1.0, 0.25]])

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def f(x):
        def body(i, h):
            h = tf.cond(tf.reduce_sum(h) > 0.0, lambda: tf.nn.relu(tf.matmul(h, w)), lambda: tf.tanh(h) + 1.0)
            return i + 1, h
        return tf.while_loop(lambda i, h: i < 4, body, (tf.constant(0), x))[1]
    session = _session(f, tmp_path)
    for x in ([[1.0, 2.0]], [[-3.0, 0.5], [0.1, 0.2]]):
        _agree(session, f, {"x": np.array(x, np.float32)})


def test_autograph_tensor_if_and_while(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x")])
    def collatz_like(x):
        steps = tf.constant(0)
        while x > 1.0:
            if x > 10.0:
                x = x / 2.0
            else:
                x = x - 3.0
            steps += 1
        return x, steps
    session = _session(collatz_like, tmp_path)
    for x in (0.5, 7.0, 100.0):
        _agree(session, collatz_like, {"x": np.float32(x)})


def test_a_saved_models_cond_and_while_export(tmp_path):
    class Model(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x")])
        def serve(self, x):
            y = tf.cond(x > 1.0, lambda: x * x, lambda: x + 10.0)
            return {"y": tf.while_loop(lambda v: v < 100.0, lambda v: v * 3.0, [y])[0]}
    model = Model()
    tf.saved_model.save(model, str(tmp_path / "m"), signatures={"serving_default": model.serve})
    export(str(tmp_path / "m"), tmp_path / "m.onnx")
    session = ort.InferenceSession(str(tmp_path / "m.onnx"), providers=["CPUExecutionProvider"])
    for x in (0.5, 4.0):
        (got,) = session.run(None, {"x": np.array(x, np.float32)})
        np.testing.assert_allclose(got, model.serve(tf.constant(x))["y"].numpy(), rtol=1e-6)


def test_a_tf_range_loop_and_a_range_export(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32, name="n"), tf.TensorSpec([3], tf.float32, name="x")])
    def loop(n, x):
        s = tf.zeros([3])
        for i in tf.range(n):
            s = s + x * tf.cast(i, tf.float32)
        return s

    session = _session(loop, tmp_path)
    for n in (0, 1, 4):
        _agree(session, loop, {"n": np.int32(n), "x": np.array([1., 2., 3.], np.float32)})

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32, name="n")])
    def ramp(n):
        return tf.cast(tf.range(1, n, 2), tf.float32) * 2.0

    session = _session(ramp, tmp_path)
    for n in (1, 2, 6):  # tf.range(1, 0, 2) is an error in TensorFlow
        _agree(session, ramp, {"n": np.int32(n)})
