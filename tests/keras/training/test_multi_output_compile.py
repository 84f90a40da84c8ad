"""compile/fit/evaluate on a two-output functional model with per-output losses, loss_weights and
metrics as lists, tuples and dicts: history keys and values, evaluate's list order and metrics_names,
as Keras 3.15.1 on TensorFlow 2.21 recorded them for the same weights and data."""
import numpy as np
import pytest

from eagerflow import keras

SCCE = "sparse_categorical_crossentropy"


def two_output_model():
    inp = keras.Input((3,), name="x")
    h = keras.layers.Dense(4, activation="tanh", name="h")(inp)
    a = keras.layers.Dense(2, activation="softmax", name="out_a")(h)
    b = keras.layers.Dense(1, name="out_b")(h)
    model = keras.Model(inp, [a, b])
    rng = np.random.default_rng(0)
    for w in model.weights:
        w.assign(rng.normal(size=w.shape).astype("float32") * 0.5)
    return model


def data():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(8, 3)).astype("float32")
    ya = rng.integers(0, 2, size=(8,))
    yb = rng.normal(size=(8, 1)).astype("float32")
    return x, ya, yb


def fit_history(y=None, epochs=2, compile_kwargs=None, **fit_kwargs):
    x, ya, yb = data()
    model = two_output_model()
    model.compile(optimizer=keras.optimizers.SGD(0.1), **compile_kwargs)
    history = model.fit(x, [ya, yb] if y is None else y, batch_size=4, epochs=epochs, verbose=0, shuffle=False,
                        **fit_kwargs)
    return model, history.history


def assert_history(history, expected):
    assert sorted(history) == sorted(expected)
    for key, values in expected.items():
        np.testing.assert_allclose(history[key], values, rtol=2e-5, err_msg=key)


LIST_HISTORY = {"loss": [1.6493934392929077, 1.4830209016799927], "out_a_accuracy": [0.375, 0.375],
                "out_a_loss": [0.9330970048904419, 0.8489059209823608],
                "out_b_loss": [1.4325928688049316, 1.2682299613952637],
                "out_b_mae": [0.9102472066879272, 0.8223276138305664]}
LIST_EVALUATE = [1.3970507383346558, 0.798244297504425, 1.1976128816604614, 0.375, 0.8119476437568665]


@pytest.mark.parametrize("container", [list, tuple])
def test_list_and_tuple_losses_weights_and_metrics(container):
    model, history = fit_history(compile_kwargs=dict(
        loss=container([SCCE, "mse"]), metrics=container([["accuracy"], ["mae"]]),
        loss_weights=container([1.0, 0.5])))
    # `loss` is out_a_loss + 0.5 * out_b_loss; the per-output losses are unweighted
    assert_history(history, LIST_HISTORY)
    x, ya, yb = data()
    np.testing.assert_allclose(model.evaluate(x, [ya, yb], batch_size=4, verbose=0), LIST_EVALUATE, rtol=2e-5)
    logs = model.evaluate(x, [ya, yb], batch_size=4, verbose=0, return_dict=True)
    assert sorted(logs) == ["loss", "out_a_accuracy", "out_a_loss", "out_b_loss", "out_b_mae"]
    assert model.metrics_names == ["loss", "compile_metrics", "out_a_loss", "out_b_loss"]


def test_dict_losses_weights_and_metrics_by_output_name():
    model, history = fit_history(compile_kwargs=dict(
        loss={"out_a": SCCE, "out_b": "mse"}, metrics={"out_a": ["accuracy"], "out_b": ["mae", "mse"]},
        loss_weights={"out_a": 2.0, "out_b": 0.5}))
    assert_history(history, {
        "loss": [2.557044506072998, 2.206040859222412], "out_a_accuracy": [0.375, 0.25],
        "out_a_loss": [0.9185194969177246, 0.7835500240325928],
        "out_b_loss": [1.4400110244750977, 1.2778816223144531],
        "out_b_mae": [0.9138655662536621, 0.8267783522605896],
        "out_b_mse": [1.4400110244750977, 1.2778816223144531]})
    x, ya, yb = data()
    np.testing.assert_allclose(
        model.evaluate(x, [ya, yb], batch_size=4, verbose=0),
        [2.0532517433166504, 0.7259243726730347, 1.2028061151504517, 0.375, 0.8121798634529114, 1.2028061151504517],
        rtol=2e-5)


def test_dict_metrics_one_name_each_and_no_loss_weights():
    _, history = fit_history(compile_kwargs=dict(loss={"out_a": SCCE, "out_b": "mse"},
                                                 metrics={"out_a": "accuracy", "out_b": "mae"}))
    assert_history(history, {
        "loss": [2.3166465759277344, 2.056218147277832], "out_a_accuracy": [0.375, 0.375],
        "out_a_loss": [0.932852566242218, 0.8532323837280273],
        "out_b_loss": [1.3837941884994507, 1.2029857635498047],
        "out_b_mae": [0.8911275863647461, 0.8296654224395752]})


def test_list_losses_without_metrics():
    model, history = fit_history(compile_kwargs=dict(loss=[SCCE, "mse"]))
    assert sorted(history) == ["loss", "out_a_loss", "out_b_loss"]
    np.testing.assert_allclose(history["loss"], [2.3166465759277344, 2.056218147277832], rtol=2e-5)
    assert model.metrics_names == ["loss", "out_a_loss", "out_b_loss"]
    x, ya, yb = data()
    np.testing.assert_allclose(model.evaluate(x, [ya, yb], batch_size=4, verbose=0),
                               [1.951138973236084, 0.8012250661849976, 1.1499139070510864], rtol=2e-5)


def test_targets_as_a_dict_keyed_by_output_names():
    x, ya, yb = data()
    _, history = fit_history(y={"out_a": ya, "out_b": yb}, compile_kwargs=dict(
        loss=[SCCE, "mse"], metrics=[["accuracy"], ["mae"]], loss_weights=[1.0, 0.5]))
    assert_history(history, LIST_HISTORY)


def test_one_output_without_a_loss_records_no_per_output_losses():
    x, ya, yb = data()
    model = two_output_model()
    model.compile("sgd", loss=["mse", None], metrics={"out_b": ["mae"]})
    history = model.fit(x, [ya[:, None].astype("float32"), yb], epochs=1, batch_size=8, verbose=0, shuffle=False)
    assert sorted(history.history) == ["loss", "out_b_mae"]
    np.testing.assert_allclose(history.history["loss"], [0.3027447462081909], rtol=2e-5)
    np.testing.assert_allclose(history.history["out_b_mae"], [0.9259065985679626], rtol=2e-5)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(loss={"out_a": "mse"}), ValueError, "Expected keys ['out_a', 'out_b'] in loss dict, but found "
                                              "loss.keys()=['out_a']"),
    (dict(loss=["mse", "mse"], loss_weights=[1.0]), ValueError,
     "`loss_weights` must match the number of losses, got 2 losses and 1 weights."),
    (dict(loss="mse", loss_weights=[1.0, 2.0]), ValueError,
     "`loss_weights` must match the number of losses, got 1 losses and 2 weights."),
    (dict(loss="mse", loss_weights={"out_a": 1.0, "out_b": 3.0}), ValueError,
     "`loss_weights` must match the number of losses, got 1 losses and 2 weights."),
    (dict(loss=["mse", "mse", "mse"]), KeyError, "The path: (2,) in the `loss` argument, can't be found"),
    (dict(loss="mse", metrics=["mae"]), ValueError,
     "Invalid `metrics`. `metrics` should contain metrics objects and either be a dict or a list matching the "
     "output names of the functional model ['out_a', 'out_b']"),
])
def test_per_output_arguments_that_do_not_fit_the_outputs(kwargs, error, message):
    x, ya, yb = data()
    model = two_output_model()
    model.compile("sgd", **kwargs)
    with pytest.raises(error) as info:
        model.fit(x, [ya[:, None].astype("float32"), yb], epochs=1, batch_size=8, verbose=0)
    assert message in str(info.value)


def test_compile_config_keeps_the_per_output_structure():
    model = two_output_model()
    model.compile("sgd", loss={"out_a": SCCE, "out_b": keras.losses.MeanSquaredError()},
                  metrics={"out_a": "accuracy", "out_b": ["mae"]}, loss_weights={"out_a": 2.0, "out_b": 0.5})
    config = model.get_compile_config()
    assert config["loss"]["out_a"] == SCCE
    assert config["loss"]["out_b"]["class_name"] == "MeanSquaredError"
    assert config["loss_weights"] == {"out_a": 2.0, "out_b": 0.5}
    assert config["metrics"] == {"out_a": "accuracy", "out_b": ["mae"]}
    model = two_output_model()
    model.compile("sgd", loss=[SCCE, "mse"], metrics=[["accuracy"], ["mae"]], loss_weights=[1.0, 0.5])
    config = model.get_compile_config()
    assert (config["loss"], config["loss_weights"], config["metrics"]) == (
        [SCCE, "mse"], [1.0, 0.5], [["accuracy"], ["mae"]])


def test_per_output_compile_survives_a_keras_file(tmp_path):
    model = two_output_model()
    model.compile(keras.optimizers.SGD(0.1), loss=[SCCE, "mse"], metrics=[["accuracy"], ["mae"]],
                  loss_weights=[1.0, 0.5])
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert loaded.loss == [SCCE, "mse"]
    assert loaded.get_compile_config()["loss_weights"] == [1.0, 0.5]
    x, ya, yb = data()
    history = loaded.fit(x, [ya, yb], batch_size=4, epochs=2, verbose=0, shuffle=False)
    assert_history(history.history, LIST_HISTORY)


def test_subclassed_model_with_two_outputs_found_at_the_first_step():
    class TwoHeads(keras.Model):
        def __init__(self):
            super().__init__()
            self.a, self.b = keras.layers.Dense(1), keras.layers.Dense(1)

        def call(self, x):
            return [self.a(x), self.b(x)]

    x = np.arange(12, dtype="float32").reshape(4, 3) / 10
    y = np.arange(4, dtype="float32").reshape(4, 1)
    model = TwoHeads()
    model(x)
    rng = np.random.default_rng(0)
    for w in model.weights:
        w.assign(rng.normal(size=w.shape).astype("float32") * 0.5)
    model.compile(keras.optimizers.SGD(0.1), loss=["mse", "mse"], metrics=[["mae"], ["mse"]], loss_weights=[1.0, 2.0])
    history = model.fit(x, [y, 2 * y], epochs=2, batch_size=2, verbose=0, shuffle=False).history
    # no output names: metrics unprefixed, both loss trackers named after the loss (one key in the logs)
    assert_history(history, {"loss": [17.062015533447266, 6.306996822357178],
                             "mae": [1.2283103466033936, 0.6184709668159485],
                             "mse": [7.3982157707214355, 2.903607130050659],
                             "mse_loss": [7.3982157707214355, 2.903607130050659]})


def test_a_dataset_of_tuple_targets_trains_as_the_arrays_do():
    import eagerflow as tf
    x, ya, yb = data()
    model = two_output_model()
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss=[SCCE, "mse"], metrics=[["accuracy"], ["mae"]],
                  loss_weights=[1.0, 0.5])
    dataset = tf.data.Dataset.from_tensor_slices((x, (ya, yb))).batch(4)
    assert_history(model.fit(dataset, epochs=2, verbose=0).history, LIST_HISTORY)


def test_single_output_with_one_entry_lists_dicts_and_a_float_loss_weight():
    inp = keras.Input((3,), name="x")
    model = keras.Model(inp, keras.layers.Dense(1, name="out")(inp))
    rng = np.random.default_rng(0)
    for w in model.weights:
        w.assign(rng.normal(size=w.shape).astype("float32") * 0.5)
    x = np.arange(12, dtype="float32").reshape(4, 3) / 10
    y = np.arange(4, dtype="float32").reshape(4, 1)
    model.compile(keras.optimizers.SGD(0.1), loss=["mse"], metrics=[["mae"]], loss_weights=[2.0])
    assert_history(model.fit(x, y, epochs=2, batch_size=2, verbose=0, shuffle=False).history,
                   {"loss": [3.947272539138794, 1.2585704326629639], "mae": [1.1542251110076904, 0.6339840888977051]})
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), [0.49080803990364075, 0.40753209590911865], rtol=2e-5)
    assert model.metrics_names == ["loss", "compile_metrics"]
    model.compile(keras.optimizers.SGD(0.1), loss={"out": "mse"}, metrics={"out": "mae"}, loss_weights=0.5)
    assert_history(model.fit(x, y, epochs=2, batch_size=2, verbose=0, shuffle=False).history,
                   {"loss": [0.12266747653484344, 0.10409524291753769],
                    "mae": [0.4107619524002075, 0.3773442208766937]})
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), [0.0876489207148552, 0.35001641511917114], rtol=2e-5)
