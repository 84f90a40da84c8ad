"""TensorFlow's error classes (`tf.errors`), with TensorFlow's constructor and `.message`.

Why: users catch `tf.errors.InvalidArgumentError` and search for its message words, so we raise the
same classes, with messages in TensorFlow's wording where TensorFlow raises.
"""
from __future__ import annotations

import linecache

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


def graph_error_message(message: str, node: str, function_name: str, site=None, inputs: str = "") -> str:
    """The text of an error raised while a traced graph runs, in TensorFlow's layout:

        Graph execution error:

        Detected at node add defined at (most recent call last):
          File "model.py", line 12, in <module>
            y = f(a, b)
          File "model.py", line 8, in f
            return a + b

        Incompatible shapes: [2] vs. [3]
        \t [[{{node add}}]] [Op:__inference_f]

    `site` (graph/sites.py Site): the user's line that created the op and the user's frames that led
    there (TensorFlow prints the frames' lines empty; we print their source); None for an op of a
    loaded SavedModel (graph/sites.py `no_user_sites`). `inputs`: eagerflow's
    extra last line, the op's input shapes on this call."""
    text = "Graph execution error:\n\n"
    frames = getattr(site, "stack", ()) or ((site[0], site[1], "?"),) if site else ()
    text += f"Detected at node {node} defined at (most recent call last):\n"
    if not frames:  # an op no Python line of this process made (a loaded SavedModel's): TensorFlow's words
        text += "<stack traces unavailable>\n"
    else:
        for filename, lineno, function in frames:
            text += f'  File "{filename}", line {lineno}, in {function}\n'
            line = linecache.getline(filename, lineno).strip()
            if line:
                text += f"    {line}\n"
        text += "\n"
    text += f"{message}\n\t [[{{{{node {node}}}}}]] [Op:__inference_{function_name}]"
    if inputs:
        text += f"\n{inputs}"
    return text


class ParityWarning(UserWarning):
    """eagerflow extension: a tf.function's graph and an eager run of its Python disagree
    (`tf.config.experimental_check_parity`, trace/parity.py)."""


class ParityError(AssertionError):
    """eagerflow extension: the parity check's difference, raised with mode="raise"."""
