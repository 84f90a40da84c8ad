"""Writes keras3_layers2_oracle.json from TensorFlow 2.21's Keras 3.15 (run with /work/tfenv/bin/python from the
repository root). The tests read the JSON; they never import TensorFlow. Inputs are drawn here with NumPy and
stored beside the outputs, so the tests feed the same values."""
import json
import os

import numpy as np
import keras
from keras import layers as L

OUT = {}
rng = np.random.default_rng(7)


def put(key, value):
    if isinstance(value, (np.ndarray, np.generic)) or hasattr(value, "numpy"):
        value = np.asarray(value).tolist()
    OUT[key] = value


def rand(key, *shape):
    a = rng.standard_normal(shape).astype(np.float32)
    put(key, a)
    return a


def err(key, fn):
    try:
        fn()
        put(key, ["none", ""])
    except Exception as e:  # noqa: BLE001
        put(key, [type(e).__name__, str(e)])


def weights(key, layer):
    put(key + "_paths", [[w.path, list(w.shape)] for w in layer.weights])
    ws = [rng.standard_normal(w.shape).astype(np.float32) * 0.5 for w in layer.weights]
    layer.set_weights(ws)
    put(key + "_w", [w.tolist() for w in ws])


def cfg(key, layer):
    put(key + "_cfg", json.loads(json.dumps(layer.get_config(), default=str)))


# ---------------- EinsumDense ----------------
x2, x3, x4 = rand("x2", 3, 5), rand("x3", 2, 4, 5), rand("x4", 2, 3, 4, 5)
for key, eq, oshape, bias, x in [("ed1", "ab,bc->ac", 4, "c", x2), ("ed2", "abc,cde->abde", (None, 2, 3), "de", x3),
                                  ("ed3", "...b,bc->...c", 4, "c", x3), ("ed4", "ab...,bc->ac...", 4, "c", x3),
                                  ("ed5", "abc,cd->abd", (4, 6), None, x3)]:
    keras.backend.clear_session()
    layer = L.EinsumDense(eq, output_shape=oshape, bias_axes=bias, activation="tanh" if key == "ed5" else None)
    layer.build(x.shape)
    weights(key, layer)
    put(key, layer(x))
    put(key + "_shape", list(layer.compute_output_shape(x.shape)))
    cfg(key, layer)
err("ed_bad_eq", lambda: L.EinsumDense("ab,bc", 3).build((2, 3)))
err("ed_bad_bias", lambda: L.EinsumDense("ab,bc->ac", 3, bias_axes="x").build((2, 3)))
err("ed_bad_weight", lambda: L.EinsumDense("ab,bz->ac", 3).build((2, 3)))
err("ed_bad_out", lambda: L.EinsumDense("ab,bc->acd", (3, 4)).build((2, 3)))
err("ed_mismatch", lambda: L.EinsumDense("abc,cd->abd", (7, 4)).build((2, 3, 5)))
keras.backend.clear_session()
put("ed_names", [L.EinsumDense("ab,bc->ac", 2).name for _ in range(2)])

# ---------------- MultiHeadAttention ----------------
q, v, k = rand("q", 2, 4, 5), rand("v", 2, 6, 5), rand("k", 2, 6, 3)
amask = rng.random((2, 4, 6)) > 0.3
amask[0, 1] = False  # one query that sees nothing
put("amask", amask.astype(np.float32))
keras.backend.clear_session()
mha = L.MultiHeadAttention(2, 3)
mha.build(q.shape, v.shape)
weights("mha", mha)
cfg("mha", mha)
put("mha_names_after", [L.Dropout(0.1).name, L.Softmax().name, L.MultiHeadAttention(1, 2).name])
put("mha_out", mha(q, v))
o, s = mha(q, v, return_attention_scores=True)
put("mha_scores", s)
put("mha_masked", mha(q, v, attention_mask=amask))
o, s = mha(q, q, use_causal_mask=True, return_attention_scores=True)
put("mha_causal", o)
put("mha_causal_scores", s)
qm, vm = np.array([[1, 1, 1, 0], [1, 1, 0, 0]], bool), np.array([[1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 1, 1]], bool)
put("qm", qm.astype(np.float32))
put("vm", vm.astype(np.float32))
put("mha_qvmask", mha(q, v, query_mask=qm, value_mask=vm))
put("mha_causal_and_mask", mha(q, v, attention_mask=amask, use_causal_mask=True))
put("mha_build_config", mha.get_build_config())
keras.backend.clear_session()
mha2 = L.MultiHeadAttention(2, 3, value_dim=4, output_shape=7, use_bias=False, dropout=0.5)
mha2.build(q.shape, v.shape, k.shape)
weights("mha2", mha2)
cfg("mha2", mha2)
put("mha2_out", mha2(q, v, k))
put("mha2_out_train_shape", list(mha2(q, v, k, training=True).shape))
keras.backend.clear_session()
x4b = rand("x4b", 2, 3, 4, 5)
mha3 = L.MultiHeadAttention(2, 2, attention_axes=(1, 2))
mha3.build(x4b.shape, x4b.shape)
weights("mha3", mha3)
cfg("mha3", mha3)
o, s = mha3(x4b, x4b, return_attention_scores=True)
put("mha3_out", o)
put("mha3_scores", s)
keras.backend.clear_session()
mha4 = L.MultiHeadAttention(2, 3, output_shape=(2, 3))
mha4.build(q.shape, v.shape)
weights("mha4", mha4)
put("mha4_out", mha4(q, v))
err("mha_bad_kw", lambda: L.MultiHeadAttention(2, 3, foo=1))
err("mha_bad_rank", lambda: L.MultiHeadAttention(2, 3)(q[:, 0], v[:, 0]))
err("mha_bad_mask", lambda: L.MultiHeadAttention(2, 3)(q, v, attention_mask=np.ones((2, 5, 6), bool)))

# ---------------- Attention / AdditiveAttention ----------------
aq, av, ak = rand("aq", 2, 3, 4), rand("av", 2, 5, 4), rand("ak", 2, 5, 4)
keras.backend.clear_session()
for key, layer in [("att", L.Attention()), ("att_s", L.Attention(use_scale=True)),
                   ("att_c", L.Attention(score_mode="concat")), ("att_cs", L.Attention(use_scale=True, score_mode="concat")),
                   ("add", L.AdditiveAttention()), ("add_ns", L.AdditiveAttention(use_scale=False))]:
    layer.build([aq.shape, av.shape])
    weights(key, layer)
    cfg(key, layer)
    put(key + "_name", layer.name)
    put(key + "_out", layer([aq, av]))
    put(key + "_outk", layer([aq, av, ak]))
    o, s = layer([aq, av], return_attention_scores=True)
    put(key + "_scores", s)
    put(key + "_masked", layer([aq, av], mask=[qm[:, :3], vm[:, :5]]))
    put(key + "_causal", layer([aq, av], use_causal_mask=True))
err("att_notlist", lambda: L.Attention()(aq))
err("att_one", lambda: L.Attention()([aq]))
err("att_mode", lambda: L.Attention(score_mode="x"))
err("att_mask_notlist", lambda: L.Attention()([aq, av], mask=vm))

# ---------------- normalization_extra ----------------
g4, g3 = rand("g4", 2, 3, 3, 6), rand("g3", 2, 5, 6)
keras.backend.clear_session()
gn = L.GroupNormalization(groups=3)
gn.build(g4.shape)
put("gn_paths", [[w.path, list(w.shape)] for w in gn.weights])
gn.set_weights([rng.standard_normal(6).astype(np.float32), rng.standard_normal(6).astype(np.float32)])
put("gn_w", [w.tolist() for w in gn.get_weights()])
put("gn4", gn(g4))
gn_b = L.GroupNormalization(groups=3)
gn_b.build(g3.shape)
gn_b.set_weights(gn.get_weights())
put("gn3", gn_b(g3))
err("gn_rank", lambda: gn(g3))
cfg("gn", gn)
gn1 = L.GroupNormalization(groups=-1, center=False, axis=1, epsilon=0.01)
put("gn_axis1", gn1(g3))
err("gn_groups", lambda: L.GroupNormalization(groups=4)(g4))
err("gn_many", lambda: L.GroupNormalization(groups=12)(g4))
un = L.UnitNormalization()
put("un", un(g3))
put("un12", L.UnitNormalization(axis=(1, 2))(g3))
cfg("un", un)
sd = L.SpatialDropout2D(0.5)
cfg("sd2", sd)
err("sd2_rank", lambda: L.SpatialDropout2D(0.5)(g3, training=True))
sd3 = L.SpatialDropout3D(0.5)
cfg("sd3", sd3)
ar = L.ActivityRegularization(l1=0.1, l2=0.2)
put("ar_out", ar(g3))
put("ar_losses", [float(l) for l in ar.losses])
cfg("ar", ar)
ad = L.AlphaDropout(0.3)
cfg("ad", ad)
put("ad_infer", ad(g3))

# ---------------- RNN cells ----------------
keras.backend.clear_session()
cx, ch, cc = rand("cx", 2, 5), rand("ch", 2, 3), rand("cc", 2, 3)
seq = rand("seq", 2, 4, 5)
for key, cell, states in [("src", L.SimpleRNNCell(3), [ch]), ("lstmc", L.LSTMCell(3), [ch, cc]),
                          ("gruc", L.GRUCell(3), [ch])]:
    cell.build(cx.shape)
    weights(key, cell)
    cfg(key, cell)
    out, new = cell(cx, states)
    put(key + "_out", out)
    put(key + "_states", [np.asarray(s).tolist() for s in new])
    put(key + "_state_size", cell.state_size if isinstance(cell.state_size, int) else list(cell.state_size))
    put(key + "_name", cell.name)
    keras.backend.clear_session()
    rnn = L.RNN(cell, return_sequences=True, return_state=True)
    outs = rnn(seq)
    put(key + "_rnn_paths", [[w.path, list(w.shape)] for w in rnn.weights])
    put(key + "_rnn", [np.asarray(o).tolist() for o in outs])
    put(key + "_rnn_back", L.RNN(cell, go_backwards=True)(seq))
    cfg(key + "_rnn", rnn)
    put(key + "_rnn_name", rnn.name)
keras.backend.clear_session()
stack = L.StackedRNNCells([L.SimpleRNNCell(3), L.LSTMCell(2)])
rnn = L.RNN(stack, return_state=True)
rnn.build(seq.shape)
weights("stack", rnn)
outs = rnn(seq)
put("stack_rnn", [np.asarray(o).tolist() for o in outs])
cfg("stack", stack)
cfg("stack_rnn", rnn)
put("stack_state_size", [s if isinstance(s, int) else list(s) for s in stack.state_size])
err("rnn_notcell", lambda: L.RNN(L.Dense(3)))
err("rnn_rank", lambda: L.RNN(L.SimpleRNNCell(3))(cx))

# ---------------- preprocessing ----------------
keras.backend.clear_session()
data = rng.standard_normal((20, 3)).astype(np.float32) * [1, 2, 3] + [0, 1, -1]
put("norm_data", data)
norm = L.Normalization()
norm.adapt(data)
put("norm_mean", norm.mean)
put("norm_var", norm.variance)
put("norm_out", norm(data[:4]))
put("norm_paths", [[w.path, list(w.shape)] for w in norm.weights])
cfg("norm", norm)
put("norm_fixed", L.Normalization(mean=[1.0, 2.0, 3.0], variance=[4.0, 1.0, 0.25])(data[:4]))
put("norm_invert", L.Normalization(mean=[1.0, 2.0, 3.0], variance=[4.0, 1.0, 0.25], invert=True)(data[:4]))
cfg("norm_fixed", L.Normalization(mean=[1.0, 2.0, 3.0], variance=[4.0, 1.0, 0.25]))
normall = L.Normalization(axis=None)
normall.adapt(data)
put("normall_out", normall(data[:4]))
import tensorflow as tf  # noqa: E402
normds = L.Normalization()
normds.adapt(tf.data.Dataset.from_tensor_slices(data).batch(7))
put("normds_mean", normds.mean)
err("norm_notadapted", lambda: L.Normalization()(data))
err("norm_meanonly", lambda: L.Normalization(mean=1.0))
img = rand("img", 2, 6, 8, 3)
for key, layer in [("rs_bil", L.Resizing(4, 5)), ("rs_near", L.Resizing(4, 5, interpolation="nearest")),
                   ("rs_crop", L.Resizing(4, 4, crop_to_aspect_ratio=True)), ("rs_up", L.Resizing(9, 11)),
                   ("crop", L.CenterCrop(4, 5)), ("crop_big", L.CenterCrop(8, 9))]:
    put(key, layer(img))
    cfg(key, layer)
put("crop_single", L.CenterCrop(3, 3)(img[0]))
put("rs_single", L.Resizing(3, 3)(img[0]))
ids = np.array([[0, 1, 1], [3, 2, 0]])
put("ce_multi", L.CategoryEncoding(4)(ids))
put("ce_count", L.CategoryEncoding(4, output_mode="count")(ids))
put("ce_one", L.CategoryEncoding(4, output_mode="one_hot")(np.array([0, 3, 1])))
put("ce_one2", L.CategoryEncoding(4, output_mode="one_hot")(np.array([[0], [3]])))
cfg("ce", L.CategoryEncoding(4, output_mode="count"))
err("ce_range", lambda: L.CategoryEncoding(4)(np.array([[0, 5]])))
dvals = np.array([[-1.5, 0.0, 0.2], [1.0, 3.0, 0.5]], np.float32)
put("disc", L.Discretization(bin_boundaries=[0.0, 0.5, 1.0])(dvals))
cfg("disc", L.Discretization(bin_boundaries=[0.0, 0.5, 1.0]))
d2 = L.Discretization(num_bins=4)
d2.adapt(data[:, 0])
put("disc_adapt_bounds", d2.bin_boundaries)
put("hash", L.Hashing(num_bins=5)(np.array([["a", "b"], ["cat", "dog"]])))
put("hash_int", L.Hashing(num_bins=7)(np.array([[1, 2, 30]])))
cfg("hash", L.Hashing(num_bins=5))
for key, layer in [("rflip", L.RandomFlip()), ("rrot", L.RandomRotation(0.2)), ("rzoom", L.RandomZoom(0.2)),
                   ("rtrans", L.RandomTranslation(0.1, 0.2)), ("rcon", L.RandomContrast(0.3)),
                   ("rbri", L.RandomBrightness(0.2))]:
    cfg(key, layer)
    put(key + "_infer_equal", bool(np.allclose(np.asarray(layer(img, training=False)), img)))

# ---------------- shape layers ----------------
s3, s5 = rand("s3", 2, 5, 3), rand("s5", 2, 4, 5, 6, 2)
for key, layer, x in [("zp1", L.ZeroPadding1D((1, 2)), s3), ("zp3", L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))), s5),
                      ("cr1", L.Cropping1D((1, 2)), s3), ("cr3", L.Cropping3D(((1, 0), (0, 2), (1, 1))), s5),
                      ("up1", L.UpSampling1D(3), s3), ("up3", L.UpSampling3D((2, 1, 2)), s5),
                      ("up2b", L.UpSampling2D((2, 3), interpolation="bilinear"), img),
                      ("gap3", L.GlobalAveragePooling3D(), s5), ("gmp3", L.GlobalMaxPooling3D(keepdims=True), s5),
                      ("mp3", L.MaxPooling3D((2, 2, 2)), s5), ("ap3", L.AveragePooling3D((2, 2, 3), strides=1), s5)]:
    put(key, layer(x))
    cfg(key, layer)
for key, layer, x in [("c3", L.Conv3D(3, (2, 3, 2), padding="same", strides=(2, 1, 1)), s5),
                      ("c3v", L.Conv3D(2, 2, dilation_rate=(1, 2, 1)), s5),
                      ("c1t", L.Conv1DTranspose(4, 3, strides=2), s3),
                      ("c1ts", L.Conv1DTranspose(4, 3, strides=2, padding="same"), s3)]:
    layer.build(x.shape)
    weights(key, layer)
    put(key, layer(x))
    cfg(key, layer)
err("cr1_big", lambda: L.Cropping1D((3, 2))(s3))
err("zp1_rank", lambda: L.ZeroPadding1D(1)(img))
fa, fb = rand("fa", 2, 3), rand("fb", 2, 3)
for fn in ["add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate"]:
    put("fn_" + fn, getattr(L, fn)([fa, fb]))
put("fn_dot", L.dot([fa, fb], axes=1))

# ---------------- masks arriving as Keras masks (Embedding(mask_zero=True)) ----------------
keras.backend.clear_session()
ids_q = np.array([[3, 5, 0, 0], [7, 1, 2, 0]])
ids_v = np.array([[4, 4, 9, 0, 0, 0], [1, 2, 3, 4, 5, 0]])
put("ids_q", ids_q)
put("ids_v", ids_v)
emb = L.Embedding(10, 5, mask_zero=True)
emb.build((None,))
emb.set_weights([rng.standard_normal((10, 5)).astype(np.float32)])
put("emb_w", emb.get_weights()[0])
eq, ev = emb(ids_q), emb(ids_v)
mha_m = L.MultiHeadAttention(2, 3)
mha_m.build(eq.shape, ev.shape)
weights("mha_m", mha_m)
om = mha_m(eq, ev)
put("mha_m_out", om)
put("mha_m_outmask", np.asarray(om._keras_mask).astype(np.float32))
put("mha_m_strips_input_masks", getattr(eq, "_keras_mask", None) is None)
put("att_m_out_after_mha", L.Attention()([eq, ev]))
eq, ev = emb(ids_q), emb(ids_v)
am = L.Attention()([eq, ev])
put("att_m_out", am)
put("att_m_outmask", np.asarray(am._keras_mask).astype(np.float32))

# ---------------- deterministic affine augmentations (a factor range of one value) ----------------
small = rand("small_img", 2, 5, 6, 2)
for mode in ["reflect", "wrap", "constant", "nearest"]:
    for interp in ["bilinear", "nearest"]:
        put(f"rtrans_{mode}_{interp}", L.RandomTranslation((0.25, 0.25), (-0.3, -0.3), fill_mode=mode,
                                                            interpolation=interp, fill_value=0.5)(small, training=True))
        put(f"rzoom_{mode}_{interp}", L.RandomZoom((-0.4, -0.4), (0.3, 0.3), fill_mode=mode, interpolation=interp,
                                                   fill_value=0.5)(small, training=True))
for mode in ["reflect", "constant"]:
    for interp in ["bilinear", "nearest"]:
        put(f"rrot_{mode}_{interp}", L.RandomRotation((0.1, 0.1), fill_mode=mode, interpolation=interp,
                                                      fill_value=0.5)(small, training=True))
put("rrot_single", L.RandomRotation((-0.3, -0.3))(small[0], training=True))
put("rzoom_same", L.RandomZoom((0.5, 0.5))(small, training=True))
err("rtrans_bad", lambda: L.RandomTranslation(1.5, 0.1))
err("rzoom_bad", lambda: L.RandomZoom((0.5, -0.2)))
err("rtrans_mode", lambda: L.RandomTranslation(0.1, 0.1, fill_mode="x"))

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras3_layers2_oracle.json"), "w") as f:
    json.dump(OUT, f, separators=(",", ":"), default=str)
print("wrote", len(OUT), "keys")
