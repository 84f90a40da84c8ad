"""A training program for the multi-process tests: run as `mpiexec -n N python fit_models.py OUT MODEL ...`.

Every worker seeds its own initialisers differently (seed 100 + rank), so equal final weights show
that the chief's initial values were broadcast; the one-process run (seed 100) is the reference.
Each worker writes its weights and history to OUT/rank<r>.npz (test output, not a model file).
"""
import json
import sys

import numpy as np

import eagerflow as tf
from eagerflow import keras

out, model_kind, data_kind, global_batch, epochs, verbose = sys.argv[1:7]
model_kind, _, jit = model_kind.partition("-")  # "mlp-jit": compiled with jit_compile=True (XLA)
global_batch, epochs, verbose = int(global_batch), int(epochs), int(verbose)

strategy = tf.distribute.MultiWorkerMirroredStrategy(
    communication_options=tf.distribute.experimental.CommunicationOptions(bytes_per_pack=4096))
rank = strategy.cluster_resolver.task_id or 0
keras.utils.set_random_seed(100 + rank)
np.random.seed(100 + rank)  # fit's shuffling draws from NumPy's global generator

data_rng = np.random.default_rng(7)  # the same data on every worker
if model_kind == "mlp":  # the MNIST MLP on MNIST-shaped data
    x = data_rng.random((256, 784), dtype=np.float32)
    y = data_rng.integers(0, 10, 256)
else:  # a small CNN
    x = data_rng.random((128, 12, 12, 1), dtype=np.float32)
    y = data_rng.integers(0, 10, 128)


def build():
    if model_kind == "mlp":
        layers = [keras.Input((784,)), keras.layers.Dense(64, activation="relu"), keras.layers.Dense(10)]
    else:
        layers = [keras.Input((12, 12, 1)), keras.layers.Conv2D(4, 3, activation="relu"), keras.layers.MaxPooling2D(),
                  keras.layers.Flatten(), keras.layers.Dense(10)]
    model = keras.Sequential(layers)
    model.compile(optimizer=keras.optimizers.SGD(0.05, momentum=0.9),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"],
                  jit_compile=jit == "jit")
    return model


with strategy.scope():
    model = build()

if data_kind == "arrays":
    history = model.fit(x, y, batch_size=global_batch, epochs=epochs, shuffle=True, verbose=verbose)
else:  # a tf.data pipeline of global batches, sharded by DATA
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    history = model.fit(dataset.with_options(options), epochs=epochs, verbose=verbose)
if jit and strategy.extended._num_workers > 1:  # the step's two XLA-compiled halves were each traced once
    halves = model._step_functions["train"].compiled_halves
    assert [f.experimental_get_tracing_count() for f in halves] == [1, 1], halves
evaluation = model.evaluate(x, y, batch_size=global_batch, verbose=0)
prediction = model.predict(x[:global_batch], batch_size=global_batch, verbose=0)
np.savez(f"{out}/rank{rank}.npz", *model.get_weights(), history=json.dumps(history.history),
         evaluation=np.asarray(evaluation), prediction=prediction)
