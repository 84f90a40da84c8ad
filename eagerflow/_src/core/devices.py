"""Devices: `tf.device`, `tf.config.list_physical_devices` / `list_logical_devices`.

The CPU is the only device. `tf.device` accepts TensorFlow's device strings (parsed with
TensorFlow's rules, so a malformed one raises its ValueError) and places everything on the CPU, as
TensorFlow's soft placement does for a device that is not there.
"""
from __future__ import annotations

import collections

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])

_PHYSICAL = (PhysicalDevice("/physical_device:CPU:0", "CPU"),)
_LOGICAL = (LogicalDevice("/device:CPU:0", "CPU"),)


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration", ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """One logical device a physical one is split into (`tf.config.LogicalDeviceConfiguration`)."""

    def __new__(cls, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority, experimental_device_ordinal)


# The CPU's split into logical devices (`set_logical_device_configuration`); None: one device.
_cpu_split = {"configurations": None}


def parse_device_spec(spec: str) -> dict:
    """The fields of a device string ("/job:w/replica:0/task:0/device:GPU:1", "/cpu:0", "gpu"),
    with TensorFlow's ValueError for a part it does not know."""
    fields = {}
    for part in spec.split("/"):
        if not part:
            continue
        y = part.split(":")
        n = len(y)
        if n == 2 and y[0] == "job":
            fields["job"] = y[1]
        elif n == 2 and y[0] in ("replica", "task"):
            fields[y[0]] = int(y[1])
        elif n in (1, 2) and y[0].upper() in ("CPU", "GPU"):
            fields["device_type"] = y[0].upper()
            if n == 2 and y[1] != "*":
                fields["device_index"] = int(y[1])
        elif n == 3 and y[0] == "device":
            fields["device_type"] = y[1]
            if y[2] != "*":
                fields["device_index"] = int(y[2])
        else:
            raise ValueError(f"Unknown attribute '{y[0]}' is encountered while parsing the device spec: '{spec}'.")
    return fields


class device:
    """`tf.device(name)`: a scope accepting any TensorFlow device string; ops run on the CPU."""

    def __init__(self, device_name):
        if callable(device_name):
            raise RuntimeError("tf.device does not support functions.")
        self.fields = parse_device_spec(device_name) if isinstance(device_name, str) else {}
        self.device_name = device_name

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _matching(devices, device_type):
    if device_type is None:
        return list(devices)
    return [d for d in devices if d.device_type == device_type]  # case-sensitive, as in TensorFlow


def list_physical_devices(device_type=None):
    """`tf.config.list_physical_devices`: the one CPU (an empty list for "GPU" and other types)."""
    return _matching(_PHYSICAL, device_type)


def list_logical_devices(device_type=None):
    """`tf.config.list_logical_devices`: the CPU as one LogicalDevice, or as the N that
    `set_logical_device_configuration` split it into (MirroredStrategy runs one replica on each)."""
    configurations = _cpu_split["configurations"]
    devices = _LOGICAL if not configurations else tuple(
        LogicalDevice(f"/device:CPU:{i}", "CPU") for i in range(len(configurations)))
    return _matching(devices, device_type)


def set_logical_device_configuration(device, logical_devices):
    """`tf.config.set_logical_device_configuration`: split the CPU into `len(logical_devices)` logical
    devices. They share the one CPU; what they change is how many replicas MirroredStrategy runs."""
    _known([device])
    configurations = list(logical_devices) if logical_devices is not None else None
    for c in configurations or []:
        if not isinstance(c, LogicalDeviceConfiguration):
            raise ValueError(f"Expected LogicalDeviceConfiguration, got {type(c).__name__}")
    _cpu_split["configurations"] = configurations or None


def get_logical_device_configuration(device):
    """`tf.config.get_logical_device_configuration`: the split set for the CPU, or None."""
    _known([device])
    configurations = _cpu_split["configurations"]
    return None if configurations is None else list(configurations)


def get_visible_devices(device_type=None):
    """`tf.config.get_visible_devices`: every physical device is visible."""
    return list_physical_devices(device_type)


# --- what programs set up before they start (accepted; the one CPU is unaffected) ---------------

_settings = {"soft_placement": True, "tensor_float_32": True}


def _known(devices):
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    for d in devices:
        if d not in _PHYSICAL:
            raise ValueError(f"Unrecognized device: {d!r}")
    return list(devices)


def set_visible_devices(devices, device_type=None):
    """`tf.config.set_visible_devices`: checked like TensorFlow's; hiding GPUs (the usual call,
    `set_visible_devices([], "GPU")`) is a no-op here."""
    _known(devices)


def get_soft_device_placement():
    return _settings["soft_placement"]


def set_soft_device_placement(enabled):
    _settings["soft_placement"] = bool(enabled)


def set_memory_growth(device, enable):
    """`tf.config.experimental.set_memory_growth`: only GPUs have it (TensorFlow's ValueError for the CPU)."""
    _known([device])
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def get_memory_growth(device):
    _known([device])
    raise KeyError(device)  # TensorFlow's answer for a device without the setting


def get_device_details(device):
    _known([device])
    return {}


def enable_op_determinism():
    """The kernels are NumPy's and run one at a time: already deterministic."""


def enable_tensor_float_32_execution(enabled):
    _settings["tensor_float_32"] = bool(enabled)


def tensor_float_32_execution_enabled():
    return _settings["tensor_float_32"]
