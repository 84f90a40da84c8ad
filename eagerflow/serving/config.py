"""TensorFlow Serving's configuration files, read from their text format into plain dataclasses.

--model_config_file holds a ModelServerConfig: `model_config_list { config { name: ... base_path: ...
model_version_policy { latest { num_versions: 2 } | all {} | specific { versions: 1 versions: 3 } }
version_labels { key: "stable" value: 1 } } ... }`. --batching_parameters_file holds a
BatchingParameters message (`max_batch_size { value: 32 }`, the wrapper types' `value`), and
--monitoring_config_file a MonitoringConfig (`prometheus_config { enable: true path: "..." }`).
Unknown fields are errors, as protobuf's text parser makes them: a typo must not be silently ignored.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .text_format import TextFormatError, parse


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class VersionPolicy:
    """Which version folders are served: the newest `num_versions`, all of them, or those listed."""
    kind: str = "latest"          # "latest" | "all" | "specific"
    num_versions: int = 1
    versions: tuple = ()

    def choose(self, available) -> set:
        available = sorted(available)
        if self.kind == "all":
            return set(available)
        if self.kind == "specific":
            return set(self.versions) & set(available)
        return set(available[-max(self.num_versions, 1):]) if available else set()


@dataclass(frozen=True)
class ModelConfig:
    name: str
    base_path: str
    policy: VersionPolicy = VersionPolicy()
    labels: dict = field(default_factory=dict)  # label -> version


@dataclass(frozen=True)
class BatchingParameters:
    """TensorFlow Serving's batching parameters, with its defaults."""
    max_batch_size: int = 1000
    batch_timeout_micros: int = 0
    max_enqueued_batches: int = 10
    num_batch_threads: int = 1
    allowed_batch_sizes: tuple = ()
    pad_variable_length_inputs: bool = False


@dataclass(frozen=True)
class MonitoringConfig:
    prometheus_enabled: bool = False
    prometheus_path: str = "/monitoring/prometheus/metrics"


def _read(path: str, what: str) -> dict:
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError as err:
        raise ConfigError(f"cannot read the {what} {path}: {err.strerror or err}") from None
    try:
        return parse(text)
    except TextFormatError as err:
        raise ConfigError(f"{path}: {err}") from None


def _check_fields(message: dict, allowed, where: str):
    unknown = sorted(set(message) - set(allowed))
    if unknown:
        raise ConfigError(f"{where}: unknown field {unknown[0]!r} (known: {', '.join(sorted(allowed))})")


def _one(message: dict, name: str, kind, where: str, default=None):
    values = message.get(name)
    if not values:
        return default
    if len(values) > 1:
        raise ConfigError(f"{where}: field {name!r} given {len(values)} times")
    value = values[0]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise ConfigError(f"{where}: field {name!r} must be {_kind_name(kind)}, got {value!r}")
    return value


def _kind_name(kind):
    return {str: "a string", int: "an integer", bool: "true or false", dict: "a message"}.get(kind, str(kind))


def _policy(message: dict, where: str) -> VersionPolicy:
    _check_fields(message, ("latest", "all", "specific"), where)
    if len(message) != 1 or len(next(iter(message.values()))) != 1:
        raise ConfigError(f"{where}: give exactly one of latest, all, specific")
    kind, (body,) = next(iter(message.items()))
    if not isinstance(body, dict):
        raise ConfigError(f"{where}: {kind} must be a message")
    if kind == "latest":
        _check_fields(body, ("num_versions",), f"{where}.latest")
        return VersionPolicy("latest", num_versions=_one(body, "num_versions", int, where, 1))
    if kind == "all":
        _check_fields(body, (), f"{where}.all")
        return VersionPolicy("all")
    _check_fields(body, ("versions",), f"{where}.specific")
    versions = body.get("versions", [])
    if not versions or not all(isinstance(v, int) and not isinstance(v, bool) for v in versions):
        raise ConfigError(f"{where}.specific: versions must be one or more integers")
    return VersionPolicy("specific", versions=tuple(versions))


def _labels(entries, where: str) -> dict:
    labels = {}
    for entry in entries:
        _check_fields(entry, ("key", "value"), where)
        key, value = _one(entry, "key", str, where), _one(entry, "value", int, where)
        if key is None or value is None:
            raise ConfigError(f"{where}: each entry needs a key and a value")
        labels[key] = value
    return labels


def _model_config(message: dict, where: str) -> ModelConfig:
    _check_fields(message, ("name", "base_path", "model_platform", "model_version_policy", "version_labels",
                            "model_type", "logging_config"), where)
    name = _one(message, "name", str, where)
    base_path = _one(message, "base_path", str, where)
    if not name or not base_path:
        raise ConfigError(f"{where}: every model needs a name and a base_path")
    platform = _one(message, "model_platform", str, where, "tensorflow")
    if platform != "tensorflow":
        raise ConfigError(f"{where}: model_platform {platform!r} is not served (only 'tensorflow')")
    policy_message = _one(message, "model_version_policy", dict, where)
    policy = _policy(policy_message, f"{where}.model_version_policy") if policy_message else VersionPolicy()
    return ModelConfig(name, base_path, policy, _labels(message.get("version_labels", []), f"{where}.version_labels"))


def read_model_config_file(path: str) -> list:
    """The models of a ModelServerConfig file (`model_config_list { config { ... } ... }`)."""
    message = _read(path, "model config file")
    _check_fields(message, ("model_config_list",), path)
    config_list = _one(message, "model_config_list", dict, path) or {}
    _check_fields(config_list, ("config",), f"{path}: model_config_list")
    models = [_model_config(entry, f"{path}: config {index}")
              for index, entry in enumerate(config_list.get("config", []), 1)]
    names = [m.name for m in models]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate:
        raise ConfigError(f"{path}: model {duplicate!r} is configured more than once")
    return models


def _wrapped(message: dict, name: str, kind, where: str, default):
    """A google.protobuf wrapper field: `max_batch_size { value: 32 }`."""
    wrapper = _one(message, name, dict, where)
    if wrapper is None:
        return default
    _check_fields(wrapper, ("value",), f"{where}.{name}")
    return _one(wrapper, "value", kind, f"{where}.{name}", default)


def read_batching_parameters(path) -> BatchingParameters:
    if path is None:
        return BatchingParameters()
    message = _read(path, "batching parameters file")
    _check_fields(message, ("max_batch_size", "batch_timeout_micros", "max_enqueued_batches", "num_batch_threads",
                            "thread_pool_name", "allowed_batch_sizes", "pad_variable_length_inputs",
                            "enable_large_batch_splitting", "max_execution_batch_size"), path)
    defaults = BatchingParameters()
    params = BatchingParameters(
        max_batch_size=_wrapped(message, "max_batch_size", int, path, defaults.max_batch_size),
        batch_timeout_micros=_wrapped(message, "batch_timeout_micros", int, path, defaults.batch_timeout_micros),
        max_enqueued_batches=_wrapped(message, "max_enqueued_batches", int, path, defaults.max_enqueued_batches),
        num_batch_threads=_wrapped(message, "num_batch_threads", int, path, defaults.num_batch_threads),
        allowed_batch_sizes=tuple(message.get("allowed_batch_sizes", ())),
        pad_variable_length_inputs=_one(message, "pad_variable_length_inputs", bool, path, False))
    _check_batching(params, path)
    return params


def _check_batching(params: BatchingParameters, path):
    for name in ("max_batch_size", "max_enqueued_batches", "num_batch_threads"):
        if getattr(params, name) < 1:
            raise ConfigError(f"{path}: {name} must be positive, got {getattr(params, name)}")
    if params.batch_timeout_micros < 0:
        raise ConfigError(f"{path}: batch_timeout_micros must not be negative")
    sizes = params.allowed_batch_sizes
    if sizes:
        if any(not isinstance(s, int) or s < 1 for s in sizes) or list(sizes) != sorted(set(sizes)):
            raise ConfigError(f"{path}: allowed_batch_sizes must be positive and strictly increasing")
        if sizes[-1] != params.max_batch_size:  # TensorFlow Serving's rule: the last entry is the batch limit
            raise ConfigError(f"{path}: the last entry of allowed_batch_sizes must equal max_batch_size "
                              f"({sizes[-1]} != {params.max_batch_size})")


def read_monitoring_config(path) -> MonitoringConfig:
    if path is None:
        return MonitoringConfig()
    message = _read(path, "monitoring config file")
    _check_fields(message, ("prometheus_config",), path)
    prometheus = _one(message, "prometheus_config", dict, path) or {}
    _check_fields(prometheus, ("enable", "path"), f"{path}: prometheus_config")
    default = MonitoringConfig().prometheus_path
    metrics_path = _one(prometheus, "path", str, path, "") or default
    if not metrics_path.startswith("/"):
        raise ConfigError(f"{path}: prometheus_config.path must start with '/'")
    return MonitoringConfig(bool(_one(prometheus, "enable", bool, path, False)), metrics_path)


def single_model(name: str, base_path: str) -> list:
    """--model_name/--model_base_path: one model, the latest version."""
    return [ModelConfig(name, os.fspath(base_path))]
