"""`tf.dtypes`."""
from ..core.dtypes import (DType, as_dtype, bfloat16, bool_ as bool, complex64, complex128, float16, float32,  # noqa: F401
                           float64, int8, int16, int32, int64, resource, string, uint8, uint16, uint32,
                           uint64, variant)

double = float64
half = float16

from ..ops.array.basic import cast  # noqa: F401,E402
from ..ops.math.truncating import saturate_cast  # noqa: F401,E402
