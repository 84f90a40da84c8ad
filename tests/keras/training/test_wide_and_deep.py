"""The wide-and-deep tutorial pattern end to end: two inputs, two outputs, two losses weighted
(0.9, 0.1) given as tuples, per-output RMSE metrics, validation data; every number recorded from
Keras 3.15.1 on TensorFlow 2.21 with the same weights and data."""
import numpy as np

from eagerflow import keras


def wide_and_deep():
    wide = keras.Input((5,), name="wide_input")
    deep = keras.Input((6,), name="deep_input")
    hidden1 = keras.layers.Dense(8, activation="relu", name="hidden1")(deep)
    hidden2 = keras.layers.Dense(8, activation="relu", name="hidden2")(hidden1)
    concat = keras.layers.concatenate([wide, hidden2], name="concat")
    main = keras.layers.Dense(1, name="main_output")(concat)
    aux = keras.layers.Dense(1, name="aux_output")(hidden2)
    model = keras.Model([wide, deep], [main, aux])
    rng = np.random.default_rng(5)
    for w in model.weights:
        w.assign(rng.normal(size=w.shape).astype("float32") * 0.5)
    return model


EXPECTED = {
    "aux_output_RootMeanSquaredError": [1.181080937385559, 1.1149314641952515, 1.0807039737701416],
    "aux_output_loss": [1.3949521780014038, 1.2430721521377563, 1.1679210662841797],
    "loss": [3.039196014404297, 1.9899145364761353, 1.6189894676208496],
    "main_output_RootMeanSquaredError": [1.7949624061584473, 1.439755916595459, 1.291939616203308],
    "main_output_loss": [3.2218899726867676, 2.072896957397461, 1.6691079139709473],
    "val_aux_output_RootMeanSquaredError": [1.5570138692855835, 1.4851038455963135, 1.4327309131622314],
    "val_aux_output_loss": [2.4242920875549316, 2.205533266067505, 2.052717924118042],
    "val_loss": [1.6168081760406494, 1.210159182548523, 1.0481925010681152],
    "val_main_output_RootMeanSquaredError": [1.2357538938522339, 1.0486000776290894, 0.9677699208259583],
    "val_main_output_loss": [1.527087688446045, 1.099562168121338, 0.936578631401062],
}


def test_wide_and_deep_with_two_weighted_losses_matches_keras():
    rng = np.random.default_rng(3)
    xa = rng.normal(size=(32, 5)).astype("float32")
    xb = rng.normal(size=(32, 6)).astype("float32")
    y_main = (xa[:, :1] + xb[:, 1:2]).astype("float32")
    y_aux = (xb[:, :1] * 0.5).astype("float32")
    model = wide_and_deep()
    model.compile(loss=("mse", "mse"), loss_weights=(0.9, 0.1), optimizer=keras.optimizers.SGD(0.01),
                  metrics=[["RootMeanSquaredError"], ["RootMeanSquaredError"]])
    history = model.fit((xa, xb), (y_main, y_aux), epochs=3, batch_size=8, verbose=0, shuffle=False,
                        validation_data=((xa[:8], xb[:8]), (y_main[:8], y_aux[:8]))).history
    assert sorted(history) == sorted(EXPECTED)
    for key, values in EXPECTED.items():
        np.testing.assert_allclose(history[key], values, rtol=2e-5, err_msg=key)
    np.testing.assert_allclose(
        model.evaluate((xa, xb), (y_main, y_aux), verbose=0),
        [1.455695390701294, 1.4922386407852173, 1.1268064975738525, 1.0615113973617554, 1.2215721607208252],
        rtol=2e-5)
    main, aux = model.predict((xa[:3], xb[:3]), verbose=0)
    np.testing.assert_allclose(main.ravel(), [0.09052236378192902, 2.175375461578369, -0.35731738805770874],
                               rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(aux.ravel(), [0.4862484335899353, 2.5224835872650146, 0.3749173581600189],
                               rtol=2e-5, atol=1e-6)
