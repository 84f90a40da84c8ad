"""A compiled model's compile_config (optimizer, loss, metrics) written and read back by name.

Optimizers and losses are described by their constructor arguments, read back from the object's
attributes; loading builds them from the shipped classes only (or custom_objects / registered ones).
"""
from __future__ import annotations

import inspect

import numpy as np

from . import losses as _losses
from . import metrics as _metrics
from . import optimizers as _optimizers
from .saving.serialization import deserialize_keras_object


def _constructor_values(obj, extra=None):
    values = {}
    extra = extra or {}
    for name, param in inspect.signature(type(obj).__init__).parameters.items():
        if name == "self" or param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
            continue
        if name in extra:
            values[name] = extra[name]
        elif hasattr(obj, name):
            values[name] = getattr(obj, name)
    return values


def _plain_number(value):
    return value.item() if isinstance(value, np.generic) else value


def optimizer_config(opt):
    if isinstance(opt, _optimizers.LossScaleOptimizer):  # its config nests the inner optimizer's, as Keras'
        inner = dict(opt.get_config(), inner_optimizer=optimizer_config(opt.inner_optimizer))
        return {"module": "keras.optimizers", "class_name": "LossScaleOptimizer", "config": inner,
                "registered_name": None}
    lr = opt._schedule if opt._schedule is not None else float(np.asarray(opt._learning_rate.numpy()))
    if opt._schedule is not None:
        lr = {"module": "keras.optimizers.schedules", "class_name": type(lr).__name__, "config": lr.get_config(),
              "registered_name": None}
    # Keras 3 records the optimizer's get_config (name, learning rate, the common options, its own
    # arguments); constructor arguments a subclass adds follow.
    config = dict(opt.get_config())
    config["learning_rate"] = lr
    for key, value in _constructor_values(opt, {"learning_rate": lr}).items():
        config.setdefault(key, value)
    return {"module": "keras.optimizers", "class_name": type(opt).__name__,
            "config": {k: _plain_number(v) for k, v in config.items()}, "registered_name": None}


def loss_config(loss):
    if loss is None or isinstance(loss, str):
        return loss
    if isinstance(loss, _losses.Loss):
        config = _constructor_values(loss, getattr(loss, "kwargs", {}))
        return {"module": "keras.losses", "class_name": type(loss).__name__, "config": config, "registered_name": None}
    registered = getattr(loss, "_keras_registered_name", None)
    return registered or getattr(loss, "__name__", None)


def metric_config(metric):
    if isinstance(metric, str):
        return metric
    if isinstance(metric, _metrics.Metric) and any("get_config" in vars(c) for c in type(metric).__mro__
                                                   if c not in (_metrics.Metric, _metrics.Mean, object)):
        return {"module": "keras.metrics", "class_name": type(metric).__name__, "config": metric.get_config(),
                "registered_name": None}
    return getattr(metric, "name", getattr(metric, "__name__", None))


def _per_output(config_of, value):
    """A per-output argument (list, tuple or dict of entries, each maybe a list) described entry by entry."""
    if isinstance(value, dict):
        return {k: _per_output(config_of, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_per_output(config_of, v) for v in value]
    return None if value is None else config_of(value)


def _plain_weights(value):
    if isinstance(value, dict):
        return {k: _plain_weights(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_weights(v) for v in value]
    return _plain_number(value)


def compile_config(model):
    if not getattr(model, "compiled", False):
        return {}
    optimizer = getattr(model, "_compile_optimizer", None) or model.optimizer  # as given, before loss scaling
    weighted = getattr(model, "_compile_weighted_metrics_arg", None)
    return {"optimizer": optimizer_config(optimizer), "loss": _per_output(loss_config, model.loss),
            "loss_weights": _plain_weights(getattr(model, "_compile_loss_weights_arg", None)),
            "metrics": _per_output(metric_config, getattr(model, "_compile_metrics_arg", None) or []),
            "weighted_metrics": _per_output(metric_config, weighted) if weighted else None,
            "run_eagerly": bool(getattr(model, "run_eagerly", False)),
            "steps_per_execution": 1, "jit_compile": bool(getattr(model, "jit_compile", False))}


def _optimizer_from(config, custom_objects):
    classes = {c.__name__: c for c in _optimizers._CLASSES}
    if isinstance(config, str):
        return _optimizers.get(config)
    inner = dict(config.get("config") or {})
    lr = inner.get("learning_rate")
    if isinstance(lr, dict):
        inner["learning_rate"] = deserialize_keras_object(
            lr, {"ExponentialDecay": _optimizers.schedules.ExponentialDecay}, custom_objects, "learning rate schedule")
    return deserialize_keras_object({**config, "config": inner}, classes, custom_objects, "optimizer")


def _loss_from(config, custom_objects):
    if isinstance(config, dict) and "class_name" not in config:  # per output, by output name
        return {k: _loss_from(v, custom_objects) for k, v in config.items()}
    if isinstance(config, (list, tuple)):
        return [_loss_from(v, custom_objects) for v in config]
    if config is None or isinstance(config, str):
        if isinstance(config, str) and custom_objects and config in custom_objects:
            return custom_objects[config]
        return config
    classes = _losses._CLASSES
    return deserialize_keras_object(config, classes, custom_objects, "loss")


def _metric_from(config, custom_objects):
    if isinstance(config, dict) and "class_name" not in config:  # per output, by output name
        return {k: _metric_from(v, custom_objects) for k, v in config.items()}
    if isinstance(config, (list, tuple)):
        return [_metric_from(v, custom_objects) for v in config]
    if isinstance(config, dict):
        classes = _metrics._CLASSES
        return deserialize_keras_object(config, classes, custom_objects, "metric")
    return config


def compile_from_config(model, config, custom_objects=None):
    model.compile(optimizer=_optimizer_from(config["optimizer"], custom_objects),
                  loss=_loss_from(config.get("loss"), custom_objects),
                  loss_weights=config.get("loss_weights"),
                  metrics=_metric_from(config.get("metrics") or [], custom_objects),
                  weighted_metrics=_metric_from(config.get("weighted_metrics") or [], custom_objects),
                  run_eagerly=bool(config.get("run_eagerly", False)),
                  jit_compile=bool(config.get("jit_compile", False)))
