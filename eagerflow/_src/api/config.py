"""`tf.config`: devices and threads, the switch that makes every `tf.function` run its Python eagerly,
and eagerflow's own settings: the bound on the traces each `tf.function` keeps (trace/cache.py) and
the eager/graph parity check (trace/parity.py)."""
from ..core.context import functions_run_eagerly, run_functions_eagerly  # noqa: F401
from ..core.devices import (LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice,  # noqa: F401
                            get_logical_device_configuration, get_soft_device_placement, get_visible_devices,
                            list_logical_devices, list_physical_devices, set_logical_device_configuration,
                            set_soft_device_placement, set_visible_devices)
from ..trace.cache import get_function_max_traces, set_function_max_traces  # noqa: F401
from ..trace.parity import experimental_check_parity, experimental_get_check_parity  # noqa: F401

from . import config_experimental as experimental  # noqa: F401
from . import config_optimizer as optimizer  # noqa: F401
from . import config_threading as threading  # noqa: F401
