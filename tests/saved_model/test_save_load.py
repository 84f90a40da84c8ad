"""tf.saved_model.save / load: the seed documents' export examples, modules with variables,
control flow, signatures, loaded in a fresh process that never imports this module.

Expected behaviour and messages are TensorFlow 2.21's (run in its own interpreter and written here).
"""
import os

import numpy as np
import pytest

import eagerflow as tf

from .protobuf_edits import legacy_save
from . import fresh_process


class Model(tf.Module):
    """A small dense model standing in for the seed documents' `model`."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w = tf.Variable(rng.standard_normal((3, 2)).astype(np.float32), name="w")
        self.b = tf.Variable(np.array([0.5, -0.5], np.float32), name="b")

    def __call__(self, image, training=False):
        features = tf.reduce_mean(image, axis=[1, 2])  # [batch, 3]
        return tf.nn.relu(tf.matmul(features, self.w) + self.b)


def _numpy_model(model, image):
    features = image.mean(axis=(1, 2))
    return np.maximum(features @ model.w.numpy() + model.b.numpy(), 0)


def test_seed_002_concrete_function_signature_loads_in_a_fresh_process(tmp_path):
    # Seed 002: `concrete_fn = serve_inference.get_concrete_function()`, then
    # `tf.saved_model.save(obj=model, export_dir=..., signatures={'serving_default': concrete_fn})`.
    model = Model()

    @tf.function(input_signature=[tf.TensorSpec([None, 224, 224, 3], tf.float32, 'input_image')])
    def serve_inference(image):
        return model(image, training=False)

    concrete_fn = serve_inference.get_concrete_function()
    tf.saved_model.save(obj=model, export_dir=str(tmp_path / "v1"), signatures={'serving_default': concrete_fn})
    image = np.random.default_rng(1).random((2, 224, 224, 3)).astype(np.float32)
    np.save(tmp_path / "image.npy", image)
    (result, keys) = fresh_process.run(f"""
loaded = tf.saved_model.load({str(tmp_path / 'v1')!r})
image = np.load({str(tmp_path / 'image.npy')!r})
outputs = loaded.signatures['serving_default'](input_image=tf.constant(image))
out(outputs)
out(sorted(loaded.signatures))
""")
    assert keys == ["serving_default"]
    assert list(result) == ["output_0"]
    np.testing.assert_allclose(result["output_0"], _numpy_model(model, image), rtol=1e-5, atol=1e-6)


def test_seed_000_signature_function_without_input_signature_is_refused_as_in_tensorflow(tmp_path):
    # Seed 000: `@tf.function def serving_fn(x): ...` then signatures={"serving_default": serving_fn}.
    model = Model()

    @tf.function
    def serving_fn(x):
        return model(x, training=False)

    message = (r"Expected a TensorFlow function for which to generate a signature, but got .*\. Only "
               r"`tf.functions` with an input signature or concrete functions can be used as a signature\.")
    with pytest.raises(ValueError, match=message):
        tf.saved_model.save(model, str(tmp_path / "my_model"), signatures={"serving_default": serving_fn})
    serving_fn(tf.zeros([1, 2, 2, 3]))  # traced once: still refused (TF 2.21)
    with pytest.raises(ValueError, match=message):
        tf.saved_model.save(model, str(tmp_path / "my_model"), signatures=serving_fn)
    with pytest.raises(ValueError, match="but got 3"):
        tf.saved_model.save(model, str(tmp_path / "my_model"), signatures=3)


def test_seed_003_module_without_signatures_keeps_its_traced_methods(tmp_path):
    # Seed 003: `tf.saved_model.save(model, "./my_model")` after training.
    class Trained(tf.Module):
        def __init__(self):
            super().__init__()
            self.dense = Model()
            self.steps = tf.Variable(0, trainable=False)

        @tf.function
        def predict(self, x):
            return self.dense(x)

        @tf.function
        def train_step(self, x, lr=0.1):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(self.dense(x))
            grads = tape.gradient(loss, [self.dense.w, self.dense.b])
            self.dense.w.assign_sub(lr * grads[0])
            self.dense.b.assign_sub(lr * grads[1])
            self.steps.assign_add(1)
            return loss

    model = Trained()
    x = np.random.default_rng(2).random((4, 5, 5, 3)).astype(np.float32)
    model.train_step(tf.constant(x))
    model.predict(tf.constant(x))
    tf.saved_model.save(model, str(tmp_path / "my_model"))
    expected_predict = _numpy_model(model.dense, x)
    np.save(tmp_path / "x.npy", x)
    predict, steps, w_after, tree = fresh_process.run(f"""
loaded = tf.saved_model.load({str(tmp_path / 'my_model')!r})
x = tf.constant(np.load({str(tmp_path / 'x.npy')!r}))
out(loaded.predict(x))
loaded.train_step(x)
out(loaded.steps.numpy())
out(loaded.dense.w.numpy())
out(sorted(k for k in vars(loaded) if not k.startswith('_'))
    + sorted(k for k in vars(loaded.dense) if not k.startswith('_')))
""")
    np.testing.assert_allclose(predict, expected_predict, rtol=1e-5, atol=1e-6)
    assert steps == 2  # the saved value 1, plus the restored train_step's assign_add
    model.train_step(tf.constant(x))
    np.testing.assert_allclose(w_after, model.dense.w.numpy(), rtol=1e-5, atol=1e-6)
    assert tree == ["dense", "predict", "signatures", "steps", "train_step", "b", "w"]


class Counter(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(3.0)
        self.offsets = [tf.Variable([1.0, 2.0]), tf.Variable([10.0, 20.0])]
        self.config = {"bias": tf.Variable(0.5)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="inp")])
    def named(self, x):
        return {"scaled": x * self.scale, "shifted": x + self.offsets[0] + self.config["bias"]}

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def pair(self, x):
        return x * self.scale, x + self.offsets[1]

    @tf.function
    def times(self, x):
        return x * self.scale


def test_module_with_variables_signatures_and_live_variables_in_a_fresh_process(tmp_path):
    m = Counter()
    m.times(tf.constant(2.0))
    m.times(tf.constant([1.0, 2.0]))
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={
        "serving_default": m.named, "pair": m.pair,
        "times": m.times.get_concrete_function(tf.TensorSpec([], tf.float32))})
    results = fresh_process.run(f"""
m = tf.saved_model.load({str(tmp_path / 'm')!r})
out(m.signatures['serving_default'](inp=tf.constant([1.0, 2.0])))
out(m.signatures['pair'](x=tf.constant([1.0, 2.0])))
out(m.signatures['times'](x=tf.constant(5.0)))
out([m.times(tf.constant(2.0)), m.times(tf.constant([1.0, 2.0])), m.times(4.0)])
m.scale.assign(10.0)
m.config['bias'].assign(0.0)
out([m.times(tf.constant(2.0)), m.signatures['serving_default'](inp=tf.constant([1.0]))])
out([m.offsets[1].numpy(), m.config['bias'].numpy(), m.scale.trainable])
try:
    m.times(tf.constant([[1.0]]))
except ValueError as err:
    out(str(err).splitlines()[0])
try:
    m.signatures['serving_default'](wrong=tf.constant([1.0]))
except TypeError as err:
    out(str(err).split('`')[1])
""")
    named, pair, times, calls, after, values, untraced, bad_kw = results
    assert named == {"scaled": [3.0, 6.0], "shifted": [2.5, 4.5]}
    assert pair == {"output_0": [3.0, 6.0], "output_1": [11.0, 22.0]}
    assert times == {"output_0": 15.0}
    assert calls == [6.0, [3.0, 6.0], 12.0]
    assert after == [20.0, {"scaled": [10.0], "shifted": [2.0, 3.0]}]  # [1] + offsets[0] + 0
    assert values == [[10.0, 20.0], 0.0, True]
    assert untraced == "Could not find matching concrete function to call loaded from the SavedModel. Got:"
    assert bad_kw == "missing a required argument: 'inp'"


class Looper(tf.Module):
    def __init__(self):
        super().__init__()
        self.step = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32)])
    def run(self, x, n):
        def body(i, acc):
            acc = tf.cond(acc > 10.0, lambda: acc - self.step, lambda: acc * 2.0 + 1.0)
            return i + 1, acc
        _, acc = tf.while_loop(lambda i, acc: i < n, body, [0, x])
        return acc

    @tf.function
    def autograph(self, x):
        total = tf.zeros_like(x)
        for i in tf.range(4):
            if tf.reduce_sum(total) > 6.0:
                total = total - self.step
            else:
                total = total + x * tf.cast(i, tf.float32)
        return total


def _python_run(x, n, step):
    acc = x
    for _ in range(n):
        acc = acc - step if acc > 10.0 else acc * 2.0 + 1.0
    return acc


def test_cond_and_while_loop_load_in_a_fresh_process(tmp_path):
    m = Looper()
    m.autograph(tf.constant([1.0, 2.0]))
    tf.saved_model.save(m, str(tmp_path / "loop"), signatures=m.run)
    results = fresh_process.run(f"""
m = tf.saved_model.load({str(tmp_path / 'loop')!r})
out([m.run(tf.constant(x), tf.constant(n)) for x, n in [(1.0, 0), (1.0, 5), (3.0, 7), (-4.0, 3)]])
out(m.signatures['serving_default'](x=tf.constant(1.0), n=tf.constant(6)))
m.step.assign(0.5)
out(m.run(tf.constant(3.0), tf.constant(7)))
out(m.autograph(tf.constant([1.0, 2.0])))
""")
    runs, signature, after, autograph = results
    assert runs == pytest.approx([_python_run(x, n, 2.0) for x, n in [(1.0, 0), (1.0, 5), (3.0, 7), (-4.0, 3)]])
    assert signature == {"output_0": pytest.approx(_python_run(1.0, 6, 2.0))}
    assert after == pytest.approx(_python_run(3.0, 7, 0.5))
    m.step.assign(0.5)  # as in the fresh process
    np.testing.assert_allclose(autograph, m.autograph(tf.constant([1.0, 2.0])).numpy())
    assert autograph == [2.5, 5.5]  # 0, then x, then 3x (sum 9 > 6), then minus the step


def test_signature_outputs_are_named_as_tensorflow_names_them(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def as_list(x):
        return [x, x * 2.0]

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def returns_none(x):
        return None

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def int_key(x):
        return {1: x}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.float32)])
    def two(a, b):
        return a - b

    holder = tf.Module()
    tf.saved_model.save(holder, str(tmp_path / "list"), signatures=as_list)
    loaded = tf.saved_model.load(str(tmp_path / "list"))
    result = loaded.signatures["serving_default"](x=tf.constant(1.0))
    assert {k: float(v) for k, v in result.items()} == {"output_0": 1.0, "output_1": 2.0}
    tf.saved_model.save(holder, str(tmp_path / "two"), signatures=two)
    two_loaded = tf.saved_model.load(str(tmp_path / "two")).signatures["serving_default"]
    assert float(two_loaded(b=tf.constant(1.0), a=tf.constant(5.0))["output_0"]) == 4.0
    # TF 2.21: a loaded signature with two inputs takes none by position (its flat fallback neither)
    with pytest.raises(TypeError, match=r"failed due to `too many positional arguments`(.|\n)*Fallback to flat "
                                        r"signature also failed due to: signature_wrapper_two\(a, b\) takes 0 "
                                        r"positional arguments, got 2\."):
        two_loaded(tf.constant(5.0), tf.constant(1.0))
    with pytest.raises(ValueError, match="Got a non-Tensor value None for key 'output_0' in the output of the "
                                         "function returns_none used to generate the SavedModel signature "
                                         "'serving_default'. Outputs for functions used as signatures must be a "
                                         "single Tensor, a sequence of Tensors, or a dictionary from string to "
                                         "Tensor."):
        tf.saved_model.save(holder, str(tmp_path / "none"), signatures=returns_none)
    with pytest.raises(ValueError, match="Got a dictionary with a non-string key 1 in the output of the function "
                                         "int_key used to generate the SavedModel signature 'serving_default'"):
        tf.saved_model.save(holder, str(tmp_path / "int"), signatures=int_key)


def test_missing_directory_raises_oserror_as_tensorflow(tmp_path):
    # TF 2.21: OSError('SavedModel file does not exist at: <dir>/{saved_model.pbtxt|saved_model.pb}')
    with pytest.raises(OSError, match="SavedModel file does not exist at: .*nothere/"):
        tf.saved_model.load(str(tmp_path / "nothere"))


def test_a_newer_major_format_version_is_refused_with_a_clear_message(tmp_path):
    import json
    holder = tf.Module()
    holder.v = tf.Variable(1.0)
    legacy_save(holder, tmp_path / "m")  # eagerflow's earlier format, the one with format versions
    path = tmp_path / "m" / "saved_model.json"
    document = json.loads(path.read_text())
    assert document["format_version"] == [1, 2]
    document["format_version"] = [1, 7]  # a newer minor version still loads
    path.write_text(json.dumps(document))
    assert float(tf.saved_model.load(str(tmp_path / "m")).v.numpy()) == 1.0
    document["format_version"] = [2, 0]
    path.write_text(json.dumps(document))
    with pytest.raises(tf.errors.DataLossError, match=r"saved_model.json: written in format version 2.0 by a "
                                                      r"newer eagerflow; this version reads format version 1.x"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_data_loss_error_is_an_op_error_named_as_tensorflow():
    assert issubclass(tf.errors.DataLossError, tf.errors.OpError)
    assert tf.errors.DataLossError(None, None, "x").error_code == tf.errors.DATA_LOSS == 15


def test_an_op_whose_attribute_is_a_python_object_is_refused_at_save_time_naming_it(tmp_path):
    # A dataset fed by a Python generator: the traced loop's iterator ops hold the generator's
    # holder object, which no file can describe. TensorFlow 2.21 refuses to save the same function
    # with AssertionError ("Tried to export a function which references an 'untracked' resource").
    holder = tf.Module()
    data = tf.data.Dataset.from_generator(lambda: iter([1.0, 2.0]), output_signature=tf.TensorSpec([], tf.float32))

    @tf.function
    def total():
        s = 0.0
        for x in data:
            s += x
        return s

    assert float(total()) == 3.0
    holder.total = total
    with pytest.raises(AssertionError, match=r"references an 'untracked' resource.* Function 'total' reads a "
                                             r"tf.data pipeline through a Python iterator \(op '.*', type "
                                             r"IteratorOpenPass\)"):
        tf.saved_model.save(holder, str(tmp_path / "g"))
    assert not (tmp_path / "g").exists()


def test_string_constants_and_int_dtypes_round_trip(tmp_path):
    holder = tf.Module()
    holder.count = tf.Variable(np.array([1, 2, 3], np.int64))
    holder.flag = tf.Variable(True)

    @tf.function(input_signature=[tf.TensorSpec([3], tf.int64)])
    def add(x):
        return x + holder.count

    holder.add = add
    tf.saved_model.save(holder, str(tmp_path / "s"))
    loaded = tf.saved_model.load(str(tmp_path / "s"))
    assert loaded.add(tf.constant(np.array([1, 1, 1], np.int64))).numpy().tolist() == [2, 3, 4]
    assert loaded.count.dtype is tf.int64 and bool(loaded.flag.numpy()) is True


def test_loaded_functions_differentiate_inline_and_run_from_threads_like_the_originals(tmp_path):
    import threading
    m = Looper()
    tf.saved_model.save(m, str(tmp_path / "loop"), signatures=m.run)
    loaded = tf.saved_model.load(str(tmp_path / "loop"))
    for module in (m, loaded):
        x = tf.constant(1.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = module.run(x, tf.constant(3))
        assert float(tape.gradient(y, x)) == 8.0  # ((2x + 1) * 2 + 1) * 2 + 1: d/dx = 8
        with tf.GradientTape() as tape:
            y = module.run(tf.constant(20.0), tf.constant(3))
        assert float(tape.gradient(y, module.step)) == -3.0  # three times `acc - step`

    @tf.function
    def outer(v):
        return loaded.run(v, tf.constant(4)) + 1.0

    assert float(outer(tf.constant(1.0))) == _python_run(1.0, 4, 2.0) + 1.0
    results, errors = [], []

    def worker(seed):
        try:
            for n in range(seed % 5, 20, 5):
                results.append((n, float(loaded.run(tf.constant(1.0), tf.constant(n)))))
        except Exception as err:  # handed back to the test thread
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(results) == 8 * 4
    assert all(value == pytest.approx(_python_run(1.0, n, 2.0)) for n, value in results)


def test_loaded_models_are_freed_when_dropped(tmp_path):
    import gc
    import weakref
    m = Looper()
    m.autograph(tf.constant([1.0]))
    tf.saved_model.save(m, str(tmp_path / "loop"), signatures=m.run)
    refs = []
    for _ in range(60):  # each load compiles three functions: kept short
        loaded = tf.saved_model.load(str(tmp_path / "loop"))
        loaded.run(tf.constant(1.0), tf.constant(2))
        refs += [weakref.ref(loaded), weakref.ref(loaded.step), weakref.ref(loaded.signatures["serving_default"])]
        del loaded
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_structured_and_python_arguments_are_checked_after_load_as_before(tmp_path):
    holder = tf.Module()

    @tf.function
    def combine(inputs, *, power=2, mode="sum"):
        total = inputs["b"] ** power - inputs["a"]
        return tf.reduce_sum(total) if mode == "sum" else total

    args = {"b": tf.constant([1.0, 2.0]), "a": tf.constant([0.5, 0.5])}
    combine(args)
    combine(args, power=3, mode="all")
    holder.combine = combine
    tf.saved_model.save(holder, str(tmp_path / "c"))
    loaded = tf.saved_model.load(str(tmp_path / "c"))
    assert float(loaded.combine(args)) == float(combine(args)) == 4.0
    assert loaded.combine(args, power=3, mode="all").numpy().tolist() == [0.5, 7.5]
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.combine(args, power=4)


def test_a_training_step_with_a_cond_gradient_trains_the_same_after_load(tmp_path):
    class Step(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def step(self, x):
            with tf.GradientTape() as tape:
                y = tf.cond(x > 0.0, lambda: x * self.w * self.w, lambda: x - self.w)
            g = tape.gradient(y, self.w)
            self.w.assign_sub(0.1 * g)
            return y, g

    original = Step()
    tf.saved_model.save(original, str(tmp_path / "step"))
    loaded = tf.saved_model.load(str(tmp_path / "step"))
    w = 2.0
    for x in [1.0, -1.0, 2.0, 0.5]:
        expected = (x * w * w, 2 * x * w) if x > 0 else (x - w, -1.0)
        w -= 0.1 * expected[1]
        for model in (original, loaded):
            y, g = model.step(tf.constant(x))
            assert (float(y), float(g)) == pytest.approx(expected, rel=1e-5)
    assert float(loaded.w.numpy()) == pytest.approx(w, rel=1e-5) == float(original.w.numpy())


def test_saving_over_a_model_replaces_its_tensors(tmp_path):
    first = tf.Module()
    first.a, first.b, first.c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
    tf.saved_model.save(first, str(tmp_path / "m"))
    second = tf.Module()
    second.v = tf.Variable([1.0, 2.0, 3.0])
    tf.saved_model.save(second, str(tmp_path / "m"))
    from eagerflow._src.formats.tensor_bundle import BundleReader
    assert not (tmp_path / "m" / "tensors").exists()
    assert sorted(BundleReader(str(tmp_path / "m" / "variables" / "variables")).keys()) == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "v/.ATTRIBUTES/VARIABLE_VALUE"]
    assert tf.saved_model.load(str(tmp_path / "m")).v.numpy().tolist() == [1.0, 2.0, 3.0]


def test_a_module_whose_call_is_a_tf_function_is_callable_after_load(tmp_path):
    class Scale(tf.Module):
        def __init__(self):
            self.w = tf.Variable([2.0, 3.0])

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def __call__(self, x):
            return x * self.w

    model = Scale()
    tf.saved_model.save(model, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    np.testing.assert_array_equal(loaded(tf.constant([1.0, 1.0])).numpy(), [2.0, 3.0])
    loaded.w.assign([4.0, 5.0])  # the restored variable is live
    np.testing.assert_array_equal(loaded(tf.constant([1.0, 1.0])).numpy(), [4.0, 5.0])


def test_empty_public_lists_and_dicts_survive_as_in_tensorflow(tmp_path):
    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.empty, self.table, self.pair = [], {}, ()
    tf.saved_model.save(Holder(), str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    # TF 2.21: ListWrapper([]) {} and no attribute for the empty tuple
    assert (list(loaded.empty), dict(loaded.table), hasattr(loaded, "pair")) == ([], {}, False)

