"""What a layer and a functional model tell about their place in the graph: `layer.input`/`output`
after a call on keras.Input tensors, `model.inputs`/`outputs`/`output_names`/`layers` order, named
(dict) inputs and outputs, KerasTensors as keyword and nested arguments, and the errors of a graph
that is not connected. Every expected answer is Keras 3.15.1's (TensorFlow 2.21) for the same code."""
import numpy as np
import pytest

from eagerflow import keras

ops = keras.ops


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def test_layer_input_and_output_are_its_first_call():
    x = keras.Input((4,), name="x")
    d = keras.layers.Dense(3, name="d")
    h = d(x)
    assert d.output is h and d.input is x
    d(keras.Input((4,), name="x2"))
    assert d.output is h  # Keras 3: answers from call 0
    with pytest.raises(AttributeError, match="'Dense' object has no attribute 'output_shape'"):
        d.output_shape  # Keras 3 has no output_shape on layers
    fresh = keras.layers.Dense(2)
    with pytest.raises(AttributeError, match="The layer dense has never been called and thus has no defined input."):
        fresh.input
    with pytest.raises(AttributeError, match="The layer dense has never been called and thus has no defined output."):
        fresh.output


def test_model_ends_and_names():
    x = keras.Input((4,), name="x")
    m = keras.Model(x, keras.layers.Dense(3, name="d")(x), name="m")
    assert m.output_names == ["d"]
    assert m.input is x and m.inputs == [x] and m.output is m.get_layer("d").output
    assert (m.input_shape, m.output_shape) == ((None, 4), (None, 3))
    with pytest.raises(AttributeError, match="input_names"):
        m.input_names  # Keras 3.15's Functional has no input_names
    with pytest.raises(ValueError, match="No such layer: nope"):
        m.get_layer("nope")
    assert keras.Model(x, x).output_names == ["x"]
    assert keras.Model(x, 2 * x).output_names == ["multiply"]


def test_named_inputs_and_outputs_as_dicts():
    b = keras.Input((3,), name="b")
    a = keras.Input((2,), name="a")
    h = keras.layers.Concatenate(name="cat")([a, b])
    y = keras.layers.Dense(1, name="yd")(h)
    z = keras.layers.Dense(2, name="zd")(h)
    m = keras.Model(inputs={"b": b, "a": a}, outputs={"z": z, "y": y})
    # Keras 3.15: flat lists ordered by key; `input`/`output` keep the dicts; output names are the layers'
    assert m.inputs == [a, b] and m.outputs == [y, z]
    assert m.input == {"b": b, "a": a} and m.output == {"z": z, "y": y}
    assert m.output_names == ["yd", "zd"]
    assert [l.name for l in m.layers] == ["a", "b", "cat", "yd", "zd"]
    config = m.get_config()
    assert config["input_layers"] == {"b": ["b", 0, 0], "a": ["a", 0, 0]}
    assert config["output_layers"] == {"z": ["zd", 0, 0], "y": ["yd", 0, 0]}
    out = m.predict({"a": np.ones((4, 2), "float32"), "b": np.ones((4, 3), "float32")}, verbose=0)
    assert {k: v.shape for k, v in out.items()} == {"z": (4, 2), "y": (4, 1)}
    back = keras.Model.from_config(config)
    assert back.output_names == ["yd", "zd"] and sorted(back.output) == ["y", "z"]
    two = keras.Model([a, b], [y, z])
    assert two.get_config()["input_layers"] == [["a", 0, 0], ["b", 0, 0]] and two.output_names == ["yd", "zd"]


def test_keyword_and_nested_keras_tensor_arguments_are_graph_edges():
    enc_in = keras.Input((None, 3), name="enc")
    dec_in = keras.Input((None, 2), name="dec")
    _, h, c = keras.layers.LSTM(4, return_state=True, name="encoder")(enc_in)
    dec = keras.layers.LSTM(4, return_sequences=True, name="decoder")(dec_in, initial_state=[h, c])
    m = keras.Model([enc_in, dec_in], keras.layers.Dense(2, name="proj")(dec))
    # Keras 3.15's order: by depth from the outputs (the encoder input is deepest), then first met
    assert [l.name for l in m.layers] == ["enc", "dec", "encoder", "decoder", "proj"]
    assert [t.shape for t in m.get_layer("decoder").input] == [(None, None, 2), (None, 4), (None, 4)]
    node = m.get_config()["layers"][3]["inbound_nodes"][0]
    assert [t["config"]["keras_history"] for t in node["kwargs"]["initial_state"]] == [["encoder", 0, 1],
                                                                                        ["encoder", 0, 2]]

    class Pair(keras.layers.Layer):
        def call(self, inputs):
            return inputs["a"] * 2 + inputs["b"][0]

    x = keras.Input((4,), name="x")
    pair = keras.Model(x, Pair(name="pair")({"a": x, "b": [x]}))
    np.testing.assert_allclose(pair.predict(np.ones((2, 4), "float32"), verbose=0), np.full((2, 4), 3.0))


def test_feature_extractor_from_a_sequential_model():
    s = keras.Sequential([keras.layers.Dense(3, name="s1"), keras.layers.Dense(2, name="s2")])
    with pytest.raises(AttributeError, match="The layer s1 has never been called and thus has no defined output."):
        s.layers[0].output
    s(np.zeros((5, 4), "float32"))
    # Keras 3.15 builds a Sequential from its first batch, the batch size included
    assert s.layers[0].output.shape == (5, 3) and [t.shape for t in s.inputs] == [(5, 4)]
    with pytest.raises(AttributeError, match="The layer sequential has never been called and thus has no defined "
                                             "input."):
        s.input
    s2 = keras.Sequential([keras.Input((4,), name="sx"), keras.layers.Dense(3, name="t1"), keras.layers.Dense(1)])
    ext = keras.Model(s2.inputs, s2.get_layer("t1").output)
    assert ext.output_shape == (None, 3) and [l.name for l in ext.layers] == ["sx", "t1"]


def test_outputs_not_computed_from_the_inputs_are_refused():
    x = keras.Input((4,), name="x")
    other = keras.Input((3,), name="o")
    y = keras.layers.Dense(2)(other)
    # Keras 3.15's messages, naming the output's path in the structure
    with pytest.raises(ValueError, match="Output with path `` is not connected to `inputs`"):
        keras.Model(x, y)
    with pytest.raises(ValueError, match="Output with path `1` is not connected to `inputs`"):
        keras.Model(x, [x, y])
    with pytest.raises(ValueError, match="Output with path `b` is not connected to `inputs`"):
        keras.Model(x, {"a": x, "b": y})
    with pytest.raises(ValueError, match="Output with path `1.0` is not connected to `inputs`"):
        keras.Model(x, [[x], [y]])
    with pytest.raises(ValueError, match="All `outputs` values must be KerasTensors"):
        keras.Model(x, np.ones(3))


def test_keras_tensor_given_to_a_tensorflow_op_is_refused():
    import eagerflow as tf
    x = keras.Input((4,), name="x")
    with pytest.raises(ValueError, match="KerasTensor"):  # Keras 3: ValueError naming the KerasTensor
        tf.nn.relu(x)


# Keras 3.15.1's summary() of the model below: operations have rows; Dense keeps the static middle dim
KERAS_SUMMARY = [
    'Model: "functional"',
    '┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓',
    '┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃',
    '┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩',
    '│ x (InputLayer)                  │ (None, 4)              │             0 │',
    '├─────────────────────────────────┼────────────────────────┼───────────────┤',
    '│ d (Dense)                       │ (None, 4)              │            20 │',
    '├─────────────────────────────────┼────────────────────────┼───────────────┤',
    '│ multiply (Multiply)             │ (None, 4)              │             0 │',
    '├─────────────────────────────────┼────────────────────────┼───────────────┤',
    '│ reshape (Reshape)               │ (None, 2, 2)           │             0 │',
    '├─────────────────────────────────┼────────────────────────┼───────────────┤',
    '│ o (Dense)                       │ (None, 2, 2)           │             6 │',
    '└─────────────────────────────────┴────────────────────────┴───────────────┘',
    ' Total params: 26 (104.00 B)',
    ' Trainable params: 26 (104.00 B)',
    ' Non-trainable params: 0 (0.00 B)',
]


def test_summary_lists_operations_as_keras_3_does():
    x = keras.Input((4,), name="x")
    h = keras.layers.Dense(4, name="d")(x)
    m = keras.Model(x, keras.layers.Dense(2, name="o")(ops.reshape(2 * h, (-1, 2, 2))))
    lines = []
    m.summary(print_fn=lines.append)
    assert "\n".join(lines).split("\n") == KERAS_SUMMARY
