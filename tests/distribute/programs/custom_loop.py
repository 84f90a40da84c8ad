"""TensorFlow's custom-training-loop guide under MultiWorkerMirroredStrategy, for the multi-process tests:
`mpiexec -n N python custom_loop.py OUT`. Writes each worker's final weights to OUT/rank<r>.npz, with
the guide's metrics as each worker read them after every epoch (`result()` outside the replicas: the
whole job's) and each worker's own part of their state (`experimental_local_results`)."""
import sys

import numpy as np

import eagerflow as tf
from eagerflow import keras

out = sys.argv[1]
GLOBAL_BATCH = 16
strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id or 0
keras.utils.set_random_seed(3 + rank)  # the chief's initial weights are broadcast

data_rng = np.random.default_rng(1)
x = data_rng.normal(size=(64, 5)).astype(np.float32)
y = data_rng.integers(0, 3, 64)
test_x = data_rng.normal(size=(40, 5)).astype(np.float32)  # 16 + 16 + 8: the last batch splits 4 + 4
test_y = data_rng.integers(0, 3, 40)

with strategy.scope():
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(3)])
    optimizer = keras.optimizers.SGD(0.1)
    loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    train_accuracy = keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
    test_loss = keras.metrics.Mean(name="test_loss")
    test_accuracy = keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")

dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH))
test_dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((test_x, test_y)).batch(GLOBAL_BATCH))


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(features, training=True)
        per_example_loss = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_accuracy.update_state(labels, predictions)
    return loss


def test_step(inputs):
    features, labels = inputs
    predictions = model(features, training=False)
    test_loss.update_state(loss_object(labels, predictions))
    test_accuracy.update_state(labels, predictions)


@tf.function
def distributed_train_step(inputs):
    per_replica_losses = strategy.run(train_step, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


@tf.function
def distributed_test_step(inputs):
    strategy.run(test_step, args=(inputs,))


@tf.function
def traced_test_accuracy():  # read in a traced function's cross-replica context: the all-reduce is in its graph
    return test_accuracy.result()


def own_part(metric):
    return [float(np.sum([np.asarray(c) for c in strategy.experimental_local_results(v)])) for v in metric.variables]


losses, results, parts = [], [], []
for epoch in range(2):
    for batch in dataset:
        losses.append(float(distributed_train_step(batch)))
    for batch in test_dataset:
        distributed_test_step(batch)
    parts.append(own_part(train_accuracy) + own_part(test_loss) + own_part(test_accuracy))
    results.append([float(train_accuracy.result()), float(test_loss.result()), float(test_accuracy.result()),
                    float(traced_test_accuracy())] + [float(v.numpy()) for v in test_loss.variables])
    for metric in (train_accuracy, test_loss, test_accuracy):
        metric.reset_state()
np.savez(f"{out}/rank{rank}.npz", *model.get_weights(), losses=np.asarray(losses), results=np.asarray(results),
         parts=np.asarray(parts))
