"""ModelCheckpoint, TensorBoard and BackupAndRestore under MultiWorkerMirroredStrategy, for the
multi-process tests: `mpiexec -n 2 python callbacks_run.py OUT full|interrupt|resume`.
`interrupt` fails at the start of epoch 3 (on every worker, after the chief backed up epoch 2);
`resume` runs the same fit again and continues from the backup. Each worker writes its final
weights and history to OUT/result<r>.npz (test output)."""
import json
import os
import sys

import numpy as np

import eagerflow as tf
from eagerflow import keras

out, phase = sys.argv[1], sys.argv[2]
strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id or 0
keras.utils.set_random_seed(5 + rank)
data_rng = np.random.default_rng(2)
x = data_rng.normal(size=(64, 6)).astype(np.float32)
y = data_rng.normal(size=(64, 1)).astype(np.float32)


class FailAtEpoch3(keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        if phase == "interrupt" and epoch == 2:
            raise RuntimeError("interrupted")


with strategy.scope():
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="tanh"), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
callbacks = [keras.callbacks.BackupAndRestore(os.path.join(out, "backup")),
             keras.callbacks.ModelCheckpoint(os.path.join(out, "ckpt", "w-{epoch}.weights.h5"), save_weights_only=True),
             keras.callbacks.TensorBoard(os.path.join(out, "logs")), FailAtEpoch3()]
history = model.fit(x, y, batch_size=16, epochs=4, shuffle=False, verbose=0, callbacks=callbacks)
np.savez(os.path.join(out, f"result{rank}.npz"), *model.get_weights(), history=json.dumps(history.history))
