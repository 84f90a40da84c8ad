"""keras.callbacks.TensorBoard writes what TensorFlow 2.21's Keras 3 writes (the tags, their order,
steps and directories below were read from TF 2.21's files for the same fit), with the values of
this fit's history. Read back with tests/summary/wire.py."""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.graph import listeners
from tests.summary.wire import events, fields

# TF 2.21 + Keras 3.15, Sequential(Dense(3, relu), Dense(1, sigmoid)), SGD(0.1), binary_crossentropy,
# metrics=["accuracy"], 32 samples, batch 16 (2 steps an epoch), 2 epochs, validation_data, histogram_freq=1.
WEIGHTS = ["sequential/dense/kernel", "sequential/dense/bias", "sequential/dense_1/kernel", "sequential/dense_1/bias"]
TRAIN_TAGS = ["epoch_accuracy", "epoch_loss", "epoch_learning_rate"] + [f"{w}/histogram" for w in WEIGHTS]
VALIDATION = [(2, "evaluation_accuracy_vs_iterations"), (2, "evaluation_loss_vs_iterations"), (0, "epoch_accuracy"),
              (0, "epoch_loss"), (4, "evaluation_accuracy_vs_iterations"), (4, "evaluation_loss_vs_iterations"),
              (1, "epoch_accuracy"), (1, "epoch_loss")]


def _fit(log_dir, **kwargs):
    tf.keras.backend.clear_session()  # layer names as in a fresh process: dense, dense_1
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 4)).astype("float32")
    y = (x.sum(1, keepdims=True) > 0).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="relu"),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="binary_crossentropy", metrics=["accuracy"])
    callback = tf.keras.callbacks.TensorBoard(log_dir=str(log_dir), **kwargs)
    history = model.fit(x, y, epochs=2, batch_size=16, validation_data=(x, y), callbacks=[callback], verbose=0)
    return model, history.history, callback


def _summaries(path):
    return [(step, p[0], p[1]) for _, step, kind, p in events(str(path)) if kind == "summary"]


def test_epoch_scalars_histograms_and_validation_as_keras_lays_them_out(tmp_path):
    model, history, _ = _fit(tmp_path, histogram_freq=1)
    train = _summaries(tmp_path / "train")
    assert [(s, tag) for s, tag, _ in train] == [(e, t) for e in (0, 1) for t in TRAIN_TAGS]
    for epoch in (0, 1):
        got = {tag: a for s, tag, a in train if s == epoch}
        assert float(got["epoch_loss"]) == pytest.approx(history["loss"][epoch], rel=1e-6)
        assert float(got["epoch_accuracy"]) == pytest.approx(history["accuracy"][epoch], rel=1e-6)
        assert float(got["epoch_learning_rate"]) == np.float32(0.1)
    last = {tag: a for s, tag, a in train if s == 1}
    for weight in model.weights:
        hist = last[weight.path + "/histogram"]
        values = weight.numpy().reshape(-1).astype(np.float64)  # TensorBoard buckets in float64
        counts, edges = np.histogram(values, bins=30, range=(values.min(), values.max()))
        if values.min() < values.max():
            np.testing.assert_array_equal(hist[:, 2], counts)
            np.testing.assert_allclose(hist[:, 0], edges[:-1], rtol=1e-12, atol=1e-15)
        else:  # a bias still all equal: every count in the last bucket
            assert hist[-1, 2] == values.size and hist[:-1, 2].sum() == 0
    validation = _summaries(tmp_path / "validation")
    assert [(s, tag) for s, tag, _ in validation] == VALIDATION
    for step, tag, value in validation:
        epoch = {2: 0, 4: 1}.get(step, step)
        assert float(value) == pytest.approx(history["val_" + tag.split("_")[1]][epoch], rel=1e-6)


def test_the_train_steps_graph_is_written_once(tmp_path):
    _fit(tmp_path)
    graphs = [p for _, step, kind, p in events(str(tmp_path / "train")) if kind == "graph"]
    assert len(graphs) == 1
    ops = {fields(raw)[2][0].decode() for raw in fields(graphs[0])[1]}
    assert {"MatMul", "Relu", "Sigmoid"} <= ops
    assert not any(kind == "summary" and "histogram" in p[0] for _, _, kind, p in events(str(tmp_path / "train")))


def test_the_callback_stops_listening_and_is_not_kept_alive(tmp_path):
    before = list(listeners._listeners)
    _, _, callback = _fit(tmp_path, write_graph=True)
    assert listeners._listeners == before
    ref = weakref.ref(callback)
    del callback
    gc.collect()
    assert ref() is None


def test_unsupported_options_say_so():
    with pytest.raises(NotImplementedError, match="only update_freq='epoch'"):
        tf.keras.callbacks.TensorBoard(update_freq=10)
