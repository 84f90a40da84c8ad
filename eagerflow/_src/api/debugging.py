"""`tf.debugging`: run-time assertions and numeric checks (ops/debugging/checks.py)."""
from ..ops.debugging.checks import (Assert, assert_all_finite, assert_equal, assert_greater,  # noqa: F401
                          assert_greater_equal, assert_less, assert_less_equal, assert_near, assert_negative,
                          assert_non_negative, assert_non_positive, assert_none_equal, assert_positive,
                          check_numerics)
from ..ops.debugging.static_checks import (assert_integer, assert_rank, assert_rank_at_least, assert_rank_in,  # noqa: F401
                                 assert_scalar, assert_shapes, assert_type)
from ..core.tracebacks import (disable_traceback_filtering, enable_traceback_filtering,  # noqa: F401
                               is_traceback_filtering_enabled)
