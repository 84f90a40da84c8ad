"""compile()'s losses and metrics for a model with several outputs, by Keras 3.15's rules.

Why its own module: a single-output model keeps the plain path in training.py (one loss, one list of
metrics); a model with several outputs pairs each output with its own loss, weight and metrics,
given as a list or tuple (one entry per output, in output order), a dict keyed by output names, or
one loss for every output. What the logs then hold, as Keras writes them:
- `loss`: the weighted sum of the per-output losses (plus regularization);
- `<output>_loss`: each output's unweighted loss, recorded only when more than one output has a loss;
- `<output>_<metric>`: each output's metrics; a weighted metric whose name is already taken is
  `<output>_weighted_<metric>`, and a name taken again gets `_1`, `_2`, ...
The output names are the output layers' names (a dict output: its keys).
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core import nest
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from .. import losses as _losses
from .. import metrics as _metrics


def is_structure(value):
    return isinstance(value, (list, tuple, dict))


def output_names_of(model):
    """The names Keras gives a model's outputs: its output layers' names, or None when unknown
    (a subclassed model, whose outputs are only known once it runs)."""
    try:
        names = getattr(model, "output_names", None)
    except (AttributeError, ValueError):
        names = None
    if isinstance(names, (list, tuple)) and names:
        return list(names)
    try:
        outputs = model.outputs
    except (AttributeError, ValueError):
        return None
    names = []
    for tensor in outputs or []:
        history = getattr(tensor, "_keras_history", None)
        layer = getattr(history, "layer", None) or getattr(history, "operation", None)
        if layer is None:
            return None
        names.append(layer.name)
    return names or None


def resolve_output_names(y_pred, model_names):
    """The name of each flat output, in the order the containers walk them."""
    if isinstance(y_pred, dict):
        if model_names and set(model_names) == set(y_pred):
            return list(model_names)
        return sorted(y_pred)
    count = len(nest.flatten(y_pred, expand_composites=True))
    if model_names and len(model_names) == count:
        return list(model_names)
    return [None] * count


def flat_by_names(value, names, what):
    """A target/prediction/sample-weight structure as one entry per output."""
    if isinstance(value, dict):
        if all(n is not None for n in names) and set(names) <= set(value):
            return [value[n] for n in names]
        if len(value) == len(names):
            return [value[k] for k in sorted(value)]
        raise ValueError(f"y_true and y_pred have different structures.\n{what}: {sorted(value)}\n"
                         f"outputs: {names}\n")
    flat = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(flat) != len(names):
        raise ValueError(f"y_true and y_pred have different structures.\n{what}: {len(flat)} entries\n"
                         f"y_pred: {len(names)} outputs\n")
    return flat


def _per_output(arg, names, argument):
    """`loss` as one entry per output (None: no loss for that output)."""
    if isinstance(arg, dict):
        if set(arg) != set(names):
            raise ValueError(f"Expected keys {names} in {argument} dict, but found {argument}.keys()={list(arg)}")
        return [arg[n] for n in names]
    if isinstance(arg, (list, tuple)):
        if len(arg) > len(names):
            raise KeyError(f"The path: ({len(names)},) in the `{argument}` argument, can't be found in either the "
                           "model's output (`y_pred`) or in the labels (`y_true`).")
        return list(arg) + [None] * (len(names) - len(arg))
    return [arg] * len(names)


def _weights_per_output(loss, loss_weights, names):
    if loss_weights is None:
        return [None] * len(names)
    if not isinstance(loss_weights, (list, tuple, dict, float, int)) or isinstance(loss_weights, bool):
        raise ValueError("Expected `loss_weights` argument to be a float (single output case) or a list, tuple, or "
                         f"dict (multiple output case). Received instead: loss_weights={loss_weights} of type "
                         f"{type(loss_weights)}")
    if not is_structure(loss_weights) and not is_structure(loss):
        return [loss_weights] * len(names)
    n_losses = len(loss) if is_structure(loss) else 1
    n_weights = len(loss_weights) if is_structure(loss_weights) else 1
    if isinstance(loss, dict) and isinstance(loss_weights, dict):
        return [loss_weights[n] for n in names]
    if n_losses != n_weights:
        raise ValueError(f"`loss_weights` must match the number of losses, got {n_losses} losses and "
                         f"{n_weights} weights.")
    flat = [loss_weights[k] for k in sorted(loss_weights)] if isinstance(loss_weights, dict) else list(loss_weights)
    return flat + [None] * (len(names) - len(flat))


def _loss_object(identifier):
    resolved = _losses.get_compiled(identifier)
    if isinstance(resolved, _losses.Loss):
        return resolved
    name = identifier if isinstance(identifier, str) else getattr(resolved, "__name__", None)
    return _losses.LossFunctionWrapper(resolved, name=name)


class OutputLosses:
    """Each output's loss and weight; `__call__` returns the weighted total and records each
    output's unweighted loss in its `<name>_loss` Mean (when more than one output has a loss)."""

    def __init__(self, loss, loss_weights, names):
        if isinstance(loss, dict) and set(loss) != set(names):
            raise ValueError(f"Expected keys {names} in loss dict, but found loss.keys()={list(loss)}")
        weights = _weights_per_output(loss, loss_weights, names)
        self.entries = []  # (output index, loss object, weight)
        for index, (identifier, weight) in enumerate(zip(_per_output(loss, names, "loss"), weights)):
            if identifier is not None:
                self.entries.append((index, _loss_object(identifier), weight))
        self.trackers = []
        if len(self.entries) > 1:
            for index, loss_obj, _ in self.entries:
                self.trackers.append(_metrics.Mean(name=f"{names[index] or loss_obj.name}_loss"))

    def __call__(self, y_true, y_pred, sample_weight=None, names=None):
        weights = (flat_by_names(sample_weight, names, "sample_weight") if is_structure(sample_weight)
                   else [sample_weight] * len(y_pred))
        total = None
        for k, (index, loss_obj, weight) in enumerate(self.entries):
            sw = weights[index]
            value = loss_obj(y_true[index], y_pred[index], sw) if sw is not None \
                else loss_obj(y_true[index], y_pred[index])
            value = _math.cast(value, _dt.float32)
            if self.trackers:
                batch = _math.cast(_array.shape(y_pred[index])[0], _dt.float32)
                self.trackers[k].update_state(value, sample_weight=batch)
            if weight is not None:
                value = value * float(weight)
            total = value if total is None else total + value
        return total


def _metrics_per_output(metrics, names, argument):
    if not metrics:
        return [None] * len(names)
    if isinstance(metrics, (list, tuple)) and len(metrics) == len(names):
        return list(metrics)
    if isinstance(metrics, dict) and all(n is not None for n in names) and set(metrics) <= set(names):
        return [metrics.get(n) for n in names]
    shown = [n for n in names] if all(n is not None for n in names) else None
    raise ValueError(f"Invalid `{argument}`. `{argument}` should contain metrics objects and either be a dict or a "
                     f"list matching the output names of the functional model {shown} or match the output structure "
                     f"of the model: {['X'] * len(names)}.\nReceived: {argument}={metrics}")


def _metric_list(entry):
    if entry is None:
        return []
    return [_metrics.get_compiled(m) for m in (entry if isinstance(entry, (list, tuple)) else [entry])]


class OutputMetrics:
    """Each output's metrics and weighted metrics, with the log names Keras 3 gives them."""

    def __init__(self, metrics, weighted_metrics, names):
        self.names = names
        self.plain = [_metric_list(e) for e in _metrics_per_output(metrics, names, "metrics")]
        self.weighted = [_metric_list(e) for e in _metrics_per_output(weighted_metrics, names, "weighted_metrics")]
        self.log_names = {}  # id(metric) -> its key in the logs
        taken = {}
        for index, per_output in enumerate(self.plain):
            for m in per_output:
                self.log_names[id(m)] = self._unique(self._prefixed(index, m.name), taken)
        for index, per_output in enumerate(self.weighted):
            for m in per_output:
                name = self._prefixed(index, m.name)
                if name in taken:
                    name = self._unique(self._prefixed(index, f"weighted_{m.name}"), taken)
                else:
                    taken[name] = 1
                self.log_names[id(m)] = name

    def _prefixed(self, index, name):
        return f"{self.names[index]}_{name}" if self.names[index] else name

    @staticmethod
    def _unique(name, taken):
        if name not in taken:
            taken[name] = 1
            return name
        count = taken[name]
        taken[name] += 1
        return f"{name}_{count}"

    @property
    def all_plain(self):
        return [m for per_output in self.plain for m in per_output]

    @property
    def all_weighted(self):
        return [m for per_output in self.weighted for m in per_output]

    def update_state(self, y_true, y_pred, sample_weight=None):
        if is_structure(sample_weight):
            weights = flat_by_names(sample_weight, self.names, "sample_weight")
        else:
            weights = [sample_weight] * len(y_pred)
        for per_output, yt, yp in zip(self.plain, y_true, y_pred):
            for m in per_output:
                m.update_state(yt, yp)
        for per_output, yt, yp, sw in zip(self.weighted, y_true, y_pred, weights):
            for m in per_output:
                m.update_state(yt, yp, sw)

    def results(self):
        return {self.log_names[id(m)]: m.result() for m in self.all_plain + self.all_weighted}
