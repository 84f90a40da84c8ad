"""TensorFlow's error classes (`tf.errors`), with TensorFlow's constructor and `.message`.

Why: users catch `tf.errors.InvalidArgumentError` and search for its message words, so we raise the
same classes, with messages in TensorFlow's wording where TensorFlow raises.
"""
from __future__ import annotations

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """The base class of errors raised while running an op (TF: `tf.errors.OpError`)."""

    def __init__(self, node_def, op, message, error_code=UNKNOWN, *args):
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message
        self.error_code = error_code
        self.experimental_payloads = {}

    def __str__(self):
        return self.message

    def __reduce__(self):
        return type(self), (self.node_def, self.op, self.message)


def _error_class(name: str, code: int, doc: str):
    def __init__(self, node_def=None, op=None, message="", *args):
        OpError.__init__(self, node_def, op, message, code)

    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc})


CancelledError = _error_class("CancelledError", CANCELLED, "An operation was cancelled.")
UnknownError = _error_class("UnknownError", UNKNOWN, "An unknown error.")
InvalidArgumentError = _error_class(
    "InvalidArgumentError", INVALID_ARGUMENT, "An op received an invalid argument (bad value, shape or dtype).")
DeadlineExceededError = _error_class("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired.")
NotFoundError = _error_class("NotFoundError", NOT_FOUND, "A requested entity (file, ...) was not found.")
AlreadyExistsError = _error_class("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _error_class("PermissionDeniedError", PERMISSION_DENIED, "Permission denied.")
UnauthenticatedError = _error_class("UnauthenticatedError", UNAUTHENTICATED, "Not authenticated.")
ResourceExhaustedError = _error_class("ResourceExhaustedError", RESOURCE_EXHAUSTED, "Out of a resource.")
FailedPreconditionError = _error_class(
    "FailedPreconditionError", FAILED_PRECONDITION, "The system is not in a state to run the op.")
AbortedError = _error_class("AbortedError", ABORTED, "An operation was aborted.")
OutOfRangeError = _error_class(
    "OutOfRangeError", OUT_OF_RANGE, "An op iterated past the valid range (e.g. the end of a dataset).")
UnimplementedError = _error_class("UnimplementedError", UNIMPLEMENTED, "An op is not implemented.")
InternalError = _error_class("InternalError", INTERNAL, "An internal invariant was broken.")
UnavailableError = _error_class("UnavailableError", UNAVAILABLE, "A runtime is unavailable.")
DataLossError = _error_class("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption.")


def op_error(cls, op_name: str, message: str) -> OpError:
    """An eager op error in TensorFlow's format: `<message> [Op:<OpType>]`."""
    return cls(None, None, f"{message} [Op:{op_name}]")
