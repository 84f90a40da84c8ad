"""fit/evaluate/predict convert NumPy inputs to the model's Inputs as Keras 3.15.1 does: bool and
integer arrays cast to the Input's dtype, an (n,) array for an Input of shape (None, 1) given its
last axis. Values recorded from Keras on the same weights."""
import numpy as np

from eagerflow import keras


def set_weights(model, seed=0):
    rng = np.random.default_rng(seed)
    for w in model.weights:
        w.assign(rng.normal(size=w.shape).astype("float32") * 0.5)


def dense_model(units_in=3):
    inp = keras.Input((units_in,))
    model = keras.Model(inp, keras.layers.Dense(1)(inp))
    set_weights(model)
    return model


X_BOOL = np.array([[True, False, True], [False, False, True]])
X_INT = np.array([[1, 2, 3], [4, 5, 6]], np.int64)


def test_bool_and_int_arrays_are_cast_to_the_input_dtype():
    model = dense_model()
    model.compile("sgd", "mse")
    np.testing.assert_allclose(model.predict(X_BOOL, verbose=0).ravel(), [0.4355264902114868, 0.37266138195991516],
                               rtol=1e-6)
    np.testing.assert_allclose(model.predict(X_INT, verbose=0).ravel(), [0.9438443183898926, 1.894916296005249],
                               rtol=1e-6)
    np.testing.assert_allclose(model.evaluate(X_INT, np.array([1.0, 2.0]), verbose=0), 0.007098022848367691,
                               rtol=1e-5)
    assert model.predict_on_batch(X_BOOL).dtype == np.float32


def test_sequential_casts_bool_inputs_too():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    set_weights(model)
    np.testing.assert_allclose(model.predict(X_BOOL, verbose=0).ravel(), [0.4355264902114868, 0.37266138195991516],
                               rtol=1e-6)


def test_float_array_for_an_int32_input_is_cast():
    inp = keras.Input((3,), dtype="int32")
    model = keras.Model(inp, keras.layers.Embedding(10, 2)(inp))
    set_weights(model)
    np.testing.assert_allclose(
        model.predict(np.array([[1.0, 2.0, 3.0]]), verbose=0).ravel(),
        [0.3202113211154938, 0.05245005711913109, -0.26783469319343567, 0.1807975322008133, 0.6520000100135803,
         0.4735404849052429], rtol=1e-6)


def test_rank_one_input_gains_the_last_axis_of_a_one_wide_input():
    inp = keras.Input((1,))
    model = keras.Model(inp, keras.layers.Dense(1)(inp))
    set_weights(model)
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    y = np.array([2.0, 4.0, 6.0, 8.0], np.float32)  # targets (n,) against outputs (n, 1): paired by the loss
    predictions = model.predict(x, verbose=0)
    assert predictions.shape == (4, 1)
    np.testing.assert_allclose(predictions.ravel(), [-0.003187321126461029, 0.059677787125110626,
                                                     0.12254289537668228, 0.18540799617767334], rtol=1e-5)
    history = model.fit(x, y, epochs=2, batch_size=2, verbose=0, shuffle=False).history
    np.testing.assert_allclose(history["loss"], [8.895801544189453, 4.487766742706299], rtol=1e-5)
    np.testing.assert_allclose(history["mae"], [2.8820436000823975, 1.961181640625], rtol=1e-5)
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), [2.604536533355713, 1.4185478687286377], rtol=1e-5)


def test_sequential_with_a_one_wide_input_takes_rank_one_arrays():
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    set_weights(model)
    np.testing.assert_allclose(model.predict(np.array([1.0, 2.0, 3.0, 4.0], np.float32), verbose=0).ravel(),
                               [-0.003187321126461029, 0.059677787125110626, 0.12254289537668228,
                                0.18540799617767334], rtol=1e-5)


def test_to_categorical_is_float64():
    one_hot = keras.utils.to_categorical([0, 2, 1])
    assert one_hot.dtype == np.float64
    np.testing.assert_array_equal(one_hot, np.eye(3)[[0, 2, 1]])
    column = keras.utils.to_categorical(np.array([[1], [0]]), 3)
    assert column.dtype == np.float64 and column.shape == (2, 3)
    assert keras.utils.to_categorical(np.array([[1, 0], [2, 1]]), 3).shape == (2, 2, 3)
