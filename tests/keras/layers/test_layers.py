"""Keras layers: names, paths, initialisers, outputs and gradients against NumPy; values and texts
quoted from TensorFlow 2.21's Keras 3.15."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def test_both_import_paths_give_the_same_package():
    assert tf.keras is keras
    assert keras.layers.Dense is tf.keras.layers.Dense


def test_dense_weight_names_paths_and_default_initialisers():
    d = keras.layers.Dense(3)
    y = d(np.ones((2, 4), np.float32))
    assert [w.name for w in d.weights] == ["kernel", "bias"]  # TF 2.21: ['kernel', 'bias']
    assert [w.path for w in d.weights] == ["dense/kernel", "dense/bias"]
    assert keras.layers.Dense(3).name == "dense_1"
    limit = np.sqrt(6 / (4 + 3))  # glorot_uniform: U(-l, l), l = sqrt(6 / (fan_in + fan_out))
    assert np.abs(d.kernel.numpy()).max() <= limit and np.abs(d.kernel.numpy()).max() > limit / 2
    np.testing.assert_array_equal(d.bias.numpy(), np.zeros(3, np.float32))
    np.testing.assert_allclose(y.numpy(), np.ones((2, 4)) @ d.kernel.numpy(), rtol=1e-6, atol=1e-6)  # float32 sums near 0


def test_keras_input_tensors_are_named_as_keras_3_names_them():
    # TF 2.21 / Keras 3.15, in a fresh session: keras_tensor pixels keras_tensor_1 keras_tensor_2,
    # the model's layers input_layer, dense, pixels, input_layer_1, concatenate; clear_session()
    # starts the count over.
    a = keras.Input(shape=(3,))
    b = keras.Input(shape=(3,), name="pixels")
    d = keras.layers.Dense(2)(a)
    c = keras.Input(shape=(2,))
    assert [a.name, b.name, d.name, c.name] == ["keras_tensor", "pixels", "keras_tensor_1", "keras_tensor_2"]
    m = keras.Model([a, b, c], keras.layers.Concatenate()([d, b, c]))
    assert [t.name for t in m.inputs] == ["keras_tensor", "pixels", "keras_tensor_2"]
    assert [layer.name for layer in m.layers] == ["input_layer", "dense", "pixels", "input_layer_1", "concatenate"]
    assert m.get_config()["input_layers"] == [["input_layer", 0, 0], ["pixels", 0, 0], ["input_layer_1", 0, 0]]
    keras.backend.clear_session()
    assert keras.Input(shape=(3,)).name == "keras_tensor"


def test_glorot_limit_for_conv_kernels_counts_the_receptive_field():
    big = keras.initializers.GlorotUniform(seed=1)((3, 3, 16, 32))
    limit = np.sqrt(6 / (9 * 16 + 9 * 32))
    assert big.max() <= limit and big.max() > 0.95 * limit and big.min() < -0.95 * limit


def test_float64_inputs_are_cast_to_the_layer_dtype():
    d = keras.layers.Dense(2)
    assert d(np.ones((2, 4))).dtype == tf.float32  # TF 2.21 gives float32 for a float64 NumPy input


def test_dense_gradient_matches_numpy():
    d = keras.layers.Dense(3, activation="relu")
    x = np.random.default_rng(0).normal(size=(5, 4)).astype(np.float32)
    with tf.GradientTape() as tape:
        y = d(x)
        loss = tf.reduce_sum(y * y)
    gk, gb = tape.gradient(loss, d.trainable_variables)
    k, b = d.kernel.numpy(), d.bias.numpy()
    pre = x @ k + b
    dy = 2 * np.maximum(pre, 0) * (pre > 0)
    np.testing.assert_allclose(gk.numpy(), x.T @ dy, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gb.numpy(), dy.sum(0), rtol=1e-5, atol=1e-5)


def test_dense_on_a_rank_1_input_raises_keras_message():
    with pytest.raises(ValueError, match="expected min_ndim=2, found ndim=1. Full shape received: \\(2,\\)"):
        keras.layers.Dense(3)(np.ones((2,), np.float32))


def test_sequential_summary_matches_keras_text(capsys):
    m = keras.Sequential([keras.layers.Dense(8, activation="relu", input_shape=(4,)), keras.layers.Dropout(0.5),
                          keras.layers.Dense(3)])
    m.summary()
    expected = """Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense (Dense)                   │ (None, 8)              │            40 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dropout (Dropout)               │ (None, 8)              │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_1 (Dense)                 │ (None, 3)              │            27 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 67 (268.00 B)
 Trainable params: 67 (268.00 B)
 Non-trainable params: 0 (0.00 B)
"""
    assert capsys.readouterr().out == expected
    assert [w.path for w in m.weights] == ["sequential/dense/kernel", "sequential/dense/bias",
                                           "sequential/dense_1/kernel", "sequential/dense_1/bias"]


def test_summary_wraps_long_names_and_counts_non_trainable(capsys):
    cm = keras.Sequential([
        keras.Input((8, 8, 1)), keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
        keras.layers.MaxPooling2D(), keras.layers.AveragePooling2D(2), keras.layers.BatchNormalization(),
        keras.layers.GlobalAveragePooling2D(), keras.layers.Reshape((2, 2)), keras.layers.Flatten(),
        keras.layers.LayerNormalization(), keras.layers.ReLU(), keras.layers.Softmax(),
        keras.layers.Activation("tanh")])
    cm.summary()
    out = capsys.readouterr().out.splitlines()
    assert out[4] == "│ conv2d (Conv2D)                 │ (None, 8, 8, 4)        │            40 │"
    assert out[6] == "│ max_pooling2d (MaxPooling2D)    │ (None, 4, 4, 4)        │             0 │"
    assert out[8:10] == ["│ average_pooling2d               │ (None, 2, 2, 4)        │             0 │",
                         "│ (AveragePooling2D)              │                        │               │"]
    assert out[11:13] == ["│ batch_normalization             │ (None, 2, 2, 4)        │            16 │",
                          "│ (BatchNormalization)            │                        │               │"]
    assert "│ re_lu (ReLU)                    │ (None, 4)              │             0 │" in out
    assert out[-3:] == [" Total params: 64 (256.00 B)", " Trainable params: 56 (224.00 B)",
                        " Non-trainable params: 8 (32.00 B)"]


def test_functional_model_summary_and_call(capsys):
    inp = keras.Input(shape=(4,))
    assert repr(inp).startswith("<KerasTensor shape=(None, 4), dtype=float32")
    h = keras.layers.Dense(5, name="hid")(inp)
    out = keras.layers.Dense(2)(h)
    fm = keras.Model(inp, out)
    fm.summary()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == 'Model: "functional"'
    assert lines[4] == "│ input_layer (InputLayer)        │ (None, 4)              │             0 │"
    assert lines[6] == "│ hid (Dense)                     │ (None, 5)              │            25 │"
    assert lines[-3] == " Total params: 37 (148.00 B)"
    x = np.random.default_rng(1).normal(size=(3, 4)).astype(np.float32)
    hid, last = fm.layers[1], fm.layers[2]
    expected = (x @ hid.kernel.numpy() + hid.bias.numpy()) @ last.kernel.numpy() + last.bias.numpy()
    np.testing.assert_allclose(fm(x).numpy(), expected, rtol=1e-5, atol=1e-6)
    assert [w.path for w in fm.weights] == ["hid/kernel", "hid/bias", "dense/kernel", "dense/bias"]


def test_functional_merge_layers_with_two_inputs():
    a, b = keras.Input((3,)), keras.Input((3,))
    m = keras.Model([a, b], [keras.layers.Concatenate()([a, b]), keras.layers.Add()([a, b])])
    xa, xb = np.arange(6.).reshape(2, 3), np.ones((2, 3))
    cat, add = m([xa, xb])
    np.testing.assert_array_equal(cat.numpy(), np.concatenate([xa, xb], -1))
    np.testing.assert_array_equal(add.numpy(), xa + xb)


class MyModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.flatten = keras.layers.Flatten()
        self.d1 = keras.layers.Dense(128, activation="relu")
        self.d2 = keras.layers.Dense(10)

    def call(self, x):
        x = self.flatten(x)
        x = self.d1(x)
        return self.d2(x)


def test_subclassed_model_paths_names_and_summary(capsys):
    mm = MyModel()
    mm(np.zeros((1, 28, 28)))
    assert mm.name == "my_model"
    assert [w.path for w in mm.weights] == ["my_model/dense/kernel", "my_model/dense/bias",
                                            "my_model/dense_1/kernel", "my_model/dense_1/bias"]
    assert [w.name for w in mm.trainable_variables] == ["kernel", "bias", "kernel", "bias"]
    mm.summary()
    lines = capsys.readouterr().out.splitlines()
    assert lines[4] == "│ flatten (Flatten)               │ (1, 784)               │             0 │"
    assert lines[6] == "│ dense (Dense)                   │ (1, 128)               │       100,480 │"
    assert lines[-3] == " Total params: 101,770 (397.54 KB)"


def test_training_flag_reaches_nested_layers():
    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dropout(0.5)

        def call(self, x, training=None):
            return self.d(x)

    m = M()
    x = np.ones((1, 1000), np.float32)
    trained = m(x, training=True).numpy()
    assert set(np.unique(trained)) <= {0.0, 2.0} and 300 < (trained == 0).sum() < 700
    np.testing.assert_array_equal(m(x).numpy(), x)  # default: inference
    seq = keras.Sequential([keras.layers.Dropout(0.5)])
    assert (seq(x, training=True).numpy() == 0).any()
    np.testing.assert_array_equal(seq(x).numpy(), x)


def test_batch_normalization_training_and_inference_match_keras():
    bn = keras.layers.BatchNormalization()
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = bn(x, training=True).numpy()
    # TF 2.21: first row of the training output, and the moving statistics after one step
    np.testing.assert_allclose(y[0], [-1.341581106185913] * 3, rtol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.numpy(), [0.045, 0.055, 0.065], rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), [1.1025] * 3, rtol=1e-5)
    np.testing.assert_allclose(bn(x).numpy()[0], [-0.0428377203643322, 0.8995921611785889, 1.8420220613479614],
                               rtol=1e-5)
    assert [w.path for w in bn.trainable_variables] == ["batch_normalization/gamma", "batch_normalization/beta"]
    assert [w.path for w in bn.non_trainable_variables] == ["batch_normalization/moving_mean",
                                                            "batch_normalization/moving_variance"]


def test_layer_normalization_matches_numpy():
    ln = keras.layers.LayerNormalization()
    x = np.random.default_rng(2).normal(size=(4, 5)).astype(np.float32)
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    np.testing.assert_allclose(ln(x).numpy(), (x - mu) / np.sqrt(var + 1e-3), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(keras.layers.LayerNormalization()(np.arange(12.).reshape(4, 3)).numpy()[0],
                               [-1.2238273620605469, 0.0, 1.2238273620605469], rtol=1e-5)


def test_embedding_lookup_and_default_uniform_init():
    em = keras.layers.Embedding(10, 4)
    out = em(np.array([[1, 2], [9, 1]]))
    assert out.shape == (2, 2, 4) and [w.path for w in em.weights] == ["embedding/embeddings"]
    table = em.embeddings.numpy()
    np.testing.assert_array_equal(out.numpy(), table[[[1, 2], [9, 1]]])
    assert np.abs(table).max() <= 0.05


def _np_conv_valid(x, k):
    n, h, w, _ = x.shape
    kh, kw, _, co = k.shape
    out = np.zeros((n, h - kh + 1, w - kw + 1, co))
    for i in range(h - kh + 1):
        for j in range(w - kw + 1):
            out[:, i, j, :] = np.tensordot(x[:, i:i + kh, j:j + kw, :], k, axes=([1, 2, 3], [0, 1, 2]))
    return out


def test_conv_and_pooling_layers_match_numpy():
    x = np.random.default_rng(3).normal(size=(2, 6, 6, 2)).astype(np.float32)
    cv = keras.layers.Conv2D(3, 3)
    y = cv(x).numpy()
    assert cv.kernel.shape == (3, 3, 2, 3) and [w.path for w in cv.weights] == ["conv2d/kernel", "conv2d/bias"]
    np.testing.assert_allclose(y, _np_conv_valid(x, cv.kernel.numpy()), rtol=1e-4, atol=1e-5)
    mp = keras.layers.MaxPooling2D()(x).numpy()
    np.testing.assert_allclose(mp, x.reshape(2, 3, 2, 3, 2, 2).max(axis=(2, 4)), rtol=1e-6)
    ap = keras.layers.AveragePooling2D(2)(x).numpy()
    np.testing.assert_allclose(ap, x.reshape(2, 3, 2, 3, 2, 2).mean(axis=(2, 4)), rtol=1e-5)
    np.testing.assert_allclose(keras.layers.GlobalAveragePooling2D()(x).numpy(), x.mean(axis=(1, 2)), rtol=1e-5)
    with tf.GradientTape() as tape:
        s = tf.reduce_sum(cv(x))
    gk = tape.gradient(s, cv.kernel).numpy()
    expected = np.stack([np.stack([x[:, i:i + 4, j:j + 4, :].sum(axis=(0, 1, 2)) for j in range(3)])
                         for i in range(3)])
    np.testing.assert_allclose(gk, np.repeat(expected[..., None], 3, -1), rtol=1e-4)


def test_activation_relu_softmax_reshape_flatten():
    x = np.array([[-1.0, 0.5, 2.0, -3.0]], np.float32)
    np.testing.assert_array_equal(keras.layers.ReLU()(x).numpy(), np.maximum(x, 0))
    np.testing.assert_array_equal(keras.layers.ReLU(max_value=1.0)(x).numpy(), np.clip(x, 0, 1))
    e = np.exp(x - x.max())
    np.testing.assert_allclose(keras.layers.Softmax()(x).numpy(), e / e.sum(), rtol=1e-6)
    np.testing.assert_allclose(keras.layers.Activation("tanh")(x).numpy(), np.tanh(x), rtol=1e-6)
    assert keras.layers.Reshape((2, 2))(x).shape == (1, 2, 2)
    assert keras.layers.Reshape((-1, 2))(x).shape == (1, 2, 2)
    assert keras.layers.Flatten()(np.ones((3, 2, 2))).shape == (3, 4)


def test_get_and_set_weights():
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dense(2)])
    ws = [np.full(w.shape, i, np.float32) for i, w in enumerate(m.get_weights())]
    m.set_weights(ws)
    for got, want in zip(m.get_weights(), ws):
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="You called `set_weights\\(weights\\)` on layer 'sequential' with a weight "
                                         "list of length 1, but the layer was expecting 4 weights."):
        m.set_weights([np.ones((4, 3))])


def test_layers_built_inside_tf_function_on_first_call():
    model = keras.Sequential([keras.layers.Dense(4, activation="relu"), keras.layers.Dense(2)])

    @tf.function
    def f(x):
        return model(x)

    x = np.ones((3, 5), np.float32)
    y = f(x)
    assert y.shape == (3, 2) and len(model.trainable_variables) == 4
    np.testing.assert_allclose(y.numpy(), model(x).numpy(), rtol=1e-6)


def test_model_build_with_an_input_shape_before_any_call(capsys):
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.d1 = keras.layers.Dense(4, activation="relu")
            self.d2 = keras.layers.Dense(2)

        def call(self, x, training=None):
            return self.d2(self.d1(x))

    net = Net()
    net.build((None, 3))
    assert [w.path for w in net.weights] == ["net/dense/kernel", "net/dense/bias", "net/dense_1/kernel",
                                             "net/dense_1/bias"]
    net.summary()
    assert "│ dense (Dense)                   │ (None, 4)              │            16 │" in capsys.readouterr().out
    seq = keras.Sequential([keras.layers.Dense(3)])
    seq.build((None, 5))
    assert seq.count_params() == 18 and seq.layers[0].kernel.shape == (5, 3)


def test_to_categorical():
    np.testing.assert_array_equal(keras.utils.to_categorical([0, 2, 1], 3), np.eye(3, dtype=np.float32)[[0, 2, 1]])
    assert keras.utils.to_categorical(np.array([[1], [0]])).shape == (2, 2)


def test_layers_in_lists_and_dicts_are_tracked_plain_variables_are_not():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.blocks = [keras.layers.Dense(3), [keras.layers.Dense(3)]]
            self.heads = {"b": keras.layers.Dense(1), "a": keras.layers.Dense(2)}
            self.scale = tf.Variable(2.0)
            self.kscale = self.add_weight(shape=(), initializer="ones", name="kscale")

        def call(self, x):
            for block in (self.blocks[0], self.blocks[1][0]):
                x = block(x)
            return self.heads["a"](x) * self.scale * self.kscale + self.heads["b"](x)

    net = Net()
    net(np.ones((1, 4), np.float32))
    # TF 2.21's Keras: dicts in insertion order, the plain tf.Variable is not a weight, own weights first
    assert [layer.name for layer in net.layers] == ["dense", "dense_1", "dense_2", "dense_3"]
    assert [w.path for w in net.trainable_variables] == [
        "net/kscale", "net/dense/kernel", "net/dense/bias", "net/dense_1/kernel", "net/dense_1/bias",
        "net/dense_2/kernel", "net/dense_2/bias", "net/dense_3/kernel", "net/dense_3/bias"]


def test_threads_calling_a_fresh_model_build_it_once():
    import threading
    x = np.ones((3, 5), np.float32)
    for _ in range(5):  # without the build lock about 6 trials in 10 built extra weights
        model = keras.Sequential([keras.layers.Dense(8, activation="relu"), keras.layers.Dense(2)])
        barrier = threading.Barrier(8)
        results = []

        def worker():
            barrier.wait()
            results.append(model(x).numpy())

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(model.weights) == 4 and len(results) == 8
        for r in results:
            np.testing.assert_array_equal(r, results[0])
