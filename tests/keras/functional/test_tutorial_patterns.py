"""Small re-creations of the tutorial patterns that start from the functional API: a Grad-CAM-style
feature extractor built from `get_layer(name).output`, a residual block written `x + inputs`, a
seq2seq encoder-decoder passing `initial_state=` as a keyword, attention with a mask keyword, and a
wide-and-deep model with named inputs and outputs trained a few steps. Weights come from one seeded
NumPy generator in both frameworks; the expected numbers are Keras 3.15.1's (TensorFlow 2.21) for the
same programs and weights."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

ATOL = 2e-5


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _fill(model, seed):
    rng = np.random.default_rng(seed)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype("float32") for w in model.get_weights()])


def test_grad_cam_extractor_from_get_layer_output():
    inp = keras.Input((6, 6, 1), name="image")
    h = keras.layers.Conv2D(3, 3, activation="relu", name="conv_a")(inp)
    h = keras.layers.Conv2D(4, 3, activation="relu", name="last_conv")(h)
    h = keras.layers.GlobalAveragePooling2D(name="gap")(h)
    model = keras.Model(inp, keras.layers.Dense(2, activation="softmax", name="pred")(h))
    _fill(model, 1)
    extractor = keras.Model(model.inputs, [model.get_layer("last_conv").output, model.output])
    assert [l.name for l in extractor.layers] == ["image", "conv_a", "last_conv", "gap", "pred"]
    assert [t.shape for t in extractor.outputs] == [(None, 2, 2, 4), (None, 2)]
    img = np.linspace(0, 1, 72).reshape(2, 6, 6, 1).astype("float32")
    with tf.GradientTape() as tape:
        conv_out, preds = extractor(img)
        score = preds[:, 1]
    grads = tape.gradient(score, conv_out)
    heat = tf.reduce_sum(conv_out * tf.reduce_mean(grads, axis=(1, 2))[:, None, None, :], axis=-1)
    np.testing.assert_allclose(preds, [[0.70608, 0.29392], [0.71312, 0.28688]], atol=ATOL)
    np.testing.assert_allclose(heat, [[[-0.01607, -0.01612], [-0.01637, -0.01642]],
                                      [[-0.01759, -0.01764], [-0.01788, -0.01793]]], atol=ATOL)
    features = keras.Model(model.input, [model.get_layer(n).output for n in ("conv_a", "last_conv")])
    sums = [float(np.sum(f)) for f in features.predict(img, verbose=0)]
    np.testing.assert_allclose(sums, [20.33103, 11.64737], atol=1e-4)


def test_sequential_intermediate_layer_extractor():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="tanh", name="h1"),
                              keras.layers.Dense(2, name="h2")])
    _fill(model, 2)
    ext = keras.Model(model.inputs, model.get_layer("h1").output)
    x = np.linspace(-1, 1, 12).reshape(3, 4).astype("float32")
    np.testing.assert_allclose(ext.predict(x, verbose=0), [[0.5594, 0.49578, -0.26937], [0.04927, 0.18938, -0.29093],
                                                            [-0.48793, -0.15894, -0.31221]], atol=ATOL)
    assert (model.layers[0].input.shape, model.layers[-1].output.shape) == ((None, 4), (None, 2))


def test_residual_block_with_x_plus_inputs_predicts_and_trains():
    inputs = keras.Input((5,), name="x")
    x = keras.layers.Dense(5, activation="relu", name="d1")(inputs)
    x = keras.layers.Dense(5, name="d2")(x)
    x = keras.layers.Activation("relu", name="act")(x + inputs)
    model = keras.Model(inputs, keras.layers.Dense(1, name="head")(2 * x - 1))
    _fill(model, 3)
    assert [l.name for l in model.layers] == ["x", "d1", "d2", "act", "head"] and model.output_names == ["head"]
    data = np.linspace(-2, 2, 20).reshape(4, 5).astype("float32")
    np.testing.assert_allclose(model.predict(data, verbose=0), [[-0.96165], [-0.96165], [0.14557], [1.50307]],
                               atol=ATOL)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    hist = model.fit(data, np.arange(4, dtype="float32").reshape(4, 1), epochs=3, batch_size=4, verbose=0,
                     shuffle=False)
    np.testing.assert_allclose(hist.history["loss"], [2.61314, 1.69002, 1.09655], atol=1e-4)


def test_seq2seq_with_initial_state_keyword_and_attention_mask():
    enc_in = keras.Input((None, 3), name="enc")
    dec_in = keras.Input((None, 2), name="dec")
    _, h, c = keras.layers.LSTM(4, return_state=True, name="encoder")(enc_in)
    dec = keras.layers.LSTM(4, return_sequences=True, name="decoder")(dec_in, initial_state=[h, c])
    model = keras.Model([enc_in, dec_in], keras.layers.Dense(2, activation="softmax", name="proj")(dec))
    _fill(model, 4)
    e = np.linspace(-1, 1, 2 * 5 * 3).reshape(2, 5, 3).astype("float32")
    d = np.linspace(1, -1, 2 * 4 * 2).reshape(2, 4, 2).astype("float32")
    np.testing.assert_allclose(model.predict([e, d], verbose=0)[:, -1], [[0.6862, 0.3138], [0.65952, 0.34048]],
                               atol=ATOL)

    q = keras.Input((3, 4), name="q")
    mask = keras.Input((3, 3), dtype="bool", name="mask")
    attention = keras.Model([q, mask], keras.layers.MultiHeadAttention(2, 2, name="mha")(q, q, attention_mask=mask))
    _fill(attention, 5)
    qv = np.linspace(-1, 1, 24).reshape(2, 3, 4).astype("float32")
    mv = np.tril(np.ones((3, 3), bool))[None].repeat(2, 0)
    np.testing.assert_allclose(attention.predict([qv, mv], verbose=0)[:, 0],
                               [[1.32167, -0.31289, -0.0555, 0.12265], [0.4799, 0.2616, 0.34773, -0.17005]], atol=ATOL)


def _wide_and_deep():
    wide = keras.Input((3,), name="wide")
    deep = keras.Input((4,), name="deep")
    h = keras.layers.Dense(5, activation="relu", name="hidden")(deep)
    main = keras.layers.Dense(1, name="main")(keras.layers.concatenate([wide, h], name="cat"))
    aux = keras.layers.Dense(1, name="aux")(h)
    model = keras.Model(inputs={"wide": wide, "deep": deep}, outputs={"main": main, "aux": aux})
    _fill(model, 6)
    rng = np.random.default_rng(0)
    xw, xd = rng.normal(size=(8, 3)).astype("float32"), rng.normal(size=(8, 4)).astype("float32")
    ym, ya = rng.normal(size=(8, 1)).astype("float32"), rng.normal(size=(8, 1)).astype("float32")
    return model, {"wide": xw, "deep": xd}, {"main": ym, "aux": ya}


# Keras 3.15: fit(epochs=3, batch_size=8, SGD(0.1), loss mse on both, loss_weights main 1.0 / aux 0.5)
WIDE_DEEP_LOSSES = {"aux_loss": [1.25246, 1.20756, 1.17452], "loss": [1.29255, 1.14857, 1.05167],
                    "main_loss": [0.66631, 0.54479, 0.46441]}
WIDE_DEEP_AFTER = {"main": [[0.52475], [0.08438]], "aux": [[0.20538], [0.32602]]}


def test_wide_and_deep_named_inputs_outputs_trained_by_gradient_steps():
    model, x, y = _wide_and_deep()
    assert model.output_names == ["aux", "main"] and [t.name for t in model.inputs] == ["deep", "wide"]
    optimizer = keras.optimizers.SGD(0.1)
    mse = keras.losses.MeanSquaredError()
    for step in range(3):  # the step fit takes: the weighted sum of the named outputs' losses
        with tf.GradientTape() as tape:
            out = model(x, training=True)
            main_loss, aux_loss = mse(y["main"], out["main"]), mse(y["aux"], out["aux"])
            loss = main_loss + 0.5 * aux_loss
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_weights), model.trainable_weights))
        np.testing.assert_allclose([float(loss), float(main_loss), float(aux_loss)],
                                   [WIDE_DEEP_LOSSES[k][step] for k in ("loss", "main_loss", "aux_loss")], atol=1e-4)
    pred = model.predict({"wide": x["wide"][:2], "deep": x["deep"][:2]}, verbose=0)
    assert sorted(pred) == ["aux", "main"]
    for key, expected in WIDE_DEEP_AFTER.items():
        np.testing.assert_allclose(pred[key], expected, atol=1e-4)


def test_wide_and_deep_fit_with_losses_keyed_by_output():
    model, x, y = _wide_and_deep()
    try:
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss={"main": "mse", "aux": "mse"},
                      loss_weights={"main": 1.0, "aux": 0.5})
    except ValueError as err:  # per-output losses are compile's part of issue 24 (point 3)
        pytest.skip(f"compile does not take per-output losses yet: {err}")
    hist = model.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False)
    assert sorted(hist.history) == ["aux_loss", "loss", "main_loss"]
    for key, expected in WIDE_DEEP_LOSSES.items():
        np.testing.assert_allclose(hist.history[key], expected, atol=1e-4)
    pred = model.predict({"wide": x["wide"][:2], "deep": x["deep"][:2]}, verbose=0)
    for key, expected in WIDE_DEEP_AFTER.items():
        np.testing.assert_allclose(pred[key], expected, atol=1e-4)


def test_model_written_with_operators_saves_reloads_and_matches_keras(tmp_path):
    x = keras.Input((4,), name="x")
    h = keras.layers.Dense(4, name="d")(x * 0.5 - 1)
    y = keras.ops.concatenate([abs(h[:, :2]) ** 2, -h[:, 2:] / 3], axis=-1) @ np.eye(4, 2, dtype="float32")
    model = keras.Model(x, {"y": y, "flag": keras.ops.cast(h > 0, "float32"), "r": keras.ops.reshape(h, (-1, 2, 2))})
    _fill(model, 7)
    assert model.output_names == ["cast", "reshape", "matmul"]
    data = np.linspace(-3, 3, 12).reshape(3, 4).astype("float32")
    out = model.predict(data, verbose=0)
    np.testing.assert_allclose(out["y"], [[0.21112, 1.89705], [0.18888, 0.39866], [0.16788, 0.01312]], atol=ATOL)
    np.testing.assert_array_equal(out["flag"], [[1, 0, 1, 1], [1, 0, 1, 1], [1, 1, 1, 1]])
    np.testing.assert_allclose(out["r"][0], [[0.45947, -1.37733], [0.91221, 0.80358]], atol=ATOL)
    path = str(tmp_path / "ops.keras")
    model.save(path)
    back = keras.models.load_model(path)
    assert back.output_names == ["cast", "reshape", "matmul"]
    again = back.predict(data, verbose=0)
    for key in out:
        np.testing.assert_allclose(again[key], out[key], rtol=1e-6)
