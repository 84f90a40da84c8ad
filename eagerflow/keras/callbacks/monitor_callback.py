"""The base of EarlyStopping, ModelCheckpoint and ReduceLROnPlateau: which way is "better" for the
monitored quantity, and whether a value improves on a reference.

Why a shared base: Keras 3 decides `mode="auto"` in one place (MonitorCallback._set_monitor_op), at
the first epoch end, once the compiled metrics exist: 'loss' / 'val_loss' is minimised; otherwise
the compiled metric whose *name* equals the monitor without its 'val_' prefix decides by its
`_direction` ('up' -> maximise). A metric without a direction (a plain function, TruePositives, a
name that matches nothing) is a ValueError, not a guess from the spelling of the name.
"""
from __future__ import annotations

import operator
import warnings

from .callback import Callback


def compiled_metrics_by_name(model):
    """(name, metric) for each metric compile() made, named as Keras 3's CompileMetrics names them:
    a weighted metric by its name before any 'weighted_' prefix the logs give it."""
    pairs = [(m.name, m) for m in getattr(model, "_compiled_metrics", ())]
    weighted = getattr(model, "_weighted_metrics", ())
    names = getattr(model, "_weighted_metric_names", [m.name for m in weighted])
    pairs.extend(zip(names, weighted))
    return pairs


class MonitorCallback(Callback):
    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=3)
            mode = "auto"
        self.monitor, self.mode, self.best = monitor, mode, baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None  # operator.lt (minimise) or operator.gt (maximise), set at the first epoch end

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = operator.lt
        elif self.mode == "max":
            self.monitor_op = operator.gt
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = operator.lt
            for metric_name, metric in compiled_metrics_by_name(self.model):
                direction = getattr(metric, "_direction", None)
                if metric_name == name and direction is not None:
                    self.monitor_op = operator.gt if direction == "up" else operator.lt
            if self.monitor_op is None:
                raise ValueError(
                    f"{type(self).__name__} callback received monitor={self.monitor}, but Keras isn't able to "
                    f"automatically determine whether that metric should be maximized or minimized. Pass "
                    f"`mode='max'` in order to monitor based on the highest metric value, or pass `mode='min'` "
                    f"in order to use the lowest value.")
        if self.monitor_op is operator.lt:
            self.min_delta = -abs(self.min_delta)

    def _is_improvement(self, value, reference):
        if reference is None:
            return True
        if self.monitor_op is None:
            self._set_monitor_op()
        return bool(self.monitor_op(value - self.min_delta, reference))


