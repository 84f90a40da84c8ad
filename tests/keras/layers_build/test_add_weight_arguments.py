"""Layer.add_weight and Metric.add_variable/add_weight with Keras 3.15's arguments: their order,
defaults, `aggregation`, `autocast`, `overwrite_with_gradient`, and the errors for what Keras 3.15
refuses (a positional name, a fourth positional argument, `synchronization` on a layer weight).
Every expected value and message below was printed by Keras 3.15.1 (TensorFlow 2.21) running the
same calls."""
import re

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras


class _Plain(keras.layers.Layer):
    pass


class _State(keras.metrics.Metric):
    def update_state(self, *args, **kwargs):
        pass

    def result(self):
        return 0.0


def _options(v):
    return v.name, v.path, tuple(v.shape), v.dtype.name, v.trainable, v.aggregation, v.synchronization


def test_aggregation_is_kept_in_keras_words():
    layer = _Plain(name="lay")
    for aggregation, expected in (("mean", "mean"), ("sum", "sum"), ("only_first_replica", "only_first_replica"),
                                  (None, "none")):
        w = layer.add_weight(shape=(2,), initializer="ones", aggregation=aggregation, name="a")
        assert _options(w) == ("a", "lay/a", (2,), "float32", True, expected, "auto")
    np.testing.assert_array_equal(w.numpy(), [1.0, 1.0])
    with pytest.raises(ValueError, match=re.escape(
            "Invalid value for argument `aggregation`. Expected one of `None`, `'none'`, `'mean'`, `'sum'`, "
            "`'only_first_replica'`. Received: aggregation=max")):
        layer.add_weight(shape=(2,), aggregation="max")


def test_synchronization_is_not_a_layer_weight_argument_in_keras_3():
    layer = _Plain()
    with pytest.raises(TypeError, match=re.escape("Layer.add_weight() got an unexpected keyword argument "
                                                  "'synchronization'")):
        layer.add_weight(shape=(2,), synchronization="on_read")


def test_positional_shape_initializer_dtype_and_their_errors():
    layer = _Plain(name="pos")
    w = layer.add_weight((2,), "ones", "float64")
    assert (tuple(w.shape), w.dtype.name) == ((2,), "float64") and re.fullmatch(r"variable(_\d+)?", w.name)
    assert w.path == f"pos/{w.name}"
    np.testing.assert_array_equal(w.numpy(), [1.0, 1.0])
    other = layer.add_weight((2, 3))
    assert other.name != w.name and re.fullmatch(r"variable(_\d+)?", other.name)  # numbered, as Keras numbers
    cases = [
        (lambda: layer.add_weight((2,), "ones", "float64", True), TypeError,
         "add_weight() takes at most 3 positional arguments but 4 were given."),
        (lambda: layer.add_weight("w", (2,)), ValueError,
         "`name` must be passed as a keyword argument. Received: add_weight('w', ...). "
         "Use: add_weight(shape=..., name='w')."),
        (lambda: layer.add_weight((2,), shape=(2,)), ValueError,
         "`shape` was passed both positionally and as a keyword argument."),
        (lambda: layer.add_weight((2,), "ones", initializer="zeros"), ValueError,
         "`initializer` was passed both positionally and as a keyword argument."),
        (lambda: layer.add_weight((2,), "ones", "float32", dtype="float32"), ValueError,
         "`dtype` was passed both positionally and as a keyword argument."),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=re.escape(message)):
            call()


def test_an_integer_weight_without_initializer_starts_at_zero():
    w = _Plain().add_weight(shape=(2,), dtype="int32", name="i")
    assert w.dtype.name == "int32"
    np.testing.assert_array_equal(w.numpy(), [0, 0])  # Keras 3.15: zeros (not glorot_uniform)


def test_autocast_false_keeps_the_weight_dtype_in_a_mixed_call():
    class Mixed(keras.layers.Layer):
        def build(self, shape):
            self.a = self.add_weight(shape=(2,), initializer="ones", name="a")
            self.b = self.add_weight(shape=(2,), initializer="ones", name="b", autocast=False)

        def call(self, x):
            return (tf.convert_to_tensor(self.a).dtype.name, tf.convert_to_tensor(self.b).dtype.name,
                    (x * self.a).dtype.name)
    assert Mixed(dtype="mixed_float16")(np.ones((1, 2), np.float32)) == ("float16", "float32", "float16")


@pytest.mark.parametrize("make, expected_w, slot_paths", [
    (lambda: keras.optimizers.SGD(0.1), [0.8999999761581421, 1.0999999046325684], []),
    (lambda: keras.optimizers.Adam(0.1), [0.8000027537345886, 1.1999973058700562], ["o_w_momentum", "o_w_velocity"]),
])
def test_overwrite_with_gradient_assigns_the_gradient(make, expected_w, slot_paths):
    class Owner(keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(2,), initializer="ones", name="w")
            self.s = self.add_weight(shape=(2,), initializer="ones", name="s", overwrite_with_gradient=True)
    owner = Owner(name="o")
    owner.build((1, 2))
    assert owner.s.overwrite_with_gradient and not owner.w.overwrite_with_gradient
    opt = make()
    opt.apply_gradients([(tf.constant([0.5, -0.5]), owner.w), (tf.constant([3.0, 4.0]), owner.s)])
    opt.apply_gradients([(tf.constant([0.5, -0.5]), owner.w), (tf.constant([5.0, 6.0]), owner.s)])
    np.testing.assert_allclose(owner.w.numpy(), expected_w, rtol=1e-6)
    np.testing.assert_array_equal(owner.s.numpy(), [5.0, 6.0])  # the last gradient, as it came
    assert [v.path.split("/", 1)[1] for v in opt.variables][2:] == slot_paths  # no slots for `s`
    assert int(opt.iterations.numpy()) == 2


def test_metric_add_variable_takes_keras_3_order_and_defaults():
    m = _State(name="my/met")
    a = m.add_variable((2,), "ones")
    assert _options(a)[2:] == ((2,), "float32", False, "sum", "on_read")
    assert re.fullmatch(r"variable(_\d+)?", a.name) and a.path == f"my>met/{a.name}"  # '/' reads '>'
    np.testing.assert_array_equal(a.numpy(), [1.0, 1.0])
    b = m.add_variable((3,), "zeros", "float64", "mean", "nm")
    assert _options(b) == ("nm", "my>met/nm", (3,), "float64", False, "mean", "on_read")
    c = m.add_variable(shape=(), initializer="zeros", name="count")
    assert _options(c) == ("count", "my>met/count", (), "float32", False, "sum", "on_read")
    d = m.add_weight(shape=(2,), initializer="ones", name="w")
    assert _options(d) == ("w", "my>met/w", (2,), "float32", False, "sum", "on_read")
    assert m.variables == [a, b, c, d]
    cases = [
        (lambda: m.add_variable(shape=(), name="count2"), TypeError,
         "add_variable() missing 1 required positional argument: 'initializer'"),
        (lambda: m.add_variable("total", (), "zeros"), ValueError, "Could not interpret initializer identifier: ()"),
        (lambda: m.add_variable((), "zeros", aggregation="max"), ValueError,
         "Invalid value for argument `aggregation`. Expected one of `None`, `'none'`, `'mean'`, `'sum'`, "
         "`'only_first_replica'`. Received: aggregation=max"),
        (lambda: m.add_weight(shape=(2,), initializer="ones", aggregation="mean"), TypeError,
         "add_weight() got an unexpected keyword argument 'aggregation'"),
        (lambda: m.add_weight(name="w0"), ValueError, "Attempt to convert a value (None)"),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=re.escape(message)):
            call()


def test_metric_dtype_config_and_argument_order():
    class Summed(keras.metrics.Metric):
        def __init__(self, name="m", **kwargs):
            super().__init__(name=name, **kwargs)
            self.total = self.add_variable(shape=(), initializer="zeros", name="total")

        def update_state(self, x):
            self.total.assign_add(tf.reduce_sum(x))

        def result(self):
            return self.total
    m = Summed()
    assert (m.dtype, m.get_config()) == ("float32", {"name": "m", "dtype": "float32"})
    m.update_state(tf.constant([1.0, 2.0]))
    assert float(m.result()) == 3.0
    m.reset_state()
    assert float(m.result()) == 0.0
    wide = Summed(dtype="float64")
    assert wide.dtype == "float64" and wide.total.dtype.name == "float32"  # state stays float32, as in Keras
    positional = _State("float64", "pos")  # Keras 3.15: Metric(dtype=None, name=None)
    assert (positional.dtype, positional.name) == ("float64", "pos")
