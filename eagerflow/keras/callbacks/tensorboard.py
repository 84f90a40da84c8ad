"""`keras.callbacks.TensorBoard`: epoch losses, metrics, learning rate, weight histograms and the
train step's graph, written with tf.summary as TensorFlow 2.21's Keras 3 lays them out:

    log_dir/train/       epoch_<metric> and epoch_learning_rate at step = epoch,
                         <weight path>/histogram every `histogram_freq` epochs, the train step's graph
    log_dir/validation/  evaluation_<metric>_vs_iterations at step = optimizer iterations,
                         epoch_<metric> at step = epoch

The graph is the GraphDef of the compiled train step traced during this fit (heard through
graph/listeners.py); Keras 3 instead writes the model's JSON config, which eagerflow's Keras does
not have. Batch-level logging (`update_freq` as an int), profiling and embeddings are not supported.
"""
from __future__ import annotations

import os
import weakref

from ... import summary
from ..._src.graph import listeners
from .callback import Callback


class TensorBoard(Callback):
    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0, embeddings_freq=0,
                 embeddings_metadata=None):
        super().__init__()
        if update_freq != "epoch" or profile_batch or embeddings_freq:
            raise NotImplementedError("keras.callbacks.TensorBoard: only update_freq='epoch' is supported (no "
                                      "batch-level logging, profiling or embeddings yet)")
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self._writers = {}
        self._graph = None
        self._listener = None

    def _writer(self, kind):
        if kind not in self._writers:
            self._writers[kind] = summary.create_file_writer(os.path.join(self.log_dir, kind))
        return self._writers[kind]

    def on_train_begin(self, logs=None):
        self._writer("train")
        if self.write_graph and self._graph is None:
            me = weakref.ref(self)  # the listener must not keep the callback alive

            def heard(graph, name):
                cb = me()
                if cb is not None and cb._graph is None and name == "train_step":
                    cb._graph = graph

            self._listener = heard
            listeners.add(heard)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        with self._writer("train").as_default(step=epoch):
            for name, value in train.items():
                summary.scalar(f"epoch_{name}", value)
            optimizer = getattr(self.model, "optimizer", None)
            if optimizer is not None and hasattr(optimizer, "learning_rate"):
                summary.scalar("epoch_learning_rate", optimizer.learning_rate)
            if self.histogram_freq and epoch % self.histogram_freq == 0:
                for weight in self.model.weights:
                    summary.histogram(weight.path.replace(":", "_") + "/histogram", weight)
            if self._graph is not None and self._listener is not None:
                summary.graph(self._graph)
                self._stop_listening()
        validation = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        if validation:
            iterations = int(self.model.optimizer.iterations.numpy())
            with self._writer("validation").as_default():
                for name, value in validation.items():
                    summary.scalar(f"evaluation_{name}_vs_iterations", value, step=iterations)
                for name, value in validation.items():
                    summary.scalar(f"epoch_{name}", value, step=epoch)

    def _stop_listening(self):
        if self._listener is not None:
            listeners.remove(self._listener)
            self._listener = None

    def on_train_end(self, logs=None):
        self._stop_listening()
        for writer in self._writers.values():
            writer.close()
        self._writers = {}
