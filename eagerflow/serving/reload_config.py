"""ModelService.HandleReloadConfigRequest: a new ModelServerConfig (protobuf) for the running server, checked
as TensorFlow Serving checks it, then applied by the model manager: new models are loaded, removed ones
unloaded, changed version policies load and retire versions, all before the answer (a client that gets OK
can use the new models at once). Labels are applied only if each names a version AVAILABLE once the new
configuration has loaded, as TensorFlow Serving requires; otherwise the models keep their previous labels
and the call fails with FAILED_PRECONDITION.
"""
from __future__ import annotations

import posixpath

from .._src.formats.protos import serving_apis_pb2 as apis
from .._src.formats.protos import serving_config_pb2 as server_config
from .config import ModelConfig, VersionPolicy
from .errors import invalid_argument

TENSORFLOW_PLATFORM = "tensorflow"


def _platform(config) -> str:
    if config.model_type != server_config.MODEL_TYPE_UNSPECIFIED:
        if config.model_platform:
            raise invalid_argument("Illegal setting both ModelServerConfig::model_type (deprecated) and "
                                   f"ModelServerConfig::model_platform, model name is {config.name}")
        if config.model_type != server_config.TENSORFLOW:
            raise invalid_argument(f"ModelServerConfig::model_type choice {config.model_type} not supported.")
        return TENSORFLOW_PLATFORM
    if not config.model_platform:
        raise invalid_argument("Illegal setting neither ModelServerConfig::model_type (deprecated) nor "
                               f"ModelServerConfig::model_platform, model name is {config.name}")
    return config.model_platform


def _policy(proto) -> VersionPolicy:
    choice = proto.WhichOneof("policy_choice")
    if choice == "all":
        return VersionPolicy("all")
    if choice == "specific":
        return VersionPolicy("specific", versions=tuple(proto.specific.versions))
    if choice == "latest":
        return VersionPolicy("latest", num_versions=proto.latest.num_versions or 1)
    return VersionPolicy()


def model_configs(server_config) -> list:
    """[config.ModelConfig] of a ModelServerConfig message, or the ServingError TensorFlow Serving answers."""
    if server_config.WhichOneof("config") != "model_config_list":
        raise invalid_argument("ServerModelConfig type not supported by HandleReloadConfigRequest. "
                               "Only ModelConfigList is currently supported")
    entries = server_config.model_config_list.config
    names = set()
    for entry in entries:
        if entry.name in names:
            raise invalid_argument(f"Illegal to list model {entry.name} multiple times in config list")
        names.add(entry.name)
    for entry in entries:
        if not (posixpath.isabs(entry.base_path) or "://" in entry.base_path):
            raise invalid_argument(f"Expected model {entry.name} to have an absolute path or URI; got "
                                   f"base_path()={entry.base_path}")
    configs = []
    for entry in entries:
        platform = _platform(entry)
        if platform != TENSORFLOW_PLATFORM:
            raise invalid_argument(f"Model {entry.name} requests unsupported platform {platform}")
        configs.append(ModelConfig(entry.name, entry.base_path, _policy(entry.model_version_policy),
                                   dict(entry.version_labels)))
    return configs


def reload_config(manager, request):
    """The ReloadConfigResponse of a ReloadConfigRequest (a ServingError where it is refused)."""
    configs = model_configs(request.config)
    manager.reconfigure(configs, check_labels=True)
    response = apis.ReloadConfigResponse()
    response.status.SetInParent()  # OK: code 0, no message, present as TensorFlow Serving sends it
    return response

