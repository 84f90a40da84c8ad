"""compile / fit / evaluate / predict (Keras 3's Trainer).

fit compiles `train_step` once per compile() with tf.function (reduce_retracing, as Keras does, so
a short last batch generalises the batch dimension instead of adding exact-shape traces). The
step returns the running metric results; they become Python floats only where someone reads them
(the progress line with verbose=1, per-batch callbacks, and once per epoch), so a silent fit does
no per-step conversions. Logs are sorted by name, as Keras prints and records them.
"""
from __future__ import annotations

import inspect
import warnings

import numpy as np

from ..._src.autodiff.tape import GradientTape
from ..._src.core import dtypes as _dt
from ..._src.core import nest
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..._src.trace.function import function
from .. import callbacks as _callbacks
from .. import losses as _losses
from .. import metrics as _metrics
from .. import optimizers as _optimizers
from .. import saving as _saving
from ..layers.base import BUILD_LOCK
from ..progbar import Progbar
from .compile_outputs import (OutputLosses, OutputMetrics, flat_by_names, is_structure, output_names_of,
                              resolve_output_names)
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


def _nested(metrics):
    """Whether a `metrics` argument is given per output (a dict, or a list holding lists or dicts)."""
    return isinstance(metrics, dict) or (isinstance(metrics, (list, tuple))
                                         and any(m is None or is_structure(m) for m in metrics))


def output_count_of(model):
    """How many outputs a model has when that is known before it runs (functional, Sequential), else None."""
    names = output_names_of(model)
    return None if names is None else len(names)


def _float_logs(logs):
    return {k: float(np.asarray(logs[k])) for k in sorted(logs)}


class Trainer:
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

    # --- compile ---
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None, weighted_metrics=None,
                run_eagerly=False, steps_per_execution=1, jit_compile="auto", auto_scale_loss=True):
        # As given: for the saved compile_config, and for the per-output setup once the outputs are seen.
        self._compile_metrics_arg, self._compile_weighted_metrics_arg = metrics, weighted_metrics
        self._compile_loss_weights_arg = loss_weights
        self.optimizer = _optimizers.get(optimizer)
        self._compile_optimizer = self.optimizer  # before any loss-scale wrapping: what compile_config records
        if auto_scale_loss and getattr(getattr(self, "dtype_policy", None), "name", None) == "mixed_float16" \
                and not isinstance(self.optimizer, _optimizers.LossScaleOptimizer):
            # Keras 3: float16 gradients underflow without loss scaling, so compile adds it.
            self.optimizer = _optimizers.LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        self.loss = loss  # as given ('mse' stays 'mse'), as Keras 3's model.loss and compile_config keep it
        self._loss_tracker = _metrics.Mean(name="loss")
        self._output_losses = self._output_metrics = self._output_names = None
        # Per-output arguments, or a model known to have several outputs: resolved once the outputs are seen.
        self._outputs_pending = (is_structure(loss) or is_structure(loss_weights) or _nested(metrics)
                                 or _nested(weighted_metrics) or (output_count_of(self) or 1) > 1)
        if self._outputs_pending:
            self._use_single_output(None, None, None, None)
        else:
            self._use_single_output(loss, loss_weights, metrics, weighted_metrics)
        self.run_eagerly = run_eagerly
        if jit_compile == "auto":  # Keras 3 resolves it to False on CPU
            jit_compile = False
        if jit_compile and run_eagerly:
            warnings.warn("If `run_eagerly` is True, then `jit_compile` cannot also be True. Disabling `jit_compile`.",
                          stacklevel=2)
            jit_compile = False
        self.jit_compile = jit_compile  # also resets the step functions
        self.compiled = True

    def _use_single_output(self, loss, loss_weight, metrics, weighted_metrics):
        resolved = _losses.get_compiled(loss)
        # A loss given as a function ('mse' resolves to one) is called through Keras' wrapper, as
        # compile() does in Keras 3: targets paired with predictions by rank, sample weights applied
        # by the reduction.
        self._compiled_loss = (resolved if resolved is None or isinstance(resolved, _losses.Loss)
                               else _losses.LossFunctionWrapper(resolved))
        self._single_loss_weight = loss_weight
        # Keras 3: `metrics` ignore sample weights (and class_weight); `weighted_metrics` use them, named
        # "weighted_<name>" when an unweighted metric has the same name.
        self._compiled_metrics = [_metrics.get_compiled(m, resolved) for m in (metrics or [])]
        unweighted_names = {m.name for m in self._compiled_metrics}
        self._weighted_metrics = []
        self._weighted_metric_names = []  # before any "weighted_": what evaluate's list is ordered by
        for m in weighted_metrics or []:
            metric = _metrics.get_compiled(m, resolved)
            self._weighted_metric_names.append(metric.name)
            if metric.name in unweighted_names:
                metric.name = f"weighted_{metric.name}"
            self._weighted_metrics.append(metric)

    def _set_up_outputs(self, y_pred):
        """Pairs the compile() arguments with the outputs once `y_pred`'s structure is known: one
        output unwraps one-entry lists/dicts to the single-output path; several get OutputLosses and
        OutputMetrics (see compile_outputs.py)."""
        self._outputs_pending = False
        loss, weights = self.loss, self._compile_loss_weights_arg
        metrics, weighted = self._compile_metrics_arg, self._compile_weighted_metrics_arg
        names = resolve_output_names(y_pred, output_names_of(self))
        if len(names) == 1:
            def one(value):
                if isinstance(value, dict):
                    return next(iter(value.values())) if len(value) == 1 else value
                return value[0] if isinstance(value, (list, tuple)) and len(value) == 1 else value
            flat = (lambda m: None if m is None else nest.flatten(m if is_structure(m) else [m]))
            self._use_single_output(one(loss), one(weights), flat(metrics), flat(weighted))
            return
        self._output_names = names
        self._output_losses = OutputLosses(loss, weights, names) if loss is not None else None
        self._output_metrics = OutputMetrics(metrics, weighted, names)
        self._compiled_metrics = self._output_metrics.all_plain
        self._weighted_metrics = self._output_metrics.all_weighted
        self._weighted_metric_names = [m.name for m in self._weighted_metrics]
        self._output_loss_trackers = self._output_losses.trackers if self._output_losses is not None else []

    def get_compile_config(self):
        """compile()'s arguments as the `.keras` file records them (Keras 3)."""
        from ..compile_config import compile_config
        return compile_config(self)

    def compile_from_config(self, config):
        from ..compile_config import compile_from_config
        compile_from_config(self, config)

    @property
    def jit_compile(self):
        """Whether fit/evaluate/predict compile their steps through XLA (`tf.function(jit_compile=True)`:
        the `xla` extra); set by compile(), or afterwards."""
        return getattr(self, "_jit_compile", False)

    @jit_compile.setter
    def jit_compile(self, value):
        self._jit_compile = bool(value)
        self._step_functions = {}

    def _assert_compiled(self):
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    @property
    def metrics(self):
        """Keras 3's order: the loss tracker, the compiled metrics, then each output's loss tracker."""
        return (([self._loss_tracker] if self._loss_tracker is not None else []) + self._all_compiled_metrics
                + list(self._output_loss_trackers))

    @property
    def _all_compiled_metrics(self):
        return list(self._compiled_metrics) + list(self._weighted_metrics)

    def _logs_as_list(self, logs):
        """The logs as evaluate/test_on_batch/train_on_batch return them without return_dict, by
        Keras 3.15's rule: the value of each metric's name in the order of `metrics` (a weighted
        metric by its name before "weighted_", so a name both lists use comes twice), then every
        other key in sorted order; one value alone is returned bare.
        E.g. metrics=["mae"], weighted_metrics=["mae"]: [loss, mae, mae, weighted_mae]."""
        names = ([self._loss_tracker.name] if self._loss_tracker is not None else []) \
            + [m.name for m in self._compiled_metrics] + list(self._weighted_metric_names) \
            + [m.name for m in self._output_loss_trackers]
        values = [logs[n] for n in names if n in logs] + [logs[k] for k in sorted(logs) if k not in names]
        return values[0] if len(values) == 1 else values

    @property
    def metrics_names(self):
        given = self._all_compiled_metrics or (self._outputs_pending and (self._compile_metrics_arg
                                                                          or self._compile_weighted_metrics_arg))
        return (["loss", "compile_metrics"] if given else ["loss"]) + [m.name for m in self._output_loss_trackers]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    # --- the steps (override train_step/test_step/predict_step as in Keras) ---
    def _outputs_unresolved(self, y_pred):
        """Whether the per-output setup is still to be made: compile() asked for it, or a model whose
        outputs were unknown at compile() (subclassed) turns out to have several."""
        return self._outputs_pending or (
            self._output_metrics is None and is_structure(y_pred)
            and len(nest.flatten(y_pred, expand_composites=True)) > 1)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        if self._outputs_unresolved(y_pred):
            self._set_up_outputs(y_pred)
        losses = []
        loss_fn = self._compiled_loss
        if self._output_losses is not None:
            names = self._output_names
            losses.append(self._output_losses(self._per_output(y, "y"), self._per_output(y_pred, "y_pred"),
                                              sample_weight, names))
        elif loss_fn is not None:
            value = loss_fn(y, y_pred, sample_weight) if sample_weight is not None else loss_fn(y, y_pred)
            if self._single_loss_weight is not None:
                value = value * float(self._single_loss_weight)
            losses.append(value)
        for extra in self.losses:  # add_loss and regularizer terms, summed into the total as Keras 3 does
            extra = convert_to_tensor(extra)
            losses.append(_reduce.reduce_sum(extra if extra.dtype.is_floating else _math.cast(extra, _dt.float32)))
        if not losses:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return losses[0] if len(losses) == 1 else _math.add_n(losses)

    def _per_output(self, value, what):
        return flat_by_names(value, self._output_names, what)

    def _compute_loss(self, x, y, y_pred, sample_weight, training):
        """compute_loss called as its (possibly overridden) signature allows: an override written
        before Keras 3.3 has no `training` argument."""
        if "training" in inspect.signature(self.compute_loss).parameters:
            return self.compute_loss(x, y, y_pred, sample_weight, training=training)
        return self.compute_loss(x, y, y_pred, sample_weight)

    def compute_metrics(self, x, y, y_pred, sample_weight=None, loss=None):
        if self._outputs_unresolved(y_pred):
            self._set_up_outputs(y_pred)
        if loss is not None:
            batch = _math.cast(_array.shape(nest.flatten(x, expand_composites=True)[0])[0], _dt.float32)
            self._loss_tracker.update_state(loss, sample_weight=batch)
        if self._output_metrics is not None:
            self._output_metrics.update_state(self._per_output(y, "y"), self._per_output(y_pred, "y_pred"),
                                              sample_weight)
            logs = {m.name: m.result() for m in [self._loss_tracker] + list(self._output_loss_trackers)}
            logs.update(self._output_metrics.results())
            return logs
        for m in self._compiled_metrics:
            m.update_state(y, y_pred)
        for m in self._weighted_metrics:
            m.update_state(y, y_pred, sample_weight)
        return {m.name: m.result() for m in self.metrics}

    def train_step(self, data):
        x, y, sample_weight = unpack_data(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self._compute_loss(x, y, y_pred, sample_weight, training=True)
            scaled_loss = self.optimizer.scale_loss(loss)  # the loss itself unless loss scaling is on
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
                    self._step_functions[kind] = fn
        return fn

    # --- fit ---
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1):
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
        steps = steps_per_epoch or train.steps
        history = _callbacks.History()
        cbs = list(callbacks or []) + [history]  # Keras' order: the user's, History, then the progress output
        if not any(isinstance(cb, _callbacks.ProgbarLogger) for cb in cbs):
            cbs.append(_callbacks.ProgbarLogger())
        params = {"verbose": verbose, "epochs": epochs, "steps": steps}
        for cb in cbs:
            cb.set_model(self)
            cb.set_params(params)
        batch_logs_wanted = verbose == 1 or any(cb._wants_batch_logs for cb in cbs)
        train_fn = self._step_function("train")
        self.stop_training = False
        for cb in cbs:
            cb.on_train_begin()
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
                logs = train_fn(data)
                step += 1
                if batch_logs_wanted:
                    float_logs = _float_logs(logs)
                    for cb in cbs:
                        cb.on_train_batch_end(step - 1, float_logs)
                if steps_per_epoch and step >= steps_per_epoch or self.stop_training:
                    break
            if logs is None:
                raise ValueError("Unexpected result of `train_function` (Empty logs). This could be due to issues in "
                                 "input pipeline that resulted in an empty dataset. Otherwise, please use "
                                 "`Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_eagerly(True)` "
                                 "for more information of where went wrong, or file a issue/bug to `keras`.")
            epoch_logs = _float_logs(logs)
            if val is not None and (epoch + 1) % validation_freq == 0:
                val_logs = self._run_evaluation(val, 0, validation_steps)
                epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
                epoch_logs = dict(sorted(epoch_logs.items()))
            self._steps_in_epoch = step
            for cb in cbs:
                cb.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        for cb in cbs:
            cb.on_train_end(epoch_logs)
        self.history = history
        return history

    # --- evaluate / predict ---
    def _run_evaluation(self, batches, verbose, steps=None):
        test_fn = self._step_function("test")
        self.reset_metrics()
        bar = Progbar(steps or batches.steps, verbose)
        logs, step = None, 0
        for data in batches:
            if not step and getattr(test_fn, "python_function", None) is not None:
                self._build_before_tracing(data, with_optimizer=False)
            logs = test_fn(data)
            step += 1
            if verbose == 1:
                bar.update(step, _float_logs(logs).items())
            if steps and step >= steps:
                break
        if logs is None:
            raise ValueError("Expected at least one batch of data to evaluate on; the data is empty.")
        result = _float_logs(logs)
        bar.update(step, result.items(), finalize=True)
        return result

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False):
        self._assert_compiled()
        verbose = 1 if verbose == "auto" else int(verbose)
        logs = self._run_evaluation(make_batches(conform_inputs(self, x), y, sample_weight, batch_size), verbose,
                                    steps)
        if return_dict:
            return logs
        return self._logs_as_list(logs)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        verbose = 1 if verbose == "auto" else int(verbose)
        batches = make_batches(conform_inputs(self, x), batch_size=batch_size) if not is_dataset(x) \
            else make_batches(x)
        predict_fn = self._step_function("predict")
        bar = Progbar(steps or batches.steps, verbose)
        outputs, step = [], 0
        for data in batches:
            outputs.append(nest.map_structure(lambda t: t.numpy(), predict_fn(data), expand_composites=True))
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
        _saving.load_weights(self, filepath)
