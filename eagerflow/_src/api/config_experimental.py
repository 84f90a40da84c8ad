"""`tf.config.experimental`: the device set-up calls programs make before they start."""
from ..core.devices import (enable_op_determinism, enable_tensor_float_32_execution,  # noqa: F401
                            get_device_details, get_memory_growth, get_visible_devices, list_logical_devices,
                            list_physical_devices, set_memory_growth, set_visible_devices,
                            tensor_float_32_execution_enabled)
from ..codegen.jit_dispatch import get_synchronous_execution, set_synchronous_execution  # noqa: F401
