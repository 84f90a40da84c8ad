"""Layer get_config/from_config: Keras 3.15's keys and values (oracle output written here, tuples as
the JSON lists a saved file holds), and every shipped layer rebuilt from its config."""
import json

import numpy as np
import pytest

from eagerflow import keras

L = keras.layers
POLICY = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": None}


def _keras(config):
    return json.loads(json.dumps(config))  # Keras' tuples become lists in config.json


@pytest.mark.parametrize("layer, expected", [
    (L.Dropout(0.5, name="dropout"), {"name": "dropout", "trainable": True, "dtype": POLICY, "rate": 0.5, "seed": None,
                                      "noise_shape": None}),
    (L.Flatten(name="flatten"), {"name": "flatten", "trainable": True, "dtype": POLICY,
                                 "data_format": "channels_last"}),
    (L.Reshape((2, 3), name="reshape"), {"name": "reshape", "trainable": True, "dtype": POLICY,
                                         "target_shape": (2, 3)}),
    (L.MaxPooling2D(name="max_pooling2d"), {"name": "max_pooling2d", "trainable": True, "dtype": POLICY,
                                            "pool_size": (2, 2), "padding": "valid", "strides": (2, 2),
                                            "data_format": "channels_last"}),
    (L.GlobalAveragePooling2D(name="g"), {"name": "g", "trainable": True, "dtype": POLICY,
                                          "data_format": "channels_last", "keepdims": False}),
    (L.Activation("relu", name="activation"), {"name": "activation", "trainable": True, "dtype": POLICY,
                                               "activation": "relu"}),
    (L.ReLU(name="re_lu"), {"name": "re_lu", "trainable": True, "dtype": POLICY, "max_value": None,
                            "negative_slope": 0.0, "threshold": 0.0}),
    (L.Softmax(name="softmax"), {"name": "softmax", "trainable": True, "dtype": POLICY, "axis": -1}),
    (L.Concatenate(name="c"), {"name": "c", "trainable": True, "dtype": POLICY, "axis": -1}),
    (L.Add(name="add"), {"name": "add", "trainable": True, "dtype": POLICY}),
    (L.Masking(name="masking"), {"name": "masking", "trainable": True, "dtype": POLICY, "mask_value": 0.0}),
])
def test_configs_match_keras(layer, expected):
    assert _keras(layer.get_config()) == _keras(expected)


def test_dense_and_recurrent_configs_have_keras_keys():
    dense = L.Dense(3, name="dense").get_config()
    assert list(dense) == ["name", "trainable", "dtype", "units", "activation", "use_bias", "kernel_initializer",
                           "bias_initializer", "kernel_regularizer", "bias_regularizer", "kernel_constraint",
                           "bias_constraint", "quantization_config"]
    assert dense["activation"] == "linear" and dense["bias_initializer"] == {
        "module": "keras.initializers", "class_name": "Zeros", "config": {}, "registered_name": None}
    lstm = L.LSTM(3).get_config()
    assert list(lstm) == ["name", "trainable", "dtype", "return_sequences", "return_state", "go_backwards", "stateful",
                          "unroll", "zero_output_for_mask", "units", "activation", "recurrent_activation", "use_bias",
                          "kernel_initializer", "recurrent_initializer", "bias_initializer", "unit_forget_bias",
                          "kernel_regularizer", "recurrent_regularizer", "bias_regularizer", "activity_regularizer",
                          "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
                          "recurrent_dropout", "seed"]
    assert "reset_after" in L.GRU(2).get_config() and "recurrent_activation" not in L.SimpleRNN(2).get_config()
    emb = L.Embedding(3, 2).get_config()
    assert emb["embeddings_initializer"]["config"] == {"seed": None, "minval": -0.05, "maxval": 0.05}
    assert emb["mask_zero"] is False


ALL_LAYERS = [L.Dense(3, activation="tanh", kernel_regularizer="l1", bias_constraint="non_neg"),
              L.Conv2D(2, 3, padding="same", activation="relu"), L.MaxPooling2D(), L.AveragePooling2D(2),
              L.GlobalAveragePooling2D(), L.Flatten(), L.Dropout(0.3), L.Activation("sigmoid"), L.ReLU(max_value=6.0),
              L.Softmax(), L.Reshape((4, 2)), L.Embedding(6, 2, mask_zero=True), L.BatchNormalization(momentum=0.9),
              L.LayerNormalization(epsilon=1e-5), L.SimpleRNN(2, return_sequences=True), L.GRU(2, dropout=0.1),
              L.LSTM(2, recurrent_dropout=0.2, go_backwards=True), L.Masking(-1.0), L.Concatenate(axis=1), L.Add()]


@pytest.mark.parametrize("layer", ALL_LAYERS, ids=lambda l: type(l).__name__)
def test_every_layer_rebuilds_from_its_json_config(layer):
    config = json.loads(json.dumps(layer.get_config()))
    rebuilt = type(layer).from_config(config)
    assert json.loads(json.dumps(rebuilt.get_config())) == config


def test_weights_survive_a_config_round_trip_through_set_weights():
    layer = L.Dense(3, kernel_initializer="ones")
    layer(np.ones((1, 2), np.float32))
    clone = L.Dense.from_config(layer.get_config())
    clone.build_from_config({"input_shape": [None, 2]})
    clone.set_weights(layer.get_weights())
    np.testing.assert_array_equal(clone(np.ones((1, 2), np.float32)).numpy(), [[2.0, 2.0, 2.0]])


def test_model_configs_written_by_keras_3_rebuild_here():
    """`model.to_json()` output of Keras 3.15 (TF 2.21), stored in keras3_model_configs.json: the same
    layers and parameter counts (Keras counted 170 and 212) come back."""
    import os

    from eagerflow.keras.saving.serialization import deserialize_keras_object, keras_classes
    with open(os.path.join(os.path.dirname(__file__), "keras3_model_configs.json")) as f:
        configs = json.load(f)
    seq = deserialize_keras_object(configs["sequential_cnn"], keras_classes())
    assert [type(l).__name__ for l in seq.layers] == ["Conv2D", "BatchNormalization", "MaxPooling2D", "Flatten",
                                                     "Dense", "Dropout", "Dense"]
    assert seq.count_params() == 170
    assert isinstance(seq.layers[4].kernel.constraint, keras.constraints.MaxNorm)
    assert seq.predict(np.zeros((2, 8, 8, 1), np.float32), verbose=0).shape == (2, 2)
    fun = deserialize_keras_object(configs["functional_rnn"], keras_classes())
    assert [type(l).__name__ for l in fun.layers] == ["InputLayer", "Embedding", "LSTM", "GRU", "Dense", "Concatenate"]
    assert fun.count_params() == 212 and fun.layers[2].dropout == 0.1
