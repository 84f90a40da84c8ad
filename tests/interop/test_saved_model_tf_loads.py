"""SavedModels written by eagerflow, loaded by real TensorFlow 2.21 in a process that never imported eagerflow:
every signature and every saved tf.function runs and returns eagerflow's values (float32 within 1e-5
relative), and the variables come back with their values."""
import numpy as np

import eagerflow as tf
from eagerflow import keras

RTOL, ATOL = 1e-5, 1e-6


def _close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=RTOL, atol=ATOL)


class _TwoVariables(tf.Module):
    """A tf.Module with two variables and two functions, one with a cond and a while_loop."""

    def __init__(self):
        super().__init__()
        self.scale = tf.Variable([1.5, -2.0], name="scale")
        self.shift = tf.Variable(0.25, name="shift")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def affine(self, x):
        return {"y": x * self.scale + self.shift}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x"), tf.TensorSpec([], tf.int32, name="n")])
    def looped(self, x, n):
        y = tf.cond(x > 0, lambda: x * self.shift, lambda: x - 1.0)
        _, total = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + y), (tf.constant(0), tf.constant(0.0)))
        return total


def test_a_module_with_two_variables_and_two_functions(tmp_path, run_tf):
    m = _TwoVariables()
    m.scaled = tf.function(lambda x, y: x * m.shift + y).get_concrete_function(
        tf.TensorSpec([2], tf.float32, name="x"), tf.TensorSpec([], tf.float32, name="y"))  # a bare ConcreteFunction
    x = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"serving_default": m.affine})
    expected_affine = m.affine(x)["y"].numpy()
    expected_loop = [float(m.looped(tf.constant(v), tf.constant(k))) for v, k in ((2.0, 3), (-1.0, 4), (5.0, 0))]
    answer = run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        m = tf.saved_model.load("m")
        x = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
        sig = m.signatures["serving_default"]
        print(json.dumps({
            "signatures": list(m.signatures),
            "inputs": {k: [s.dtype.name, s.shape.as_list()] for k, s in sig.structured_input_signature[1].items()},
            "served": sig(x=tf.constant(x))["y"].numpy().tolist(),
            "affine": m.affine(tf.constant(x))["y"].numpy().tolist(),
            "looped": [float(m.looped(tf.constant(v), tf.constant(k))) for v, k in ((2.0, 3), (-1.0, 4), (5.0, 0))],
            "variables": sorted([v.name, v.numpy().tolist(), v.trainable] for v in [m.scale, m.shift]),
            "scaled": [m.scaled(tf.constant([1.0, 2.0]), tf.constant(1.0)).numpy().tolist(),
                       m.scaled(x=tf.constant([1.0, 2.0]), y=tf.constant(-1.0)).numpy().tolist()],
        }))
    """)
    assert answer["signatures"] == ["serving_default"]
    assert answer["inputs"] == {"x": ["float32", [None, 2]]}
    _close(answer["served"], expected_affine)
    _close(answer["affine"], expected_affine)
    _close(answer["looped"], expected_loop)
    assert answer["variables"] == [["scale:0", [1.5, -2.0], True], ["shift:0", 0.25, True]]
    assert answer["scaled"] == [[1.25, 1.5], [-0.75, -0.5]]


def test_the_seed_programs_exports_a_serving_fn_and_a_concrete_function(tmp_path, run_tf):
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(3)])

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32)])
    def serving_fn(x):
        return model(x, training=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32, "input_image")])
    def serve_inference(image):
        return model(image, training=False)

    tf.saved_model.save(model, str(tmp_path / "a"), signatures={"serving_default": serving_fn})
    tf.saved_model.save(model, str(tmp_path / "b"),
                        signatures={"serving_default": serve_inference.get_concrete_function()})
    x = np.random.default_rng(1).normal(size=(5, 6)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    answer = run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        x = tf.constant(np.load("x.npy"))
        a = tf.saved_model.load("a").signatures["serving_default"]
        b = tf.saved_model.load("b").signatures["serving_default"]
        print(json.dumps({"a": {k: v.numpy().tolist() for k, v in a(x=x).items()},
                          "b": {k: v.numpy().tolist() for k, v in b(input_image=x).items()},
                          "b_inputs": sorted(b.structured_input_signature[1])}))
    """)
    expected = model(x).numpy()
    assert list(answer["a"]) == ["output_0"] and list(answer["b"]) == ["output_0"]
    _close(answer["a"]["output_0"], expected)
    _close(answer["b"]["output_0"], expected)
    assert answer["b_inputs"] == ["input_image"]


def test_a_gradient_inside_a_saved_function_runs_in_tensorflow(tmp_path, run_tf):
    # The gradient of a broadcast add is eagerflow's SumToShape, written as TensorFlow's ops.
    class Grad(tf.Module):
        def __init__(self):
            super().__init__()
            self.b = tf.Variable([1.0, 2.0, 3.0])

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def grad(self, x):
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(tf.square(x + self.b), axis=1)
            return tape.gradient(y, self.b)

    m = Grad()
    x = np.random.default_rng(2).normal(size=(4, 3)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    tf.saved_model.save(m, str(tmp_path / "g"))
    answer = run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        m = tf.saved_model.load("g")
        print(json.dumps(m.grad(tf.constant(np.load("x.npy"))).numpy().tolist()))
    """)
    _close(answer, m.grad(x).numpy())


def test_an_asset_is_read_from_the_models_copy(tmp_path, run_tf):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("first\nsecond\n")
    m = tf.Module()
    m.vocab = tf.saved_model.Asset(str(vocab))
    m.read = tf.function(lambda: tf.io.read_file(m.vocab.asset_path), input_signature=[])
    tf.saved_model.save(m, str(tmp_path / "m"))
    vocab.unlink()  # the loaded model reads assets/vocab.txt
    answer = run_tf("""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        print(json.dumps([m.read().numpy().decode(), m.vocab.asset_path.numpy().decode()]))
    """)
    assert answer[0] == "first\nsecond\n"
    assert answer[1].endswith("m/assets/vocab.txt")
