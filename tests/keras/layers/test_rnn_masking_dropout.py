"""RNN masking and dropout against Keras 3.15 (TF 2.21): masks from Embedding(mask_zero=True) and
Masking reach the recurrent layers (skipped steps carry the state and repeat the last output), and
dropout/recurrent_dropout use one mask per call, fixed across time steps, in training only.
Expected values were computed by the oracle and written here."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

L = keras.layers
IDS = np.array([[3, 1, 0, 2, 0], [0, 4, 4, 0, 1]])
X = np.random.default_rng(0).random((2, 5, 3)).astype("f4")
X[0, 2] = 0
X[1, 0] = 0
X[1, 3] = 0
MASK = np.array([[1, 1, 0, 1, 0], [0, 1, 1, 0, 1]], bool)
ONES = dict(kernel_initializer="ones", recurrent_initializer="ones", bias_initializer="zeros")

LAST = {"SimpleRNN": [0.9710249900817871, 0.9706528782844543], "GRU": [0.38804858922958374, 0.3696165978908539],
        "LSTM": [0.6177874207496643, 0.5977280139923096]}
SEQUENCES = {
    "SimpleRNN": [[0.2768954932689667, 0.7919188141822815, 0.7919188141822815, 0.9710249900817871, 0.9710249900817871],
                  [0.0, 0.22148360311985016, 0.7042064070701599, 0.7042064070701599, 0.9706528782844543]],
    "GRU": [[0.11889780312776566, 0.27043411135673523, 0.27043411135673523, 0.38804858922958374, 0.38804858922958374],
            [0.0, 0.09832379966974258, 0.24098390340805054, 0.24098390340805054, 0.3696165978908539]],
    "LSTM": [[0.08941140025854111, 0.3287428021430969, 0.3287428021430969, 0.6177874207496643, 0.6177874207496643],
             [0.0, 0.0681409016251564, 0.2590599060058594, 0.2590599060058594, 0.5977280139923096]],
}


def test_mask_sources_match_keras():
    emb = L.Embedding(5, 2, mask_zero=True)
    assert emb.compute_mask(IDS).numpy().tolist() == MASK.tolist()
    assert L.Embedding(5, 2).compute_mask(IDS) is None
    assert L.Masking().compute_mask(tf.constant(X)).numpy().tolist() == [[True, True, False, True, True],
                                                                        [False, True, True, False, True]]
    out = L.Masking()(X).numpy()
    assert (out[0, 2] == 0).all() and np.array_equal(out[0, 1], X[0, 1])
    assert [L.Masking().supports_masking, L.Dense(2).supports_masking, L.LSTM(2).supports_masking,
            L.Dropout(.1).supports_masking, L.Embedding(3, 2).supports_masking, L.Flatten().supports_masking] == \
        [True, True, True, True, False, False]


@pytest.mark.parametrize("name", ["SimpleRNN", "GRU", "LSTM"])
def test_masked_steps_carry_the_state_as_keras(name):
    cls = getattr(L, name)
    last = cls(2, **ONES)(X * 0.3, mask=MASK).numpy()
    np.testing.assert_allclose(last, np.repeat(np.array(LAST[name])[:, None], 2, 1), rtol=1e-5)
    layer = cls(2, return_sequences=True, **ONES)
    seq = layer(X * 0.3, mask=MASK).numpy()
    np.testing.assert_allclose(seq, np.repeat(np.array(SEQUENCES[name])[..., None], 2, 2), rtol=1e-5, atol=1e-7)
    assert layer.compute_mask(X, tf.constant(MASK)).numpy().tolist() == MASK.tolist()
    assert cls(2).compute_mask(X, tf.constant(MASK)) is None
    outs = cls(2, return_state=True, **ONES)(X * 0.3, mask=MASK)
    np.testing.assert_allclose(outs[1].numpy(), outs[0].numpy())
    if name == "LSTM":
        np.testing.assert_allclose(outs[2].numpy()[:, 0], [1.1181972026824951, 1.0337415933609009], rtol=1e-5)
    # the same under tf.function
    fn = tf.function(lambda x, m: layer(x, mask=m))
    np.testing.assert_allclose(fn(tf.constant(X * 0.3), tf.constant(MASK)).numpy(), seq, rtol=1e-6)


def test_all_masked_rows_output_zeros():
    out = L.SimpleRNN(2, return_sequences=True, **ONES)(X, mask=np.zeros((2, 5), bool)).numpy()
    assert not out.any()


def test_masks_propagate_through_sequential_and_functional_models():
    s = keras.Sequential([keras.Input((5,), dtype="int32"), L.Embedding(5, 2, mask_zero=True,
                                                                      embeddings_initializer="ones"),
                          L.SimpleRNN(2, return_sequences=True, **ONES), L.LSTM(2, **ONES)])
    np.testing.assert_allclose(s(IDS).numpy(), np.full((2, 2), 0.9703683257102966), rtol=1e-5)
    inp = keras.Input((5, 3))
    h = L.GRU(2, return_sequences=True, **ONES)(L.Masking()(inp))
    f = keras.Model(inp, L.Dense(1, kernel_initializer="ones")(h))
    expected = [[0.4127295911312103, 0.5715613961219788, 0.5715613961219788, 0.6950414180755615, 0.8083459734916687],
                [0.0, 0.4076145887374878, 0.60941082239151, 0.60941082239151, 0.6795316934585571]]
    np.testing.assert_allclose(f(X).numpy()[..., 0], expected, rtol=1e-5, atol=1e-7)

    class Sub(keras.Model):  # a subclassed model's layers see the mask too, as in Keras
        def __init__(self):
            super().__init__()
            self.emb = L.Embedding(5, 2, mask_zero=True, embeddings_initializer="ones")
            self.rnn = L.SimpleRNN(2, return_sequences=True, **ONES)
            self.lstm = L.LSTM(2, **ONES)

        def call(self, x):
            return self.lstm(self.rnn(self.emb(x)))

    np.testing.assert_allclose(Sub()(IDS).numpy(), np.full((2, 2), 0.9703683257102966), rtol=1e-5)
    model = keras.Sequential([keras.Input((5,), dtype="int32"), L.Embedding(5, 2, mask_zero=True),
                              L.LSTM(3), L.Dense(2)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    before = model.evaluate(IDS, np.array([0, 1]), verbose=0)
    model.fit(IDS, np.array([0, 1]), epochs=5, verbose=0)  # masks inside fit's traced step
    assert model.evaluate(IDS, np.array([0, 1]), verbose=0) < before


def _identity_rnn(**kw):
    r = L.SimpleRNN(3, activation="linear", use_bias=False, return_sequences=True, **kw)
    r(np.ones((4, 4, 3), np.float32))
    r.kernel.assign(np.eye(3, dtype=np.float32))
    r.recurrent_kernel.assign(np.eye(3, dtype=np.float32) * (1.0 if kw.get("recurrent_dropout") else 0.0))
    return r


def test_input_dropout_mask_is_fixed_across_time_steps_and_training_only():
    keras.utils.set_random_seed(1)
    r = _identity_rnn(dropout=0.5)
    x = np.ones((64, 4, 3), np.float32)
    out = r(x, training=True).numpy()
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert (out == out[:, :1, :]).all()  # one mask per sequence, the same at every step
    assert 0.3 < (out == 0).mean() < 0.7
    np.testing.assert_array_equal(r(x, training=False).numpy(), np.ones_like(x))
    np.testing.assert_array_equal(r(x).numpy(), np.ones_like(x))  # a direct call is inference, as in Keras
    # a rate of 1 is skipped by Keras (0 < rate < 1): no dropout at all
    np.testing.assert_array_equal(_identity_rnn(dropout=1.0)(x, training=True).numpy(), np.ones_like(x))


def test_recurrent_dropout_mask_is_fixed_across_time_steps():
    keras.utils.set_random_seed(2)
    r = _identity_rnn(recurrent_dropout=0.5)
    out = r(np.ones((64, 4, 3), np.float32), training=True).numpy()
    # h_t = 1 + m * h_{t-1} with m in {0, 2} fixed per unit: 1,1,1,1 or 1,3,7,15
    dropped = np.array([1, 1, 1, 1], np.float32)
    kept = np.array([1, 3, 7, 15], np.float32)
    per_unit = np.moveaxis(out, 1, -1).reshape(-1, 4)
    assert all(np.array_equal(u, dropped) or np.array_equal(u, kept) for u in per_unit)
    assert 0.3 < np.mean([np.array_equal(u, dropped) for u in per_unit]) < 0.7


@pytest.mark.parametrize("cls", [L.GRU, L.LSTM])
@pytest.mark.parametrize("rates", [(0.5, 0.0), (0.0, 0.5), (0.3, 0.3)])
def test_gated_rnn_dropout_in_training_only_and_differentiable(cls, rates):
    layer = cls(3, dropout=rates[0], recurrent_dropout=rates[1])
    plain = cls(3)
    x = np.random.default_rng(3).random((8, 4, 2)).astype(np.float32)
    plain(x)
    layer(x)
    plain.set_weights(layer.get_weights())
    np.testing.assert_allclose(layer(x, training=False).numpy(), plain(x).numpy(), rtol=1e-6)
    assert not np.allclose(layer(x, training=True).numpy(), plain(x).numpy())
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x, training=True))
    grads = tape.gradient(loss, layer.trainable_variables)
    assert all(g is not None and np.isfinite(g.numpy()).all() for g in grads)
    step = tf.function(lambda v: layer(v, training=True))
    a, b = step(tf.constant(x)).numpy(), step(tf.constant(x)).numpy()
    assert not np.allclose(a, b)  # fresh masks on every call of the traced function
    config = layer.get_config()
    assert (config["dropout"], config["recurrent_dropout"]) == rates
    assert cls(2, dropout=1.5, recurrent_dropout=-0.1).get_config()["dropout"] == 1.0  # Keras clips to [0, 1]


def test_merge_layers_combine_masks_as_keras():
    x = tf.ones((2, 3, 2))
    m1 = tf.constant(np.array([[1, 1, 0], [0, 1, 1]], bool))
    m2 = tf.constant(np.array([[1, 0, 1], [1, 1, 1]], bool))
    assert L.Add().compute_mask([x, x], [m1, m2]).numpy().tolist() == [[True] * 3] * 2
    assert L.Add().compute_mask([x, x], [m1, None]) is None and L.Add().compute_mask([x, x], None) is None
    assert L.Concatenate().compute_mask([x, x], [m1, m2]).numpy().tolist() == [[True] * 3] * 2
    assert L.Concatenate().compute_mask([x, x], [m1, None]).numpy().tolist() == [[True] * 3] * 2
    assert L.Concatenate(axis=1).compute_mask([x, x], [m1, m2]).numpy().tolist() == [
        [True, True, False, True, False, True], [False, True, True, True, True, True]]
    with pytest.raises(ValueError, match="`mask` should be a list"):
        L.Add().compute_mask([x, x], m1)
    inp = keras.Input((3, 2))
    a = L.Masking()(inp)
    c = L.Add()([a, L.Dense(2)(a)])  # the mask flows through the merge to the RNN
    f = keras.Model(inp, L.SimpleRNN(1, return_sequences=True, **ONES)(c))
    out = f(np.array([[[1, 1], [0, 0], [2, 2]]], "f4")).numpy()[0, :, 0]
    assert out[1] == out[0]  # the masked step repeats the previous output


def test_a_layer_without_mask_support_warns_that_it_drops_the_mask():
    import warnings
    emb = keras.layers.Embedding(10, 4, mask_zero=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        keras.layers.Flatten(name="flat")(emb(np.array([[1, 2, 0]])))
    # Keras 3.15 (TF 2.21), a UserWarning:
    assert [str(w.message) for w in caught if issubclass(w.category, UserWarning)] == [
        "Layer 'flat' (of type Flatten) was passed an input with a mask attached to it. However, this layer does "
        "not support masking and will therefore destroy the mask information. Downstream layers will not see the "
        "mask."]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        keras.layers.Dense(3)(emb(np.array([[1, 2, 0]])))  # Dense passes masks on: no warning (Keras 3)
    assert not [w for w in caught if "mask" in str(w.message)]
