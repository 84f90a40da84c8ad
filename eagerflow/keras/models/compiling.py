"""compile() and what it sets up (Keras 3's Trainer, its compile half): the optimizer (wrapped for
loss scaling under mixed_float16), the loss and metrics, compute_loss / compute_metrics, and the
logs' names and order.

One output keeps the plain path: one loss object, one list of metrics. Per-output arguments, or a
model with several outputs, wait until the outputs are seen (`_set_up_outputs`) and then go through
compile_outputs.py.
"""
from __future__ import annotations

import inspect
import warnings

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.core import nest
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from .. import losses as _losses
from .. import metrics as _metrics
from .. import optimizers as _optimizers
from .compile_outputs import (OutputLosses, OutputMetrics, flat_by_names, is_structure, output_names_of,
                              resolve_output_names)

def _nested(metrics):
    """Whether a `metrics` argument is given per output (a dict, or a list holding lists or dicts)."""
    return isinstance(metrics, dict) or (isinstance(metrics, (list, tuple))
                                         and any(m is None or is_structure(m) for m in metrics))


def output_count_of(model):
    """How many outputs a model has when that is known before it runs (functional, Sequential), else None."""
    names = output_names_of(model)
    return None if names is None else len(names)


class Compiling:
    """The compile half of Trainer (a mixin: Trainer.__init__ sets the fields it reads)."""

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
            return self._metric_result_tensors()
        for m in self._compiled_metrics:
            m.update_state(y, y_pred)
        for m in self._weighted_metrics:
            m.update_state(y, y_pred, sample_weight)
        return self._metric_result_tensors()

    def _metric_result_tensors(self):
        """Every metric's current result by its log name (what compute_metrics returns)."""
        if self._output_metrics is not None:
            logs = {m.name: m.result() for m in [self._loss_tracker] + list(self._output_loss_trackers)}
            logs.update(self._output_metrics.results())
            return logs
        return {m.name: m.result() for m in self.metrics}

    def get_metrics_result(self):
        """Keras 3's: the metrics' current results as Python floats (fit's epoch logs under a strategy,
        where the metric states have been summed over the workers)."""
        return {k: float(np.asarray(v)) for k, v in self._metric_result_tensors().items()}
