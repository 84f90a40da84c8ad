"""keras.mixed_precision: DTypePolicy, the global policy, and a mixed_bfloat16 model computing in
bfloat16 over float32 weights, against Keras 3.15 on TensorFlow 2.21 (values written here)."""
import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
mp = keras.mixed_precision


@pytest.fixture(autouse=True)
def _restore_global_policy():
    yield
    mp.set_global_policy(None)


def test_policies():
    p = mp.Policy("mixed_bfloat16")
    assert (repr(p), p.name, p.compute_dtype, p.variable_dtype) == (
        '<DTypePolicy "mixed_bfloat16">', "mixed_bfloat16", "bfloat16", "float32")
    assert mp.DTypePolicy is mp.Policy
    assert (mp.Policy("mixed_float16").compute_dtype, mp.Policy("float64").variable_dtype) == ("float16", "float64")
    with pytest.raises(ValueError, match="Cannot convert 'mixed_bfloat17' to a mixed precision DTypePolicy. Valid "
                                         "policies include 'mixed_float16', 'mixed_bfloat16', and the name of any "
                                         "float dtype such as 'float32'."):
        mp.Policy("mixed_bfloat17")
    assert repr(mp.global_policy()) == '<DTypePolicy "float32">'
    mp.set_global_policy("mixed_bfloat16")
    assert repr(mp.global_policy()) == '<DTypePolicy "mixed_bfloat16">'
    mp.set_global_policy("float32")
    assert repr(mp.global_policy()) == '<DTypePolicy "float32">'


def test_layer_config_names_the_policy():
    assert keras.layers.Dense(2, dtype="mixed_bfloat16").get_config()["dtype"] == {
        "module": "keras", "class_name": "DTypePolicy", "config": {"name": "mixed_bfloat16"}, "registered_name": None}


try:
    import ml_dtypes  # noqa: F401
    _HAS_ML_DTYPES = True
except ImportError:
    _HAS_ML_DTYPES = False
needs_ml_dtypes = pytest.mark.skipif(not _HAS_ML_DTYPES, reason="bfloat16 values need ml_dtypes")


@needs_ml_dtypes
def test_dense_under_global_mixed_bfloat16():
    mp.set_global_policy("mixed_bfloat16")
    d = keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros")
    out = d(np.array([[1.1, 2.2]], np.float32))
    # Keras 3.15: bfloat16 output [[3.3125 3.3125 3.3125]], float32 kernel, dtype float32, compute bfloat16
    assert out.dtype is tf.bfloat16 and out.numpy().astype(float).tolist() == [[3.3125, 3.3125, 3.3125]]
    assert d.kernel.dtype is tf.float32 and d.bias.dtype is tf.float32
    assert (d.dtype, d.compute_dtype, d.variable_dtype, repr(d.dtype_policy)) == (
        "float32", "bfloat16", "float32", '<DTypePolicy "mixed_bfloat16">')
    assert repr(out) == ("<tf.Tensor: shape=(1, 3), dtype=bfloat16, numpy=array([[3.3125, 3.3125, 3.3125]], "
                         "dtype=bfloat16)>")


@needs_ml_dtypes
def test_layer_dtype_argument():
    out = keras.layers.Dense(2, dtype="mixed_bfloat16")(np.ones((1, 2), np.float32))
    assert out.dtype is tf.bfloat16
    assert keras.layers.Activation("softmax", dtype="mixed_bfloat16")(np.ones((1, 2), np.float32)).dtype is tf.bfloat16
    # weights read as bfloat16 only inside the layer's call
    d = keras.layers.Dense(2, dtype="mixed_bfloat16")
    d(np.ones((1, 2), np.float32))
    assert tf.convert_to_tensor(d.kernel).dtype is tf.float32


@needs_ml_dtypes
def test_fit_trains_float32_weights_with_tensorflow_losses():
    mp.set_global_policy("mixed_bfloat16")
    inp = keras.Input((4,))
    h = keras.layers.Dense(8, activation="relu")(inp)
    m = keras.Model(inp, keras.layers.Dense(1)(h))
    assert m.output.dtype == tf.bfloat16
    m.set_weights([np.linspace(-0.5, 0.5, 32).reshape(4, 8).astype(np.float32), np.zeros(8, np.float32),
                   np.linspace(-0.3, 0.4, 8).reshape(8, 1).astype(np.float32), np.zeros(1, np.float32)])
    m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    x = np.random.default_rng(0).normal(size=(64, 4)).astype(np.float32)
    y = x.sum(1, keepdims=True) * 0.5
    history = m.fit(x, y, epochs=3, batch_size=16, verbose=0, shuffle=False)
    # Keras 3.15 on TensorFlow 2.21, same weights and data; the loss is float32 (not a bfloat16 value)
    np.testing.assert_allclose(history.history["loss"], [0.8505845069885254, 0.7065494060516357,
                                                         0.5681898593902588], rtol=2e-3)
    assert [w.dtype for w in m.weights] == [tf.float32] * 4
    np.testing.assert_allclose(m.get_weights()[2].ravel()[:4], [-0.48388671875, -0.3240234851837158,
                                                                -0.1716064214706421, -0.01851043850183487], atol=1e-3)
    assert m.predict(x[:2], verbose=0).dtype == tf.bfloat16.as_numpy_dtype and m(x[:2]).dtype is tf.bfloat16


@needs_ml_dtypes
def test_batch_normalization_computes_in_float32():
    mp.set_global_policy("mixed_bfloat16")
    x = np.arange(24, dtype=np.float32).reshape(4, 6) / 7.0 - 1.3
    bn = keras.layers.BatchNormalization()
    out = bn(x, training=True)
    # Keras 3.15: bfloat16 output, float32 statistics and weights
    assert out.dtype is tf.bfloat16 and bn.gamma.dtype is tf.float32
    assert out.numpy().astype(float)[0].tolist() == [-1.3359375, -1.34375, -1.34375, -1.34375, -1.34375, -1.34375]
    np.testing.assert_allclose(bn.moving_mean.numpy()[:3], [-0.00013183592818677425, 0.0012890624348074198,
                                                            0.002702636644244194], rtol=1e-6)


@needs_ml_dtypes
def test_sublayers_inherit_the_policy():
    mp.set_global_policy("mixed_bfloat16")
    mha = keras.layers.MultiHeadAttention(2, 4)
    x = np.arange(24, dtype=np.float32).reshape(1, 4, 6) / 7.0
    assert mha(x, x).dtype is tf.bfloat16
    assert mha.compute_dtype == mha._query_dense.compute_dtype == "bfloat16"


@needs_ml_dtypes
def test_conv_batchnorm_model_with_float32_head_fits():
    mp.set_global_policy("mixed_bfloat16")
    inp = keras.Input((6, 6, 3))
    h = keras.layers.Conv2D(4, 3, activation="relu")(inp)
    h = keras.layers.Flatten()(keras.layers.BatchNormalization()(h))
    out = keras.layers.Activation("softmax", dtype="float32")(keras.layers.Dense(3)(h))
    m = keras.Model(inp, out)
    m.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    x = np.random.default_rng(0).normal(size=(8, 6, 6, 3)).astype(np.float32)
    history = m.fit(x, np.arange(8) % 3, epochs=3, verbose=0).history
    assert m.output.dtype == tf.float32 and all(w.dtype is tf.float32 for w in m.weights)
    assert np.isfinite(history["loss"]).all() and history["loss"][-1] < history["loss"][0]
