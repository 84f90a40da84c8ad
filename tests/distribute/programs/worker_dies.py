"""A worker that fails during training, for the fault tests:
`mpiexec -n 2 python worker_dies.py exit|hang|chief-hangs [OUT]`.
After its first epoch worker 1 exits (mpiexec then ends the job) or hangs (the collectives' 5 s timeout
ends the chief's wait: DeadlineExceededError, and the job is aborted); with chief-hangs the chief
hangs and worker 1 aborts the job. With OUT, a ModelCheckpoint writes into OUT/ckpt each epoch."""
import os
import sys
import time

import numpy as np

import eagerflow as tf
from eagerflow import keras

strategy = tf.distribute.MultiWorkerMirroredStrategy(
    communication_options=tf.distribute.experimental.CommunicationOptions(timeout_seconds=5))
rank = strategy.cluster_resolver.task_id or 0


class DieAfterFirstEpoch(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if rank == 1 and sys.argv[1] == "exit":
            os._exit(3)
        if rank == (0 if sys.argv[1] == "chief-hangs" else 1):
            time.sleep(600)


with strategy.scope():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
x, y = np.ones((64, 4), np.float32), np.ones((64, 2), np.float32)
callbacks = [DieAfterFirstEpoch()]
if len(sys.argv) > 2:
    callbacks.insert(0, keras.callbacks.ModelCheckpoint(os.path.join(sys.argv[2], "ckpt", "w.weights.h5"),
                                                        save_weights_only=True))
model.fit(x, y, batch_size=16, epochs=50, verbose=0, callbacks=callbacks)
print("finished training without the dead worker", flush=True)
