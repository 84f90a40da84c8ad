"""EinsumDense, MultiHeadAttention, Attention and AdditiveAttention against TensorFlow 2.21's Keras 3.15: outputs
with identical weights (masks, causal masks, scores, several attention axes), weight paths and order, configs,
automatic names, errors; dropout only when training; gradients by finite differences; graph mode and the .keras
round trip."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layers2_oracle import (ORACLE, arr, assert_gradients_match_finite_differences, config_matches,
                                        error, paths, weights)

L = keras.layers
TOL = dict(rtol=1e-5, atol=2e-6)


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


@pytest.mark.parametrize("key,x", [("ed1", "x2"), ("ed2", "x3"), ("ed3", "x3"), ("ed4", "x3"), ("ed5", "x3")])
def test_einsum_dense_matches_keras(key, x):
    cfg = ORACLE[key + "_cfg"]
    layer = L.EinsumDense(cfg["equation"], cfg["output_shape"], bias_axes=cfg["bias_axes"],
                          activation=cfg["activation"])
    layer.build(arr(x).shape)
    assert paths(layer) == ORACLE[key + "_paths"]
    layer.set_weights(weights(key))
    np.testing.assert_allclose(layer(arr(x)).numpy(), arr(key), **TOL)
    assert list(layer.compute_output_shape(arr(x).shape)) == ORACLE[key + "_shape"]
    config_matches(layer, key + "_cfg")


@pytest.mark.parametrize("key,make", [
    ("ed_bad_eq", lambda: L.EinsumDense("ab,bc", 3).build((2, 3))),
    ("ed_bad_bias", lambda: L.EinsumDense("ab,bc->ac", 3, bias_axes="x").build((2, 3))),
    ("ed_bad_weight", lambda: L.EinsumDense("ab,bz->ac", 3).build((2, 3))),
    ("ed_bad_out", lambda: L.EinsumDense("ab,bc->acd", (3, 4)).build((2, 3))),
    ("ed_mismatch", lambda: L.EinsumDense("abc,cd->abd", (7, 4)).build((2, 3, 5)))])
def test_einsum_dense_errors_match_keras(key, make):
    cls, message = error(key)
    with pytest.raises(ValueError, match=re.escape(message)):
        make()
    assert cls == "ValueError"


def test_einsum_dense_names():
    assert [L.EinsumDense("ab,bc->ac", 2).name for _ in range(2)] == ORACLE["ed_names"]


def _mha(key, *args, **kwargs):
    layer = L.MultiHeadAttention(*args, **kwargs)
    shapes = [arr("q").shape, arr("v").shape] if key != "mha3" else [arr("x4b").shape] * 2
    if key == "mha2":
        shapes.append(arr("k").shape)
    layer.build(*shapes)
    assert paths(layer) == ORACLE[key + "_paths"]
    layer.set_weights(weights(key))
    return layer


def test_multi_head_attention_matches_keras_with_masks_and_scores():
    mha = _mha("mha", 2, 3)
    q, v, amask = arr("q"), arr("v"), arr("amask") > 0.5
    np.testing.assert_allclose(mha(q, v).numpy(), arr("mha_out"), **TOL)
    out, scores = mha(q, v, return_attention_scores=True)
    np.testing.assert_allclose(scores.numpy(), arr("mha_scores"), **TOL)
    # query 1 of sample 0 may see nothing: Keras' fused path attends uniformly there
    np.testing.assert_allclose(mha(q, v, attention_mask=amask).numpy(), arr("mha_masked"), **TOL)
    out, scores = mha(q, q, use_causal_mask=True, return_attention_scores=True)
    np.testing.assert_allclose(out.numpy(), arr("mha_causal"), **TOL)
    np.testing.assert_allclose(scores.numpy(), arr("mha_causal_scores"), **TOL)
    assert np.all(scores.numpy()[:, :, np.triu_indices(4, 1)[0], np.triu_indices(4, 1)[1]] == 0)
    np.testing.assert_allclose(mha(q, v, attention_mask=amask, use_causal_mask=True).numpy(),
                               arr("mha_causal_and_mask"), **TOL)
    # Keras 3.15 reads the query mask from the query tensor only; value_mask applies
    np.testing.assert_allclose(mha(q, v, query_mask=arr("qm") > 0.5, value_mask=arr("vm") > 0.5).numpy(),
                               arr("mha_qvmask"), **TOL)
    assert mha.get_build_config() == ORACLE["mha_build_config"]
    config_matches(mha, "mha_cfg")
    # MultiHeadAttention made a Softmax and a Dropout sublayer: Keras' automatic names count them
    assert [L.Dropout(0.1).name, L.Softmax().name, L.MultiHeadAttention(1, 2).name] == ORACLE["mha_names_after"]


def test_multi_head_attention_key_value_dim_output_shape_and_dropout():
    mha = _mha("mha2", 2, 3, value_dim=4, output_shape=7, use_bias=False, dropout=0.5)
    q, v, k = arr("q"), arr("v"), arr("k")
    np.testing.assert_allclose(mha(q, v, k).numpy(), arr("mha2_out"), **TOL)
    np.testing.assert_allclose(mha(q, v, k, training=False).numpy(), arr("mha2_out"), **TOL)
    trained = mha(q, v, k, training=True).numpy()
    assert list(trained.shape) == ORACLE["mha2_out_train_shape"]
    assert not np.allclose(trained, arr("mha2_out"))  # dropout on the scores while training only
    config_matches(mha, "mha2_cfg")


def test_multi_head_attention_over_two_axes_and_a_tuple_output_shape():
    mha = _mha("mha3", 2, 2, attention_axes=(1, 2))
    out, scores = mha(arr("x4b"), arr("x4b"), return_attention_scores=True)
    np.testing.assert_allclose(out.numpy(), arr("mha3_out"), **TOL)
    np.testing.assert_allclose(scores.numpy(), arr("mha3_scores"), **TOL)
    config_matches(mha, "mha3_cfg")
    keras.backend.clear_session()
    mha4 = L.MultiHeadAttention(2, 3, output_shape=(2, 3))
    mha4.build(arr("q").shape, arr("v").shape)
    assert paths(mha4) == ORACLE["mha4_paths"]
    mha4.set_weights(weights("mha4"))
    np.testing.assert_allclose(mha4(arr("q"), arr("v")).numpy(), arr("mha4_out"), **TOL)
    assert mha4.compute_output_shape((2, 4, 5), (2, 6, 5)) == (2, 4, 2, 3)


def test_multi_head_attention_errors():
    with pytest.raises(ValueError, match=re.escape(error("mha_bad_kw")[1])):
        L.MultiHeadAttention(2, 3, foo=1)
    # every layer: Keras 3.15 raises ValueError for an unknown keyword (eagerflow raised TypeError)
    for make, name in [(lambda: L.Dense(3, foo=1), "Dense"), (lambda: L.Dropout(0.1, foo=1), "Dropout")]:
        with pytest.raises(ValueError, match=re.escape(f"Unrecognized keyword arguments passed to {name}: "
                                                       f"{{'foo': 1}}")):
            make()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        L.MultiHeadAttention(2, 3)(arr("q"), arr("v"), attention_mask=np.ones((2, 5, 6), bool))
    assert error("mha_bad_mask")[0] == "InvalidArgumentError"


def test_multi_head_attention_gradients_match_finite_differences():
    rng = np.random.default_rng(1)
    mha = L.MultiHeadAttention(2, 2, dtype="float64")
    q, v = rng.normal(size=(2, 3, 3)), rng.normal(size=(2, 4, 3))
    mask = rng.random((2, 3, 4)) > 0.3
    mha(q, v)
    qv = tf.Variable(q)
    assert_gradients_match_finite_differences(
        lambda: tf.reduce_sum(tf.square(mha(qv, v, attention_mask=mask, use_causal_mask=True))),
        [qv] + mha.trainable_weights[::3], rtol=1e-5, atol=1e-6)


def test_multi_head_attention_agrees_in_graph_mode_and_round_trips(tmp_path):
    q_in, v_in = keras.Input((4, 5)), keras.Input((6, 5))
    attended = L.MultiHeadAttention(2, 3)(q_in, v_in)
    mixed = L.Attention(use_scale=True)([attended, v_in])
    out = L.AdditiveAttention()([L.EinsumDense("abc,cd->abd", (4, 5), bias_axes="d")(mixed), v_in])
    model = keras.Model([q_in, v_in], out)
    q, v = arr("q"), arr("v")
    eager = model([q, v]).numpy()
    np.testing.assert_allclose(tf.function(lambda a, b: model([a, b]))(q, v).numpy(), eager, rtol=1e-6, atol=1e-6)
    model.save(tmp_path / "a.keras")
    loaded = keras.models.load_model(tmp_path / "a.keras")
    np.testing.assert_allclose(loaded([q, v]).numpy(), eager, rtol=1e-6, atol=1e-6)
    assert [w.path for w in loaded.weights] == [w.path for w in model.weights]
    assert [w.path for w in model.weights][:2] == ["multi_head_attention/query/kernel",
                                                   "multi_head_attention/query/bias"]


ATT = [("att", lambda: L.Attention()), ("att_s", lambda: L.Attention(use_scale=True)),
       ("att_c", lambda: L.Attention(score_mode="concat")),
       ("att_cs", lambda: L.Attention(use_scale=True, score_mode="concat")),
       ("add", lambda: L.AdditiveAttention()), ("add_ns", lambda: L.AdditiveAttention(use_scale=False))]


def test_attention_layers_match_keras():
    aq, av, ak = arr("aq"), arr("av"), arr("ak")
    masks = [arr("qm")[:, :3] > 0.5, arr("vm")[:, :5] > 0.5]
    for key, make in ATT:  # one session: the automatic names count on as in Keras
        layer = make()
        layer.build([aq.shape, av.shape])
        assert layer.name == ORACLE[key + "_name"]
        assert paths(layer) == ORACLE[key + "_paths"]
        layer.set_weights(weights(key))
        np.testing.assert_allclose(layer([aq, av]).numpy(), arr(key + "_out"), **TOL)
        np.testing.assert_allclose(layer([aq, av, ak]).numpy(), arr(key + "_outk"), **TOL)
        np.testing.assert_allclose(layer([aq, av], return_attention_scores=True)[1].numpy(), arr(key + "_scores"),
                                   **TOL)
        np.testing.assert_allclose(layer([aq, av], mask=masks).numpy(), arr(key + "_masked"), **TOL)
        np.testing.assert_allclose(layer([aq, av], use_causal_mask=True).numpy(), arr(key + "_causal"), **TOL)
        assert layer.get_config() == ORACLE[key + "_cfg"]


@pytest.mark.parametrize("key,make", [("att_notlist", lambda: L.Attention()(arr("aq"))),
                                      ("att_one", lambda: L.Attention()([arr("aq")])),
                                      ("att_mode", lambda: L.Attention(score_mode="x"))])
def test_attention_errors_match_keras(key, make):
    with pytest.raises(ValueError, match=re.escape(error(key)[1])):
        make()


def test_attention_mask_must_be_a_list():
    with pytest.raises(ValueError, match="Attention layer mask must be a list, namely \\[query_mask, value_mask\\]"):
        L.Attention()([arr("aq"), arr("av")], mask=arr("vm") > 0.5)


def test_attention_dropout_only_when_training():
    layer = L.Attention(dropout=0.5)
    aq, av = arr("aq"), arr("av")
    np.testing.assert_allclose(layer([aq, av]).numpy(), arr("att_out"), **TOL)
    assert not np.allclose(layer([aq, av], training=True).numpy(), arr("att_out"))


@pytest.mark.parametrize("key,make", [("att_cs", lambda: L.Attention(use_scale=True, score_mode="concat",
                                                                     dtype="float64")),
                                      ("add", lambda: L.AdditiveAttention(dtype="float64"))])
def test_attention_gradients_match_finite_differences(key, make):
    rng = np.random.default_rng(2)
    layer = make()
    layer.build([(2, 3, 4), (2, 5, 4)])
    layer.set_weights(weights(key))
    q, v = tf.Variable(rng.normal(size=(2, 3, 4))), rng.normal(size=(2, 5, 4))
    mask = [None, rng.random((2, 5)) > 0.3]
    assert_gradients_match_finite_differences(
        lambda: tf.reduce_sum(tf.square(layer([q, tf.constant(v)], mask=mask))), [q] + layer.trainable_weights)


def test_softmax_layer_masks_and_normalises_over_several_axes():
    """Keras 3.15: masked positions get zero weight, and a fully masked row is all zeros."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = L.Softmax()(x, mask=np.array([[1, 0, 1], [0, 0, 0]], bool)).numpy()
    np.testing.assert_allclose(got, [[0.11920291, 0, 0.880797], [0, 0, 0]], rtol=1e-6)
    np.testing.assert_allclose(L.Softmax(axis=(0, 1))(x).numpy(), np.exp(x) / np.exp(x).sum(), rtol=1e-6)


def test_keras_masks_from_an_embedding_reach_attention_as_in_keras():
    """Embedding(mask_zero=True) outputs carry masks: MultiHeadAttention reads the query's and value's masks,
    its output carries the query's mask, and (as Keras 3.15 does) the inputs lose theirs; Attention reads both
    masks and passes the query's on."""
    from eagerflow.keras.layers.masks import get_keras_mask
    emb = L.Embedding(10, 5, mask_zero=True)
    emb.build((None,))
    emb.set_weights([arr("emb_w")])
    ids_q, ids_v = np.array(ORACLE["ids_q"]), np.array(ORACLE["ids_v"])
    eq, ev = emb(ids_q), emb(ids_v)
    mha = L.MultiHeadAttention(2, 3)
    mha.build(eq.shape, ev.shape)
    assert paths(mha) == ORACLE["mha_m_paths"]
    mha.set_weights(weights("mha_m"))
    out = mha(eq, ev)
    np.testing.assert_allclose(out.numpy(), arr("mha_m_out"), **TOL)
    np.testing.assert_array_equal(get_keras_mask(out).numpy(), arr("mha_m_outmask") > 0.5)
    assert ORACLE["mha_m_strips_input_masks"] and get_keras_mask(eq) is None and get_keras_mask(ev) is None
    np.testing.assert_allclose(L.Attention()([eq, ev]).numpy(), arr("att_m_out_after_mha"), **TOL)
    eq, ev = emb(ids_q), emb(ids_v)
    attended = L.Attention()([eq, ev])
    np.testing.assert_allclose(attended.numpy(), arr("att_m_out"), **TOL)
    np.testing.assert_array_equal(get_keras_mask(attended).numpy(), arr("att_m_outmask") > 0.5)


def test_a_masked_transformer_block_trains_and_round_trips(tmp_path):
    ids = keras.Input((4,), dtype="int32")
    x = L.Embedding(10, 6, mask_zero=True)(ids)
    attended = L.MultiHeadAttention(2, 3, dropout=0.1)(x, x, use_causal_mask=True)
    x = L.LayerNormalization()(L.Add()([x, attended]))
    out = L.Dense(2)(L.GlobalAveragePooling1D()(x))
    model = keras.Model(ids, out)
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    data = np.array([[1, 2, 3, 0], [4, 5, 0, 0], [6, 7, 8, 9], [2, 0, 0, 0]])
    history = model.fit(data, np.array([0, 1, 0, 1]), epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    model.save(tmp_path / "t.keras")
    loaded = keras.models.load_model(tmp_path / "t.keras")
    np.testing.assert_allclose(loaded.predict(data, verbose=0), model.predict(data, verbose=0), rtol=1e-5, atol=1e-6)
