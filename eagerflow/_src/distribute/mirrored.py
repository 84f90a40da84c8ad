"""MirroredStrategy (one replica per local device) and OneDeviceStrategy (one replica).

The CPU is this machine's only device; `tf.config.set_logical_device_configuration` splits it into N
logical ones, and MirroredStrategy then runs N replicas (in threads, see replica_context.py), as
TensorFlow does. Variables made in scope() are MirroredVariables whose replicas share one storage
(they live on the one CPU, so copies would be the same memory), or SyncOnReadVariables with a value
per replica (distributed_variables.py).
"""
from __future__ import annotations

from ..core.devices import list_logical_devices, parse_device_spec
from .cross_device_ops import CrossDeviceOps
from .strategy import Strategy, StrategyExtended


def canonical_device(spec, task=0) -> str:
    """TensorFlow's full device name for a device string ("/cpu:1" -> /job:localhost/.../device:CPU:1)."""
    fields = parse_device_spec(spec)
    kind = fields.get("device_type", "CPU")
    index = fields.get("device_index", 0)
    if kind != "CPU" or index >= len(list_logical_devices("CPU")):
        raise ValueError(f"Unknown device {spec!r}: this machine has the logical devices "
                         f"{[d.name for d in list_logical_devices('CPU')]}")
    return f"/job:localhost/replica:0/task:{task}/device:{kind}:{index}"


class MirroredExtended(StrategyExtended):
    def __init__(self, strategy, devices, cross_device_ops=None):
        super().__init__(strategy, devices)
        self._cross_device_ops = cross_device_ops
        self._variable_created = self._distribute_new_variable


class MirroredStrategy(Strategy):
    """`tf.distribute.MirroredStrategy(devices=None)`: a replica on each device (every logical CPU by
    default); gradients are summed over the replicas before each update."""

    def __init__(self, devices=None, cross_device_ops=None):
        if cross_device_ops is not None and not isinstance(cross_device_ops, CrossDeviceOps):
            raise ValueError(f"cross_device_ops must be a tf.distribute.CrossDeviceOps, got {cross_device_ops!r}")
        if devices is None:
            devices = [d.name for d in list_logical_devices("CPU")]
        if isinstance(devices, str):
            devices = [devices]
        names = [canonical_device(d) for d in devices]
        if not names:
            raise ValueError("MirroredStrategy needs at least one device.")
        if len(set(names)) != len(names):  # TensorFlow's class for this one is AssertionError
            raise AssertionError(f"No duplicates allowed in `devices` argument: {tuple(names)}")
        super().__init__(MirroredExtended(self, names, cross_device_ops))


class OneDeviceStrategy(Strategy):
    """`tf.distribute.OneDeviceStrategy(device)`: everything on one device, through the strategy API."""

    def __init__(self, device):
        super().__init__(StrategyExtended(self, [canonical_device(device)]))
