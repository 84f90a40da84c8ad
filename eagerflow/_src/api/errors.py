"""`tf.errors`."""
from ..core.errors import (ABORTED, ALREADY_EXISTS, CANCELLED, DATA_LOSS, DEADLINE_EXCEEDED,  # noqa: F401
                           FAILED_PRECONDITION, INTERNAL, INVALID_ARGUMENT, NOT_FOUND, OK, OUT_OF_RANGE,
                           PERMISSION_DENIED, RESOURCE_EXHAUSTED, UNAUTHENTICATED, UNAVAILABLE, UNIMPLEMENTED,
                           UNKNOWN, AbortedError, AlreadyExistsError, CancelledError, DataLossError,
                           DeadlineExceededError, FailedPreconditionError, InternalError, InvalidArgumentError,
                           NotFoundError, OpError, OutOfRangeError, PermissionDeniedError,
                           ResourceExhaustedError, UnauthenticatedError, UnavailableError, UnimplementedError,
                           UnknownError)

# --- issue 9 point 5: raised by symbolic tensors used as Python bools or iterated (graph/graph.py) ---
from ..graph.graph import OperatorNotAllowedInGraphError  # noqa: F401,E402
# --- end ---

# --- issue 13 point 2: the eager/graph parity check (trace/parity.py), eagerflow's ---
from ..core.errors import ParityError, ParityWarning  # noqa: F401,E402
# --- end ---
# --- issue 13 point 1: a Python value a tf.function froze has changed since (trace/stale.py) ---
from ..trace.stale import StaleCaptureWarning  # noqa: F401,E402
# --- end ---
