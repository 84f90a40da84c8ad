"""fit/evaluate logs under MultiWorkerMirroredStrategy against one process on the global batches:
`mpiexec -n N python exact_logs.py OUT`. Each worker also trains a copy of the model outside the
strategy on the whole data (the one-process reference, same initial weights) and writes both
runs' epoch logs, per-batch logs and evaluation to OUT/logs<rank>.json (test output).

Two cases: global batches that split evenly (32 over 2 workers) with a learning rate, where the
weights follow the one-process run; and batches that split unevenly (33: 17 and 16) with learning
rate 0, where Keras' per-replica loss scaling makes the gradient differ from the global batch's,
so only the logs are compared (the metric states summed over the workers must give them exactly).
AUC and Precision are not means of per-worker values, so averaging the workers' results fails."""
import json
import sys

import numpy as np

import eagerflow as tf
from eagerflow import keras

out = sys.argv[1]
strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id or 0
data_rng = np.random.default_rng(11)
x = data_rng.normal(size=(128, 8)).astype(np.float32)
y = (x[:, :1] + 0.7 * data_rng.normal(size=(128, 1)) > 0).astype(np.float32)


class BatchLogs(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def on_train_batch_end(self, batch, logs=None):
        self.seen.append(dict(logs))


def build(learning_rate):
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(6, activation="tanh"),
                              keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate), loss="binary_crossentropy",
                  metrics=["accuracy", keras.metrics.AUC(name="auc"), keras.metrics.Precision(name="precision")])
    return model


def run(model, batch):
    batch_logs = BatchLogs()
    history = model.fit(x, y, batch_size=batch, epochs=2, shuffle=False, verbose=0, callbacks=[batch_logs])
    evaluation = model.evaluate(x, y, batch_size=batch, verbose=0, return_dict=True)
    return {"history": history.history, "batches": batch_logs.seen, "evaluation": evaluation,
            "weights": [w.tolist() for w in model.get_weights()]}


results = {}
for case, batch, learning_rate in (("even", 32, 0.5), ("uneven", 33, 0.0)):
    keras.utils.set_random_seed(3 + rank)  # different on each worker: the chief's initial values win
    with strategy.scope():
        distributed = build(learning_rate)
    reference = build(learning_rate)  # outside the strategy: one process, the global batches
    reference.set_weights(distributed.get_weights())
    results[case] = {"distributed": run(distributed, batch), "one_process": run(reference, batch)}
with open(f"{out}/logs{rank}.json", "w") as f:
    json.dump(results, f)
