"""TensorFlow's custom-training-loop guide under MultiWorkerMirroredStrategy, for the multi-process tests:
`mpiexec -n N python custom_loop.py OUT`. Writes each worker's final weights to OUT/rank<r>.npz."""
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

with strategy.scope():
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(3)])
    optimizer = keras.optimizers.SGD(0.1)
    loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH))


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        per_example_loss = loss_object(labels, model(features, training=True))
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(inputs):
    per_replica_losses = strategy.run(train_step, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


losses = []
for epoch in range(2):
    for batch in dataset:
        losses.append(float(distributed_train_step(batch)))
np.savez(f"{out}/rank{rank}.npz", *model.get_weights(), losses=np.asarray(losses))
