"""Static shapes a traced program keeps, as TensorFlow 2.21 keeps them (its values printed in the
comments): the number of rows of `tf.strings.unicode_split` of a known number of strings, and of
`RaggedTensor.to_tensor()`; a char-RNN's generation step (unicode_split -> StringLookup -> to_tensor ->
Embedding -> GRU with the previous call's states) needs the batch size known to carry its states
through the GRU's loop."""
import numpy as np

import eagerflow as tf

keras = tf.keras


def test_unicode_split_and_to_tensor_keep_the_number_of_rows():
    shapes = {}

    @tf.function
    def f(s):
        split = tf.strings.unicode_split(s, "UTF-8")
        shapes["split"] = split.shape.as_list()  # TF: [1, None]
        dense = split.to_tensor()
        shapes["dense"] = dense.shape.as_list()  # TF: [1, None]
        shapes["asked"] = split.to_tensor(shape=[None, 5]).shape.as_list()  # TF: [1, 5]
        shapes["matrix"] = tf.strings.unicode_split(tf.reshape(s, [1, 1]), "UTF-8").to_tensor().shape.as_list()
        return dense

    out = f(tf.constant(["héllo"]))
    assert out.numpy().tolist() == [[b"h", "é".encode(), b"l", b"l", b"o"]]
    assert shapes == {"split": [1, None], "dense": [1, None], "asked": [1, 5], "matrix": [1, 1, None]}
    unknown = tf.function(lambda s: tf.strings.unicode_split(s, "UTF-8").to_tensor())
    assert unknown.get_concrete_function(tf.TensorSpec([None], tf.string)).output_shapes.as_list() == [None, None]


def test_a_char_rnn_generation_step_carries_its_states():
    """TensorFlow's text-generation tutorial's OneStep, small: twice, the second time with the states
    the first call returned (TF 2.21 runs it; eagerflow refused the GRU's loop, its state having lost
    the batch size)."""
    lookup = keras.layers.StringLookup(vocabulary=list("abc "), mask_token=None)
    embed, gru = keras.layers.Embedding(8, 4), keras.layers.GRU(6, return_sequences=True, return_state=True)
    dense = keras.layers.Dense(8)

    @tf.function
    def step(text, states=None):
        ids = lookup(tf.strings.unicode_split(text, "UTF-8")).to_tensor()
        x, states = gru(embed(ids), initial_state=states)
        return tf.argmax(dense(x)[:, -1, :], axis=-1), states

    first, states = step(tf.constant(["ab"]))
    assert states.shape == (1, 6)
    second, states = step(tf.constant(["c"]), states=states)
    assert second.shape == (1,) and states.shape == (1, 6)


def test_rnn_layers_give_their_initial_states():
    """Keras 3's `get_initial_state(batch_size)`: a list of zeros per state (TF: GRU [3, 4]; LSTM two
    [3, 3]; RNN over stacked GRU(2)/LSTM(3) cells [3, 2], [3, 3], [3, 3])."""
    cases = [(keras.layers.GRU(4), [(3, 4)]), (keras.layers.LSTM(3), [(3, 3), (3, 3)]),
             (keras.layers.SimpleRNN(2), [(3, 2)]), (keras.layers.RNN(keras.layers.LSTMCell(5)), [(3, 5), (3, 5)]),
             (keras.layers.RNN(keras.layers.StackedRNNCells([keras.layers.GRUCell(2), keras.layers.LSTMCell(3)])),
              [(3, 2), (3, 3), (3, 3)])]
    for layer, shapes in cases:
        states = tf.nest.flatten(layer.get_initial_state(3))
        assert [tuple(s.shape) for s in states] == shapes
        assert all(s.dtype == tf.float32 and not np.any(s.numpy()) for s in states)
    gru = keras.layers.GRU(4, return_state=True)

    @tf.function
    def f(x):
        return gru(x, initial_state=gru.get_initial_state(tf.shape(x)[0]))[1]
    assert f(tf.ones([2, 3, 2])).shape == (2, 4)
