"""`tf.errors`: the OpError family with TensorFlow's codes, and the errors and warnings raised outside
op kernels (a symbolic tensor used as a Python bool; eagerflow's parity check and stale captures)."""
from ..core.errors import (ABORTED, ALREADY_EXISTS, CANCELLED, DATA_LOSS, DEADLINE_EXCEEDED,  # noqa: F401
                           FAILED_PRECONDITION, INTERNAL, INVALID_ARGUMENT, NOT_FOUND, OK, OUT_OF_RANGE,
                           PERMISSION_DENIED, RESOURCE_EXHAUSTED, UNAUTHENTICATED, UNAVAILABLE, UNIMPLEMENTED,
                           UNKNOWN, AbortedError, AlreadyExistsError, CancelledError, DataLossError,
                           DeadlineExceededError, FailedPreconditionError, InternalError, InvalidArgumentError,
                           NotFoundError, OpError, OutOfRangeError, PermissionDeniedError,
                           ResourceExhaustedError, UnauthenticatedError, UnavailableError, UnimplementedError,
                           UnknownError)
from ..graph.graph import OperatorNotAllowedInGraphError  # noqa: F401 - symbolic tensors as bools or iterated
from ..core.errors import ParityError, ParityWarning  # noqa: F401 - eagerflow's (trace/parity.py)
from ..trace.stale import StaleCaptureWarning  # noqa: F401 - a Python value a tf.function froze changed since
