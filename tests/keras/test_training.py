"""compile / fit / evaluate / predict, callbacks and the progress line (texts from TF 2.21's Keras)."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow._src.trace.function import Function


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _blobs(n=240, seed=0):
    """Three Gaussian blobs in 4-D: a small classification problem a 1-hidden-layer MLP learns fast."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    centers = np.array([[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0]], np.float32)
    x = centers[y] + rng.normal(scale=0.7, size=(n, 4)).astype(np.float32)
    return x.astype(np.float32), y


def _mlp(seed=0):
    keras.utils.set_random_seed(seed)
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(3)])
    m.compile(optimizer=keras.optimizers.Adam(0.01),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    return m


def test_fit_lowers_loss_raises_accuracy_and_records_keras_history_keys():
    x, y = _blobs()
    m = _mlp()
    h = m.fit(x, y, batch_size=32, epochs=6, validation_split=0.25, verbose=0)
    assert list(h.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    assert h.params == {"verbose": 0, "epochs": 6, "steps": 6} and h.epoch == list(range(6))
    assert h.history["loss"][-1] < 0.6 * h.history["loss"][0]
    assert h.history["accuracy"][-1] > h.history["accuracy"][0] and h.history["accuracy"][-1] > 0.85
    assert all(isinstance(v, float) for v in h.history["loss"])
    assert isinstance(m._step_functions["train"], Function)  # fit compiled its step with tf.function
    assert m._step_functions["train"].experimental_get_tracing_count() <= 2


def test_validation_split_uses_the_last_samples_unshuffled():
    x, y = _blobs(100)
    m = _mlp()
    h = m.fit(x, y, epochs=1, validation_split=0.2, verbose=0, shuffle=False)
    ev = m.evaluate(x[80:], y[80:], verbose=0, return_dict=True)
    assert h.history["val_loss"][0] == pytest.approx(ev["loss"], rel=1e-6)
    assert h.history["val_accuracy"][0] == pytest.approx(ev["accuracy"], rel=1e-6)


def test_evaluate_and_predict_results():
    x, y = _blobs(50)
    m = _mlp()
    loss, acc = m.evaluate(x, y, verbose=0)  # [loss, accuracy], as Keras returns
    logits = m(x).numpy()
    logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    assert loss == pytest.approx(-logp[np.arange(50), y].mean(), rel=1e-5)
    assert acc == pytest.approx((logits.argmax(-1) == y).mean(), rel=1e-6)
    assert m.evaluate(x, y, verbose=0, return_dict=True) == {"accuracy": acc, "loss": loss}
    p = m.predict(x, batch_size=7, verbose=0)
    assert isinstance(p, np.ndarray) and p.shape == (50, 3) and p.dtype == np.float32
    np.testing.assert_allclose(p, logits, rtol=1e-5, atol=1e-6)
    mse_model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    mse_model.compile("sgd", "mse")
    assert isinstance(mse_model.evaluate(x, np.zeros((50, 2)), verbose=0), float)  # loss only: a scalar
    assert m.metrics_names == ["loss", "compile_metrics"]


def test_fit_on_datasets_with_and_without_sample_weights():
    x, y = _blobs(96)
    m = _mlp()
    h = m.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(32), epochs=2, verbose=0)
    assert h.params["steps"] == 3 and len(h.history["loss"]) == 2
    sw = np.zeros(96, np.float32)
    sw[:48] = 1.0
    before = [w.copy() for w in m.get_weights()]
    m2 = _mlp()
    m2.set_weights(before)
    m2.fit(tf.data.Dataset.from_tensor_slices((x, y, sw)).batch(32), epochs=1, verbose=0)
    assert any(not np.allclose(a, b) for a, b in zip(before, m2.get_weights()))
    loss_w = m2.evaluate(x, y, sample_weight=sw, verbose=0)[0]
    loss_half = m2.evaluate(x[:48], y[:48], verbose=0)[0]
    assert loss_w == pytest.approx(loss_half / 2, rel=1e-5)  # sum_over_batch_size: zero weights still count


def test_errors_match_keras():
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    with pytest.raises(ValueError, match=re.escape("You must call `compile()` before using the model.")):
        m.fit(np.ones((10, 4)), np.ones((10, 2)), verbose=0)
    m.compile("sgd", "mse")
    with pytest.raises(ValueError, match=re.escape("Data cardinality is ambiguous. Make sure all arrays contain the "
                                                   "same number of samples.'x' sizes: 10\n'y' sizes: 9\n")):
        m.fit(np.ones((10, 4)), np.ones((9, 2)), verbose=0)
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        keras.callbacks.ModelCheckpoint("w.npz", save_weights_only=True)


def test_verbose_0_is_silent_and_verbose_2_prints_one_line_per_epoch(capsys):
    x, y = _blobs(100)
    m = _mlp()
    m.fit(x, y, epochs=2, verbose=0)
    m.evaluate(x, y, verbose=0)
    m.predict(x, verbose=0)
    assert capsys.readouterr().out == ""
    m.fit(x, y, batch_size=32, epochs=2, validation_data=(x, y), verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    pattern = r"4/4 - \d+s - \d+(us|ms|s)/step - accuracy: \d\.\d{4} - loss: \d\.\d{4} - val_accuracy: \d\.\d{4} - " \
              r"val_loss: \d\.\d{4}"
    assert re.fullmatch(pattern, lines[1]) and re.fullmatch(pattern, lines[3])
    m.fit(x, y, epochs=1, verbose=2)
    assert capsys.readouterr().out.splitlines()[0].startswith("4/4 - ")  # no "Epoch 1/1" header, as in Keras


def test_verbose_1_progress_line(capsys):
    x, y = _blobs(100)
    m = _mlp()
    m.fit(x, y, batch_size=32, epochs=1, validation_split=0.2, verbose=1)
    out = capsys.readouterr().out
    steps = out.split("\r")[1:]
    assert steps[0].startswith("1/3 ") and steps[-1].startswith("3/3 ") and out.count("\n") == 1
    final = steps[-1].rstrip("\n").rstrip()
    assert re.fullmatch(r"3/3 ━{20} \d+s \d+(us|ms|s)/step - accuracy: \d\.\d{4} - loss: \d\.\d{4} - "
                        r"val_accuracy: \d\.\d{4} - val_loss: \d\.\d{4}", final), final


def test_callbacks_early_stopping_lambda_history():
    x = np.random.default_rng(0).random((40, 4)).astype(np.float32)
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    m.compile("sgd", "mse")
    es = keras.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=10)
    seen = []
    lam = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, sorted(logs))))
    h = m.fit(x, np.zeros((40, 2)), epochs=5, verbose=0, callbacks=[es, lam])
    assert h.epoch == [0, 1] and es.stopped_epoch == 1  # TF 2.21: epochs [0, 1], stopped_epoch 1
    assert seen == [(0, ["loss"]), (1, ["loss"])]
    assert m.history is h


def test_model_checkpoint_and_weights_roundtrip(tmp_path):
    x, y = _blobs(64)
    m = _mlp()
    path = str(tmp_path / "ckpt-{epoch:02d}.weights.h5")
    m.fit(x, y, epochs=2, verbose=0, callbacks=[keras.callbacks.ModelCheckpoint(path, save_weights_only=True,
                                                                                monitor="loss")])
    saved = tmp_path / "ckpt-02.weights.h5"
    assert (tmp_path / "ckpt-01.weights.h5").exists() and saved.exists()
    h5py = pytest.importorskip("h5py")
    with h5py.File(saved, "r") as f:  # Keras 3's HDF5 weights layout: the two Dense layers' kernel and bias
        assert [len(f[f"layers/{k}/vars"]) for k in ("dense", "dense_1")] == [2, 2]
    fresh = _mlp(seed=5)
    fresh.load_weights(str(saved))
    np.testing.assert_allclose(fresh.predict(x, verbose=0), m.predict(x, verbose=0), rtol=1e-6)
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        m.save_weights(str(tmp_path / "w.pkl"))


def test_custom_train_step_override_is_used_by_fit():
    class Custom(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1)
            self.calls = keras.metrics.Mean(name="calls")

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"my_loss": loss}

    m = Custom()
    m.compile("sgd")
    h = m.fit(np.ones((8, 2), np.float32), np.ones((8, 1), np.float32), batch_size=4, epochs=3, verbose=0)
    assert list(h.history) == ["my_loss"] and h.history["my_loss"][-1] < h.history["my_loss"][0]


def test_early_stopping_restores_best_weights_and_checkpoint_keeps_the_best(tmp_path):
    x, y = _blobs(64)
    m = _mlp()
    m.compile(keras.optimizers.SGD(5.0), keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # diverges
    snapshots = []
    record = keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: snapshots.append(
        (logs["loss"], [w.copy() for w in m.get_weights()])))
    es = keras.callbacks.EarlyStopping(monitor="loss", patience=1, restore_best_weights=True)
    best_path = str(tmp_path / "best.weights.h5")
    ck = keras.callbacks.ModelCheckpoint(best_path, monitor="loss", save_best_only=True, save_weights_only=True)
    h = m.fit(x, y, epochs=30, verbose=0, callbacks=[record, es, ck])
    losses = h.history["loss"]
    best = int(np.argmin(losses))
    assert es.stopped_epoch > 0  # the step is far too large: the loss stops improving
    for got, want in zip(m.get_weights(), snapshots[best][1]):  # restored: the weights at the best epoch's end
        np.testing.assert_array_equal(got, want)
    assert len(losses) == best + 2  # patience 1: one epoch without improvement
    fresh = _mlp(seed=3)
    fresh.load_weights(best_path)
    for got, want in zip(fresh.get_weights(), snapshots[best][1]):
        np.testing.assert_array_equal(got, want)


def test_progress_line_redraws_are_throttled():
    import io
    from eagerflow.keras.progbar import Progbar
    out = io.StringIO()
    bar = Progbar(1000, verbose=1, stream=out)
    for step in range(1, 1001):
        bar.update(step, [("loss", 0.5)])
    bar.update(1000, [("loss", 0.5)], finalize=True)
    text = out.getvalue()
    assert text.count("\r") < 50 and text.startswith("\r1/1000 ") and "\r1000/1000 " in text
    assert text.endswith(" - loss: 0.5000\n")


def test_progress_line_without_a_known_step_count():
    import io
    from eagerflow.keras.progbar import Progbar
    out = io.StringIO()
    Progbar(None, verbose=1, stream=out).update(3, [("loss", 0.25)], finalize=True)
    assert re.fullmatch(r"\r3/Unknown \d+s \d+(us|ms|s)/step - loss: 0\.2500\n", out.getvalue())


def test_tensor_control_flow_in_a_subclassed_call_works_under_fit_and_predict():
    class Branchy(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(2)

        def call(self, x, training=None):
            y = self.d(x)
            if tf.reduce_sum(y) > 0:  # a tensor condition: AutoGraph makes it a cond when traced
                y = y * 2.0
            else:
                y = y - 1.0
            for _ in tf.range(2):
                y = y + 0.5
            return y

    m = Branchy()
    m.compile("sgd", "mse")
    h = m.fit(np.ones((8, 3), np.float32), np.zeros((8, 2), np.float32), epochs=2, verbose=0)
    assert len(h.history["loss"]) == 2
    for sign in (1.0, -1.0):
        x = sign * np.abs(np.random.default_rng(0).normal(size=(4, 3))).astype(np.float32)
        m.d.set_weights([np.full((3, 2), 0.5, np.float32), np.zeros(2, np.float32)])
        np.testing.assert_allclose(m.predict(x, verbose=0), m(x).numpy(), rtol=1e-6)


def test_fit_hands_batches_over_the_arrays_without_copying_and_leaves_them_unchanged():
    """A batch is an eager tensor over a slice of fit's float32 array, not an ndarray that the
    tf.function call would copy at every step; training never writes into the caller's arrays, and
    the result is the same as from a private copy."""
    from eagerflow._src.core.tensor import EagerTensor
    from eagerflow.keras.models.data import ArrayBatches
    x, y = _blobs(64)
    w = np.linspace(0.5, 1.5, 64).astype(np.float32)
    for batches in (ArrayBatches(x, y, batch_size=16), ArrayBatches({"a": x}, y, w, batch_size=16)):
        for batch in batches:
            flat = tf.nest.flatten(batch)
            assert all(type(t) is EagerTensor for t in flat)
            assert np.shares_memory(np.asarray(flat[0]), x) and np.shares_memory(np.asarray(flat[1]), y)
    assert [b[1].dtype for b in ArrayBatches(x, y, batch_size=16)] == [tf.int64] * 4
    before = x.copy()
    for shuffle in (False, True):
        weights = []
        for data in (x, x.copy()):
            model = _mlp(5)
            np.random.seed(7)  # the epoch's permutation
            model.fit(data, y, batch_size=16, epochs=2, verbose=0, shuffle=shuffle)
            weights.append(model.get_weights())
        for a, b in zip(*weights):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(x, before)
