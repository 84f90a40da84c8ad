"""The demo's main job: the classic TensorFlow 2 MNIST program, trained, timed, saved and reloaded.

The program is the one TensorFlow's beginner tutorials write: a subclassed `MyModel` (Flatten, Dense(128, relu),
Dense(10) logits), Adam, sparse categorical cross-entropy from logits, and a `train_step` under `tf.function`,
looping over batches of 32. It runs on MNIST when `mnist.npz` is in Keras' cache directory (`~/.keras/datasets`,
or `$KERAS_HOME/datasets`) and otherwise on the UCI 8x8 digits bundled with eagerflow, so it works offline on a
fresh install. Around the loop it shows the time of one step run eagerly against the same step as a
`tf.function`, the test accuracy, and a SavedModel round trip (save with a serving signature, load, compare).
"""
from __future__ import annotations

import os
import sys
import tempfile
import time

import numpy as np

BATCH_SIZE = 32  # the tutorial's
EPOCHS = {"MNIST": 2, "digits": 20}  # MNIST: the tutorial's 2 epochs; the digits need more passes over 1,438 images
TIMED_STEPS = 20


def load_training_data():
    """(name, (x_train, y_train), (x_test, y_test)): MNIST from Keras' cache when the file is there,
    else the bundled digits; pixels scaled to [0, 1] as the tutorial does (`x / 255.0`, digits `x / 16.0`)
    and kept float32, the dtype the model computes in."""
    from ..keras.datasets import digits, mnist

    try:
        (x_train, y_train), (x_test, y_test) = mnist.load_data()
        name, scale = "MNIST", 255.0
    except FileNotFoundError:
        (x_train, y_train), (x_test, y_test) = digits.load_data()
        name, scale = "digits", 16.0
    as_input = lambda x: (x / scale).astype(np.float32)  # noqa: E731
    return name, (as_input(x_train), y_train.astype(np.int64)), (as_input(x_test), y_test.astype(np.int64))


def _build_program():
    """The tutorial's model, loss, optimizer and train step, as it writes them."""
    import eagerflow as tf
    from eagerflow import keras

    class MyModel(keras.Model):
        def __init__(self):
            super().__init__()
            self.flatten = keras.layers.Flatten()
            self.d1 = keras.layers.Dense(128, activation='relu')
            self.d2 = keras.layers.Dense(10)  # logits

        def call(self, x):
            x = self.flatten(x)
            x = self.d1(x)
            return self.d2(x)

    model = MyModel()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam()

    @tf.function
    def train_step(x_batch, y_batch):
        with tf.GradientTape() as tape:
            logits = model(x_batch, training=True)
            loss = loss_fn(y_batch, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return model, train_step


def _time_steps(step, batches) -> float:
    """Median seconds per call of `step` over `batches` (each call is a real training step)."""
    times = []
    for x, y in batches:
        start = time.perf_counter()
        step(x, y)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def progress_epochs(epochs: int) -> set:
    """The epochs that get a line of their own: the first, about every quarter, and the last."""
    step = max(1, epochs // 4)
    return {1, epochs} | set(range(step, epochs + 1, step))


def _train(train_step, x_train, y_train, epochs) -> None:
    """Trains, showing a compact progress display: on a terminal one line that updates in place each epoch;
    elsewhere (a log, a pipe) a line for the first epoch, about every quarter, and the last."""
    on_terminal = getattr(sys.stdout, "isatty", lambda: False)()
    shown = progress_epochs(epochs)
    for epoch in range(1, epochs + 1):
        total_loss, batches = 0.0, 0
        for i in range(0, len(x_train), BATCH_SIZE):
            total_loss += float(train_step(x_train[i:i + BATCH_SIZE], y_train[i:i + BATCH_SIZE]))
            batches += 1
        line = f"epoch {epoch:{len(str(epochs))}d}/{epochs}  loss {total_loss / batches:.4f}"
        if on_terminal:
            print("\r" + line, end="\n" if epoch == epochs else "", flush=True)
        elif epoch in shown:
            print(line)


def _save_and_reload(model, x_test, export_dir) -> tuple[list, float, float]:
    """Saves `model` with a serving signature, loads it back and returns (the signature's output
    names, largest |logit difference|, fraction of equal predicted classes) on the test images."""
    import eagerflow as tf

    serve = tf.function(lambda images: model(images),
                        input_signature=[tf.TensorSpec([None, *x_test.shape[1:]], tf.float32, name="images")])
    tf.saved_model.save(model, export_dir, signatures={"serving_default": serve.get_concrete_function()})
    loaded = tf.saved_model.load(export_dir)
    outputs = loaded.signatures["serving_default"](images=tf.constant(x_test))
    reloaded = next(iter(outputs.values())).numpy()
    original = model(x_test).numpy()
    return (sorted(outputs), float(np.max(np.abs(reloaded - original))),
            float(np.mean(reloaded.argmax(axis=1) == original.argmax(axis=1))))


def run_training(epochs=None) -> None:
    name, (x_train, y_train), (x_test, y_test) = load_training_data()
    epochs = EPOCHS[name] if epochs is None else epochs
    from ..keras.datasets import mnist

    print(f"Data: {name}, {len(x_train)} training and {len(x_test)} test images of "
          f"{x_train.shape[1]}x{x_train.shape[2]} pixels"
          + ("" if name == "MNIST" else f" (MNIST not found in {mnist.cache_dir()}: using the UCI digits "
                                       "bundled with eagerflow)"))
    model, train_step = _build_program()

    batches = [(x_train[i:i + BATCH_SIZE], y_train[i:i + BATCH_SIZE])
               for i in range(0, TIMED_STEPS * BATCH_SIZE, BATCH_SIZE)]
    start = time.perf_counter()
    train_step(*batches[0])  # the first call traces the step
    trace_s = time.perf_counter() - start
    eager_s = _time_steps(train_step.python_function, batches)  # the same Python code, op by op
    graph_s = _time_steps(train_step, batches)
    print(f"One training step (batch {BATCH_SIZE}): eager {eager_s * 1e3:.2f} ms   tf.function "
          f"{graph_s * 1e3:.2f} ms   ({eager_s / graph_s:.1f}x faster; tracing took {trace_s * 1e3:.0f} ms once)")

    start = time.perf_counter()
    _train(train_step, x_train, y_train, epochs)
    print(f"Trained {epochs} epochs in {time.perf_counter() - start:.1f} s")

    accuracy = float(np.mean(model(x_test).numpy().argmax(axis=1) == y_test))
    print(f"Test accuracy: {accuracy:.4f} ({len(y_test)} {name} test images)")

    with tempfile.TemporaryDirectory(prefix="eagerflow-demo-") as tmp:
        export_dir = os.path.join(tmp, "my_model")
        output_names, max_diff, agree = _save_and_reload(model, x_test, export_dir)
    print(f"SavedModel: saved with a serving signature, reloaded with tf.saved_model.load "
          f"(serving_default(images) -> {output_names})")
    print(f"Reloaded vs trained model: predicted classes agree on {agree:.2%} of the test images, "
          f"largest logit difference {max_diff:.2e}")
