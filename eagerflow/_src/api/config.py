"""`tf.config`: the switch that makes every `tf.function` run its Python eagerly, and the bound on
the traces each `tf.function` keeps (eagerflow's; trace/cache.py)."""
from ..core.context import functions_run_eagerly, run_functions_eagerly  # noqa: F401
from ..trace.cache import get_function_max_traces, set_function_max_traces  # noqa: F401

# --- devices and threads (issue 9 point 5): core/devices.py, core/threads.py ---
from ..core.devices import (LogicalDevice, PhysicalDevice, get_soft_device_placement,  # noqa: F401,E402
                            get_visible_devices, list_logical_devices, list_physical_devices,
                            set_soft_device_placement, set_visible_devices)
from . import config_experimental as experimental  # noqa: F401,E402
from . import config_threading as threading  # noqa: F401,E402
# --- end devices and threads ---
