"""compile / fit / evaluate / predict (Keras 3's Trainer).

fit compiles `train_step` once per compile() with tf.function (reduce_retracing, as Keras does, so
a short last batch generalises the batch dimension instead of adding exact-shape traces). The
step returns the running metric results; they become Python floats only where someone reads them
(the progress line with verbose=1, per-batch callbacks, and once per epoch), so a silent fit does
no per-step conversions. Logs are sorted by name, as Keras prints and records them.
"""
from __future__ import annotations

import numpy as np

from ..._src.autodiff.tape import GradientTape
from ..._src.core import nest
from ..._src.core.convert import convert_to_tensor
from ..._src.distribute.keras_support import TrainingPlan, model_strategy, scale_loss_for_replicas
from ..._src.trace.function import function
from .. import callbacks as _callbacks
from .. import saving as _saving
from ..callbacks.worker_files import WorkerFiles
from ..layers.base import BUILD_LOCK
from ..progbar import Progbar
from . import jit_all_reduce_step
from .compiling import Compiling
from .data import (ArrayBatches, check_class_weight, class_weight_to_sample_weights, conform_inputs, is_dataset,
                   make_batches)


def unpack_data(data):
    """(x,), (x, y) or (x, y, sample_weight) -> (x, y, sample_weight), as Keras' unpack_x_y_sample_weight."""
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
                     f"found: {data}")


def _float_logs(logs):
    return {k: float(np.asarray(logs[k])) for k in sorted(logs)}


class Trainer(Compiling):
    def __init__(self):
        self.compiled = False
        self.optimizer = None
        self.loss = None
        self._compiled_loss = None
        self.stop_training = False
        self.history = None
        self._loss_tracker = None
        self._compiled_metrics = []
        self._weighted_metrics = []
        self._weighted_metric_names = []
        self._output_loss_trackers = []  # each output's `<name>_loss` Mean (several outputs)
        self._output_losses = self._output_metrics = None
        self._outputs_pending = False
        self._step_functions = {}
        self._initial_epoch = None  # the epoch a restored backup resumes at (BackupAndRestore)
        self._distribute_strategy = model_strategy()  # the tf.distribute strategy it was made under, if any

    # --- compile ---
    def train_step(self, data):
        x, y, sample_weight = unpack_data(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self._compute_loss(x, y, y_pred, sample_weight, training=True)
            scaled_loss = self.optimizer.scale_loss(scale_loss_for_replicas(loss))  # see optimizer.scale_loss
        variables = self.trainable_variables
        grads = tape.gradient(scaled_loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return self.compute_metrics(x, y, y_pred, sample_weight, loss)

    def test_step(self, data):
        x, y, sample_weight = unpack_data(data)
        y_pred = self(x, training=False)
        loss = self._compute_loss(x, y, y_pred, sample_weight, training=False)
        return self.compute_metrics(x, y, y_pred, sample_weight, loss)

    def predict_step(self, data):
        x, _, _ = unpack_data(data)
        return self(x, training=False)

    def _build_before_tracing(self, data, with_optimizer=True):
        """Builds the model's weights and the optimizer's slots eagerly before the first compiled step,
        as Keras' fit does (its symbolic build). A traced step that created them would be traced twice:
        tf.function traces again after a call that created variables."""
        if self.built and (not with_optimizer or self.optimizer is None or self.optimizer.built) \
                and not self._outputs_pending:
            return
        y_pred = None
        if not self.built:
            x, _, _ = unpack_data(data)
            y_pred = self(x, training=False)
        if self._outputs_pending:  # the per-output metrics' variables, made here rather than inside the trace
            graph = getattr(self, "_graph", None)
            if graph is not None:
                y_pred = graph.outputs
            elif y_pred is None:
                y_pred = self(unpack_data(data)[0], training=False)
            self._set_up_outputs(y_pred)
        if with_optimizer and self.optimizer is not None and not self.optimizer.built:
            self.optimizer.build(self.trainable_variables)

    def _step_function(self, kind):
        fn = self._step_functions.get(kind)
        if fn is None:
            with BUILD_LOCK:  # one compiled step per kind even when threads call fit/predict at once
                fn = self._step_functions.get(kind)
                if fn is None:
                    step = getattr(self, f"{kind}_step")
                    fn = step if getattr(self, "run_eagerly", False) else function(
                        step, reduce_retracing=True, jit_compile=True if self.jit_compile else None)
                    if kind == "train" and jit_all_reduce_step.wanted(self):  # XLA on several workers
                        fn = jit_all_reduce_step.split_train_step(self)
                    self._step_functions[kind] = fn
        return fn

    def _make_function(self, kind, force):
        if force:
            with BUILD_LOCK:
                self._step_functions.pop(kind, None)
        return self._step_function(kind)

    def make_train_function(self, force=False):
        """The compiled train step `fit` runs; `force=True` traces it again (after a change its trace
        captured, such as a lookup layer's new vocabulary, which the kept step does not see: as Keras)."""
        return self._make_function("train", force)

    def make_test_function(self, force=False):
        """The compiled test step `evaluate` runs; `force=True` traces it again."""
        return self._make_function("test", force)

    def make_predict_function(self, force=False):
        """The compiled predict step `predict` runs; `force=True` traces it again."""
        return self._make_function("predict", force)

    # --- fit ---
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1):
        plan = TrainingPlan(self)  # the tf.distribute strategy's part: this worker's batches, synced logs
        with plan.scope():
            return self._fit(plan, x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data,
                             shuffle, class_weight, sample_weight, initial_epoch, steps_per_epoch, validation_steps,
                             validation_batch_size, validation_freq)

    def _fit(self, plan, x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data, shuffle,
             class_weight, sample_weight, initial_epoch, steps_per_epoch, validation_steps, validation_batch_size,
             validation_freq):
        self._assert_compiled()
        verbose = 1 if verbose == "auto" else int(verbose)
        train = make_batches(conform_inputs(self, x), y, sample_weight, batch_size, shuffle, class_weight)
        val = None
        if validation_data is not None:
            vx, vy, vsw = unpack_data(tuple(validation_data)) if isinstance(validation_data, (tuple, list)) \
                else (validation_data, None, None)
            val = make_batches(conform_inputs(self, vx), vy, vsw, validation_batch_size or batch_size)
        elif validation_split:
            if not isinstance(train, ArrayBatches):
                raise ValueError("`validation_split` is only supported for Tensors or NumPy arrays, found following "
                                 f"types in the input: {[type(x)]}")
            train, val = train.split(validation_split)
        train, val = plan.local_batches(train), val if val is None else plan.local_batches(val)
        steps = steps_per_epoch or train.steps
        history = _callbacks.History()
        cbs = list(callbacks or []) + [history]  # Keras' order: the user's, History, then the progress output
        if not any(isinstance(cb, _callbacks.ProgbarLogger) for cb in cbs):
            cbs.append(_callbacks.ProgbarLogger())
        params = {"verbose": plan.shown_verbosity(verbose), "epochs": epochs, "steps": steps}
        for cb in cbs:
            cb.set_model(self)
            cb.set_params(params)
        batch_logs_wanted = verbose == 1 or any(cb._wants_batch_logs for cb in cbs)
        train_fn = self._step_function("train")
        self.stop_training = False
        files = WorkerFiles(cbs, plan.strategy)  # multi-worker: only the chief's files remain
        try:  # an interrupted fit removes the workers' temporary folders too
            for cb in cbs:
                cb.on_train_begin()
            files.after_restore(cbs)
            epoch_logs = {}
            initial_epoch = getattr(self, "_initial_epoch", None) or initial_epoch  # set by BackupAndRestore, as Keras
            for epoch in range(initial_epoch, epochs):
                self.reset_metrics()
                for cb in cbs:
                    cb.on_epoch_begin(epoch)
                step, logs = 0, None
                for data in train:
                    if not step and getattr(train_fn, "python_function", None) is not None:
                        self._build_before_tracing(data)
                    if batch_logs_wanted:
                        for cb in cbs:
                            cb.on_train_batch_begin(step)
                    logs = plan.run_step(train_fn, data)
                    step += 1
                    if batch_logs_wanted:
                        float_logs = plan.global_logs(self, logs)
                        for cb in cbs:
                            cb.on_train_batch_end(step - 1, float_logs)
                    if steps_per_epoch and step >= steps_per_epoch or self.stop_training:
                        break
                if logs is None:
                    raise ValueError("Unexpected result of `train_function` (Empty logs). This could be due to issues "
                                     "in input pipeline that resulted in an empty dataset. Otherwise, please use "
                                     "`Model.compile(..., run_eagerly=True)`, or "
                                     "`tf.config.run_functions_eagerly(True)` for more information of where went "
                                     "wrong, or file a issue/bug to `keras`.")
                epoch_logs = plan.global_logs(self, logs)
                if val is not None and (epoch + 1) % validation_freq == 0:
                    val_logs = self._run_evaluation(val, 0, validation_steps, plan)
                    epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
                    epoch_logs = dict(sorted(epoch_logs.items()))
                self._steps_in_epoch = step
                for cb in cbs:
                    cb.on_epoch_end(epoch, epoch_logs)
                if self.stop_training:
                    break
            for cb in cbs:
                cb.on_train_end(epoch_logs)
        finally:
            files.restore()
        self.history = history
        return history

    # --- evaluate / predict ---
    def _run_evaluation(self, batches, verbose, steps=None, plan=None):
        plan = plan or TrainingPlan(self)
        test_fn = self._step_function("test")
        self.reset_metrics()
        bar = Progbar(steps or batches.steps, plan.shown_verbosity(verbose))  # the chief's only
        logs, step = None, 0
        for data in batches:
            if not step and getattr(test_fn, "python_function", None) is not None:
                self._build_before_tracing(data, with_optimizer=False)
            logs = plan.run_step(test_fn, data)
            step += 1
            if verbose == 1:
                bar.update(step, plan.global_logs(self, logs).items())
            if steps and step >= steps:
                break
        if logs is None:
            raise ValueError("Expected at least one batch of data to evaluate on; the data is empty.")
        result = plan.global_logs(self, logs)
        bar.update(step, result.items(), finalize=True)
        return result

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False):
        self._assert_compiled()
        verbose = 1 if verbose == "auto" else int(verbose)
        plan = TrainingPlan(self)
        with plan.scope():
            logs = self._run_evaluation(plan.local_batches(make_batches(conform_inputs(self, x), y, sample_weight,
                                                                        batch_size)), verbose, steps, plan)
        if return_dict:
            return logs
        return self._logs_as_list(logs)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        verbose = 1 if verbose == "auto" else int(verbose)
        batches = make_batches(conform_inputs(self, x), batch_size=batch_size) if not is_dataset(x) \
            else make_batches(x)
        predict_fn = self._step_function("predict")
        plan = TrainingPlan(self)
        batches = plan.local_batches(batches)
        bar = Progbar(steps or batches.steps, plan.shown_verbosity(verbose))
        outputs, step = [], 0
        for data in batches:
            with plan.scope():
                output = nest.map_structure(lambda t: t.numpy(), plan.run_step(predict_fn, data),
                                            expand_composites=True)
            outputs.append(plan.global_outputs(output))
            step += 1
            if verbose == 1:
                bar.update(step)
            if steps and step >= steps:
                break
        bar.update(step, finalize=True)
        if not outputs:
            raise ValueError("Expected at least one batch of data to predict on; the data is empty.")
        flat = [nest.flatten(o, expand_composites=True) for o in outputs]
        joined = [np.concatenate([f[i] for f in flat]) for i in range(len(flat[0]))]
        return nest.pack_sequence_as(outputs[0], joined, expand_composites=True)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        """One compiled training step on one batch; metrics restart first (Keras 3). Returns the logs
        as fit computes them: the loss before the update (regularizers included) and the metrics."""
        self._assert_compiled()
        if class_weight is not None:
            y = check_class_weight(class_weight, y, sample_weight)
            sample_weight = class_weight_to_sample_weights(y, class_weight)
        return self._one_batch("train", (x, y, sample_weight), return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._assert_compiled()
        return self._one_batch("test", (x, y, sample_weight), return_dict)

    def _one_batch(self, kind, data, return_dict):
        x, y, sample_weight = data
        x = conform_inputs(self, x)
        data = (x,) if y is None else ((x, y) if sample_weight is None else (x, y, sample_weight))
        data = nest.map_structure(convert_to_tensor, data, expand_composites=True)
        fn = self._step_function(kind)
        if getattr(fn, "python_function", None) is not None:
            self._build_before_tracing(data)
        self.reset_metrics()
        logs = _float_logs(fn(data))
        if return_dict:
            return logs
        return self._logs_as_list(logs)

    def predict_on_batch(self, x):
        return nest.map_structure(lambda t: t.numpy(), self(conform_inputs(self, x), training=False),
                                  expand_composites=True)

    # --- on disk ---
    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """The whole model (config, weights, optimizer state) as a `.keras` file; see keras/model_saving.py."""
        _saving.save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def save_weights(self, filepath, overwrite=True):
        _saving.save_weights(self, filepath, overwrite)

    def load_weights(self, filepath, skip_mismatch=False):
        _saving.load_weights(self, filepath, skip_mismatch)
