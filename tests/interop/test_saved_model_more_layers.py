"""More of Keras' layers through TensorFlow's SavedModel: eagerflow saves models of GRU, Conv1D, LayerNormalization,
MultiHeadAttention, depthwise/separable/transposed convolutions, pooling, padding, cropping, upsampling, gelu/elu/
leaky/PReLU activations and a Bidirectional LSTM; TensorFlow 2.21 serves each with eagerflow's values. (The
other way, tf.Modules TensorFlow saves loaded by eagerflow: test_tf_savedmodel_parity.py.)"""
import numpy as np

import eagerflow as tf
from eagerflow import keras

L = keras.layers


def _models():
    attention_in = keras.Input((6, 8))
    return {
        "recurrent": (keras.Sequential([keras.Input((10, 3)), L.Conv1D(4, 3, padding="causal"),
                                        L.GRU(5, return_sequences=True), L.GlobalAveragePooling1D(),
                                        L.LayerNormalization(), L.Dense(2)]), (2, 10, 3)),
        "attention": (keras.Model(attention_in, L.Dense(2)(L.MultiHeadAttention(2, 4)(attention_in, attention_in))),
                      (2, 6, 8)),
        "convolutions": (keras.Sequential([
            keras.Input((8, 8, 3)), L.DepthwiseConv2D(3), L.SeparableConv2D(4, 3, padding="same"),
            L.AveragePooling2D(2), L.Conv2DTranspose(2, 3, strides=2), L.UpSampling2D(), L.ZeroPadding2D(1),
            L.Cropping2D(1), L.GlobalMaxPooling2D(), L.Dense(4, activation="gelu"), L.Activation("elu"),
            L.LeakyReLU(), L.PReLU(), L.Dense(3, activation="softplus")]), (2, 8, 8, 3)),
        "bidirectional": (keras.Sequential([keras.Input((5, 3)), L.Bidirectional(L.LSTM(4)),
                                            L.Dense(2, activation="tanh")]), (2, 5, 3)),
    }


def test_tensorflow_serves_models_of_many_layers(tmp_path, run_tf):
    rng = np.random.default_rng(0)
    expected = {}
    for name, (model, shape) in _models().items():
        x = rng.normal(size=shape).astype(np.float32)
        tf.saved_model.save(model, str(tmp_path / name))
        np.save(tmp_path / f"{name}.npy", x)
        expected[name] = model(x).numpy()
    answer = run_tf(f"""
        import json
        import numpy as np
        import tensorflow as tf
        out = {{}}
        for name in {sorted(expected)!r}:
            sig = tf.saved_model.load(name).signatures["serving_default"]
            out[name] = sig(inputs=tf.constant(np.load(name + ".npy")))["output_0"].numpy().tolist()
        print(json.dumps(out))
    """)
    for name, value in expected.items():
        np.testing.assert_allclose(answer[name], value, rtol=1e-5, atol=1e-6, err_msg=name)

